/**
 * The admin portal's webhook pages (lib/webhooks/manage.ts): the endpoints, registering one (its signing
 * secret shown once), enabling, disabling and deleting, an endpoint's deliveries and "send again". Each takes
 * the admin requireAdmin()/asAdmin() returned; the use cases record who did it. Expected failures come back
 * as values for the form.
 */
import 'server-only';
import { serverContext } from '../../context.ts';
import { formProblems, formText, type FieldProblems } from '../../platform/forms.ts';
import { webhookEventTypes, type WebhookEventType } from '../../webhooks/events.ts';
import {
  createEndpoint,
  deleteEndpoint,
  deliveryPage,
  findEndpoint,
  listEndpoints,
  resendEndpointDelivery,
  updateEndpoint,
  type DeliveryPage,
  type WebhookEndpointRecord,
} from '../../webhooks/manage.ts';
import { deliveryStatuses, type DeliveryStatus } from '../../webhooks/outbox.ts';
import type { AdminUser } from './access.ts';
import { byAdmin } from './audit-context.ts';

export const WEBHOOK_FIELDS = ['url', 'description', 'events'] as const;
export type WebhookField = (typeof WEBHOOK_FIELDS)[number];

export interface WebhookFormValues {
  url: string;
  description: string;
  events: string[];
}

export const NEW_WEBHOOK: WebhookFormValues = { url: '', description: '', events: ['user.created', 'user.updated', 'user.deleted'] };

export type WebhookFormState =
  | { status: 'editing'; values: WebhookFormValues; problems: FieldProblems<WebhookField> }
  | { status: 'created'; id: string; url: string; secret: string };

export async function listWebhooksFor(_admin: AdminUser): Promise<WebhookEndpointRecord[]> {
  return listEndpoints(serverContext().db);
}

export async function createWebhookFromForm(admin: AdminUser, form: FormData): Promise<WebhookFormState> {
  const values: WebhookFormValues = {
    url: formText(form, 'url', 2000),
    description: formText(form, 'description', 200),
    events: form.getAll('events').filter((v): v is string => typeof v === 'string' && (webhookEventTypes as readonly string[]).includes(v)),
  };
  try {
    const { endpoint, secret } = await createEndpoint(
      serverContext().db,
      { url: values.url, description: values.description, events: values.events as WebhookEventType[] },
      await byAdmin(admin),
    );
    return { status: 'created', id: endpoint.id, url: endpoint.url, secret };
  } catch (error) {
    return { status: 'editing', values, problems: formProblems(error, WEBHOOK_FIELDS) };
  }
}

/** Enables (which clears a run of failures; pending deliveries go out) or disables an endpoint. */
export async function setWebhookEnabledFor(admin: AdminUser, id: string, enabled: boolean): Promise<{ status: 'done' | 'not_found' }> {
  const { db } = serverContext();
  if (!(await findEndpoint(db, id))) return { status: 'not_found' };
  await updateEndpoint(db, id, { enabled }, await byAdmin(admin));
  return { status: 'done' };
}

export async function deleteWebhookFor(admin: AdminUser, id: string): Promise<{ status: 'done' | 'not_found' }> {
  const { db } = serverContext();
  if (!(await findEndpoint(db, id))) return { status: 'not_found' };
  await deleteEndpoint(db, id, await byAdmin(admin));
  return { status: 'done' };
}

/** An endpoint and one page of its deliveries (`status` and `page` from the query string; anything else ignored). */
export async function webhookDeliveriesFor(
  _admin: AdminUser,
  id: string,
  query: { status?: unknown; page?: unknown },
): Promise<{ endpoint: WebhookEndpointRecord; page: DeliveryPage; status?: DeliveryStatus } | undefined> {
  const { db } = serverContext();
  const endpoint = await findEndpoint(db, id);
  if (!endpoint) return undefined;
  const status = (deliveryStatuses as readonly unknown[]).includes(query.status) ? (query.status as DeliveryStatus) : undefined;
  const number = Number(query.page);
  const page = await deliveryPage(db, id, { status, page: Number.isInteger(number) && number >= 1 && number <= 100_000 ? number : 1, perPage: 50 });
  return { endpoint, page, status };
}

export async function resendWebhookDeliveryFor(admin: AdminUser, id: string, deliveryId: string): Promise<{ status: 'done' | 'not_found' }> {
  const { db, now } = serverContext();
  if (!(await findEndpoint(db, id))) return { status: 'not_found' };
  try {
    await resendEndpointDelivery(db, id, deliveryId, now(), await byAdmin(admin));
    return { status: 'done' };
  } catch {
    return { status: 'not_found' };
  }
}
