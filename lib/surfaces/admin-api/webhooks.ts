/** The admin API's webhook operations (lib/webhooks/manage.ts). */
import {
  createEndpoint,
  deleteEndpoint,
  deliveryPage,
  findEndpointOrThrow,
  listEndpoints,
  resendEndpointDelivery,
  updateEndpoint,
} from '../../webhooks/manage.ts';
import { deliveryToWire, endpointToWire } from '../../webhooks/wire.ts';
import { operations } from './operations.ts';
import { endpoint } from './route.ts';

export const listWebhooks = endpoint(operations.listWebhooks, async ({ db }) => ({ data: (await listEndpoints(db)).map(endpointToWire) }));

export const createWebhook = endpoint(operations.createWebhook, async ({ db, body, by }) => {
  const { endpoint: created, secret } = await createEndpoint(db, body, by);
  return { ...endpointToWire(created), secret };
});

export const getWebhook = endpoint(operations.getWebhook, async ({ db, params }) => endpointToWire(await findEndpointOrThrow(db, params.id)));

export const updateWebhook = endpoint(operations.updateWebhook, async ({ db, params, body, by }) =>
  endpointToWire(await updateEndpoint(db, params.id, body, by)),
);

export const deleteWebhook = endpoint(operations.deleteWebhook, async ({ db, params, by }) => {
  await deleteEndpoint(db, params.id, by);
});

export const listWebhookDeliveries = endpoint(operations.listWebhookDeliveries, async ({ db, params, query }) => {
  const page = await deliveryPage(db, params.id, { status: query.status, page: query.page, perPage: query.per_page });
  return { data: page.deliveries.map(deliveryToWire), page: page.page, per_page: page.perPage, total: page.total };
});

export const resendWebhookDelivery = endpoint(operations.resendWebhookDelivery, async ({ db, params, by, now }) =>
  deliveryToWire(await resendEndpointDelivery(db, params.id, params.deliveryId, now(), by)),
);
