/**
 * Webhook endpoints and deliveries on the wire, as the admin API answers them and `gatehouse webhook ... --json`
 * prints them (lib/surfaces/admin-api/dto/webhooks.ts): never the signing secret, which only creation returns.
 */
import type { WebhookDeliveryRecord, WebhookEndpointRecord } from './repository.ts';

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function endpointToWire(endpoint: WebhookEndpointRecord) {
  return {
    id: endpoint.id,
    url: endpoint.url,
    description: endpoint.description,
    events: endpoint.events,
    enabled: endpoint.enabled,
    disabled_reason: endpoint.disabledReason,
    disabled_at: iso(endpoint.disabledAt),
    consecutive_failures: endpoint.consecutiveFailures,
    failing_since: iso(endpoint.failingSince),
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
  };
}

export function deliveryToWire(delivery: WebhookDeliveryRecord) {
  return {
    id: delivery.id,
    type: delivery.type,
    subject: delivery.subject,
    status: delivery.status,
    attempts: delivery.attempts,
    created_at: delivery.createdAt.toISOString(),
    last_attempt_at: iso(delivery.lastAttemptAt),
    next_attempt_at: iso(delivery.nextAttemptAt),
    last_status: delivery.lastStatus,
    last_error: delivery.lastError,
    response_excerpt: delivery.responseExcerpt,
    payload: delivery.payload,
  };
}
