/**
 * Webhook endpoints and their deliveries on the wire (lib/webhooks/wire.ts): the signing secret only in
 * the answer to a creation, never again.
 */
import { z } from 'zod';
import { webhookEventTypes } from '../../../webhooks/events.ts';
import { deliveryStatuses } from '../../../webhooks/outbox.ts';
import { pageOf, paging, pathId, timestamp } from './common.ts';

const events = z.array(z.enum(webhookEventTypes)).meta({ description: 'The event types sent to it (see docs/webhooks.md).' });

export const webhookSchema = z
  .strictObject({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    events,
    enabled: z.boolean(),
    disabled_reason: z
      .enum(['failing'])
      .nullable()
      .meta({ description: 'failing: Gatehouse disabled it after WEBHOOK_DISABLE_AFTER_FAILURES failed attempts in a row; enable it to resume.' }),
    disabled_at: timestamp.nullable(),
    consecutive_failures: z.number().int().min(0),
    failing_since: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });

export const webhookListSchema = z.strictObject({ data: z.array(webhookSchema) });

export const createdWebhookSchema = webhookSchema
  .extend({ secret: z.string().meta({ description: 'The signing secret (whsec_...), in this answer only: keep it where the receiver reads it.' }) })
  .meta({ id: 'CreatedWebhookEndpoint' });

const writable = {
  url: z.string().meta({ description: 'https (http only on loopback addresses); redirects are not followed.' }),
  description: z.string(),
  events,
  enabled: z.boolean(),
};

export const newWebhookBodySchema = z.strictObject(writable).partial().required({ url: true, events: true });
export const webhookPatchSchema = z.strictObject(writable).partial();

export const webhookDeliverySchema = z
  .strictObject({
    id: z.string().meta({ description: 'The webhook-id header: the same at every attempt.' }),
    type: z.enum(webhookEventTypes),
    subject: z.string().meta({ description: 'What orders deliveries: user:<id>, client:<id>, key:<alg>.' }),
    status: z.enum(deliveryStatuses),
    attempts: z.number().int().min(0),
    created_at: timestamp,
    last_attempt_at: timestamp.nullable(),
    next_attempt_at: timestamp.nullable().meta({ description: 'When a pending delivery is tried next.' }),
    last_status: z.number().int().nullable().meta({ description: "The last answer's HTTP status; null when none came." }),
    last_error: z.string().nullable(),
    response_excerpt: z.string().nullable().meta({ description: "The start of the last answer's body (at most 300 characters)." }),
    payload: z.record(z.string(), z.unknown()).meta({ description: 'The body sent: {type, timestamp, data}.' }),
  })
  .meta({ id: 'WebhookDelivery' });

export const webhookDeliveryListSchema = pageOf(webhookDeliverySchema);

export const deliveryQuerySchema = z.strictObject({
  status: z.enum(deliveryStatuses).optional().meta({ description: 'Only deliveries in this state.' }),
  ...paging,
});

export const webhookId = z.strictObject({ id: pathId(100).meta({ description: "The endpoint's id." }) });
export const webhookDeliveryParams = z.strictObject({
  id: pathId(100).meta({ description: "The endpoint's id." }),
  deliveryId: pathId(100).meta({ description: "The delivery's id (msg_...)." }),
});
