/**
 * The admins' use cases for webhook endpoints (the portal, the CLI, the admin API): validated with one zod
 * schema, every change audited. An endpoint's signing secret is made here, returned once by `createEndpoint`
 * and never again. URLs are https, except on loopback addresses (a receiver on the same machine, the tests),
 * like connections' endpoints.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { z } from 'zod';
import { recordAuditBy, type AuditBy } from '../audit/log.ts';
import type { Database } from '../db/database.ts';
import { isLoopbackHttp } from '../federation/loopback.ts';
import { NotFound, parseInput } from '../platform/errors.ts';
import { pageRange, pageWindow } from '../platform/paging.ts';
import { webhookEventTypes } from './events.ts';
import { deliveryStatuses, resendDelivery } from './outbox.ts';
import {
  deleteEndpoint as deleteEndpointRow,
  findDelivery,
  findEndpoint,
  insertEndpoint,
  listDeliveries,
  listEndpoints,
  updateEndpoint as updateEndpointRow,
  type WebhookDeliveryRecord,
  type WebhookEndpointRecord,
} from './repository.ts';

export { findEndpoint, listEndpoints, type WebhookDeliveryRecord, type WebhookEndpointRecord };

const url = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => {
    const parsed = URL.parse(value);
    return Boolean(parsed && !parsed.username && !parsed.password && !parsed.hash && (parsed.protocol === 'https:' || isLoopbackHttp(value)));
  }, 'Must be an https URL (http only for loopback addresses), without credentials or fragment');

const fields = {
  url,
  description: z.string().trim().max(200),
  events: z
    .array(z.enum(webhookEventTypes))
    .min(1, 'Choose at least one event')
    .transform((events) => webhookEventTypes.filter((type) => events.includes(type))),
  enabled: z.boolean(),
};

export const newEndpointSchema = z.strictObject({ ...fields, description: fields.description.default(''), enabled: fields.enabled.default(true) });
export const endpointUpdateSchema = z.strictObject(fields).partial();
export type NewEndpointInput = z.input<typeof newEndpointSchema>;
export type EndpointUpdate = z.input<typeof endpointUpdateSchema>;

const target = (endpoint: { id: string; url: string }) => ({ type: 'webhook' as const, id: endpoint.id, label: endpoint.url });

/** A new signing secret: `whsec_` and 32 random bytes in base64, the form the Standard Webhooks libraries take. */
export const newSigningSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export async function findEndpointOrThrow(db: Database, id: string): Promise<WebhookEndpointRecord> {
  const endpoint = await findEndpoint(db, id);
  if (!endpoint) throw new NotFound(`no webhook endpoint with id ${id}`);
  return endpoint;
}

/** Registers an endpoint; `secret` is in this answer only. */
export async function createEndpoint(db: Database, input: NewEndpointInput, by?: AuditBy): Promise<{ endpoint: WebhookEndpointRecord; secret: string }> {
  const data = parseInput(newEndpointSchema, input);
  const secret = newSigningSecret();
  const endpoint = await insertEndpoint(db, randomUUID(), data, secret);
  await recordAuditBy(db, by, { action: 'webhook.created', target: target(endpoint), details: { events: endpoint.events, enabled: endpoint.enabled } });
  return { endpoint, secret };
}

export async function updateEndpoint(db: Database, id: string, input: EndpointUpdate, by?: AuditBy): Promise<WebhookEndpointRecord> {
  const current = await findEndpointOrThrow(db, id);
  const changes = parseInput(endpointUpdateSchema, input);
  const changed = (Object.keys(changes) as (keyof typeof changes)[]).filter((key) => JSON.stringify(changes[key]) !== JSON.stringify(current[key]));
  const updated = await updateEndpointRow(db, id, changes);
  if (changed.length) await recordAuditBy(db, by, { action: 'webhook.updated', target: target(updated), details: { changed } });
  return updated;
}

/** Deletes the endpoint with its deliveries, the pending ones too. */
export async function deleteEndpoint(db: Database, id: string, by?: AuditBy): Promise<void> {
  const current = await findEndpointOrThrow(db, id);
  await deleteEndpointRow(db, id);
  await recordAuditBy(db, by, { action: 'webhook.deleted', target: target(current), details: {} });
}

export const deliveryQuerySchema = z.strictObject({
  status: z.enum(deliveryStatuses).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  perPage: z.coerce.number().int().min(1).max(100).default(20),
});

export interface DeliveryPage {
  deliveries: WebhookDeliveryRecord[];
  page: number;
  perPage: number;
  pageCount: number;
  total: number;
}

/** One page of an endpoint's deliveries, newest first. */
export async function deliveryPage(db: Database, endpointId: string, query: z.input<typeof deliveryQuerySchema> = {}): Promise<DeliveryPage> {
  await findEndpointOrThrow(db, endpointId);
  const { status, page, perPage } = parseInput(deliveryQuerySchema, query);
  const { deliveries, total } = await listDeliveries(db, endpointId, { status, ...pageRange(page, perPage) });
  return { deliveries, page, perPage, total, pageCount: pageWindow(page, perPage, total, deliveries.length).pageCount };
}

/**
 * "Send again": a delivered or failed delivery goes out once more, with the same `webhook-id` (receivers
 * that saw it may drop it as a duplicate) and a fresh count of attempts. A pending one is left as it is.
 */
export async function resendEndpointDelivery(db: Database, endpointId: string, deliveryId: string, now: number, by?: AuditBy): Promise<WebhookDeliveryRecord> {
  const endpoint = await findEndpointOrThrow(db, endpointId);
  const delivery = await findDelivery(db, deliveryId);
  if (!delivery || delivery.endpointId !== endpointId) throw new NotFound(`no delivery ${deliveryId} of this endpoint`);
  if (await resendDelivery(db, deliveryId, now)) {
    await recordAuditBy(db, by, { action: 'webhook.delivery_resent', target: target(endpoint), details: { deliveryId, type: delivery.type } });
  }
  return (await findDelivery(db, deliveryId)) ?? delivery;
}
