/**
 * The events a webhook endpoint can subscribe to, and which audit actions raise them. Every event is an
 * audit entry first (lib/audit/events.ts): the audit log is where a change is recorded, so an event
 * raised there cannot be forgotten by a new use case. The payload follows Standard Webhooks
 * (`{type, timestamp, data}`) and carries only what the audit entry holds, which is already free of
 * secrets, hashes and tokens (lib/audit/log.ts sanitizes it first).
 */
import type { AuditAction } from '../audit/events.ts';

export const webhookEventTypes = [
  'user.created',
  'user.updated',
  'user.deleted',
  'user.locked',
  'user.unlocked',
  'user.signed_in',
  'user.sign_in_failed',
  'user.factor_added',
  'user.factor_removed',
  'client.created',
  'client.updated',
  'client.deleted',
  'key.rotated',
] as const;
export type WebhookEventType = (typeof webhookEventTypes)[number];

/**
 * Audit action → the event it raises. Several actions may raise one event (`user.updated` for a profile,
 * role, enabled state or verified address); `data.action` then names the audit action itself.
 */
export const eventOfAction: Partial<Record<AuditAction, WebhookEventType>> = {
  'user.created': 'user.created',
  'user.signed_up': 'user.created',
  'user.updated': 'user.updated',
  'user.role_changed': 'user.updated',
  'user.enabled': 'user.updated',
  'user.disabled': 'user.updated',
  'user.email_verified': 'user.updated',
  'user.deleted': 'user.deleted',
  'user.locked': 'user.locked',
  'user.unlocked': 'user.unlocked',
  'sign_in.succeeded': 'user.signed_in',
  'sign_in.failed': 'user.sign_in_failed',
  'factor.enrolled': 'user.factor_added',
  'factor.removed': 'user.factor_removed',
  'factor.reset': 'user.factor_removed',
  'client.created': 'client.created',
  'client.registered': 'client.created',
  'client.updated': 'client.updated',
  'client.enabled': 'client.updated',
  'client.disabled': 'client.updated',
  'client.approved': 'client.updated',
  'client.secret_rotated': 'client.updated',
  'client.registration_updated': 'client.updated',
  'client.deleted': 'client.deleted',
  'client.registration_deleted': 'client.deleted',
  'key.rotated': 'key.rotated',
};

/** What an audit entry holds that an event is made from. */
export interface AuditedChange {
  action: AuditAction;
  at: Date;
  actor: { id: string | null; username: string | null } | null;
  target: { type: string; id: string | null; label: string | null } | null;
  /** The entry's details as stored: validated and sanitized. */
  details: Record<string, unknown>;
}

export interface WebhookEvent {
  type: WebhookEventType;
  /** What orders deliveries to one endpoint: a later event of one subject is never sent before an earlier one. */
  subject: string;
  /** The Standard Webhooks body. */
  payload: { type: WebhookEventType; timestamp: string; data: Record<string, unknown> };
}

/** The resource an event is about, named after its kind in `data`. */
const subjectKind: Record<string, 'user' | 'client' | 'key'> = { user: 'user', client: 'client', signing_key: 'key' };

/**
 * The event an audit entry raises, or undefined: an action no event maps, or an entry about nobody in
 * particular (failed sign-ins with unknown usernames are counted per source, not per person).
 */
export function webhookEventOf(change: AuditedChange): WebhookEvent | undefined {
  const type = eventOfAction[change.action];
  const kind = change.target ? subjectKind[change.target.type] : undefined;
  if (!type || !kind || !change.target?.id) return undefined;
  const { details } = change;
  // A key's subject is its algorithm: the rotations of one algorithm follow each other.
  const subject = kind === 'key' ? `key:${String(details.alg ?? change.target.id)}` : `${kind}:${change.target.id}`;
  const resource =
    kind === 'user'
      ? { id: change.target.id, username: change.target.label }
      : kind === 'client'
        ? { id: change.target.id, name: change.target.label }
        : { kid: change.target.id };
  return {
    type,
    subject,
    payload: {
      type,
      timestamp: change.at.toISOString(),
      data: {
        [kind]: resource,
        action: change.action,
        actor: change.actor ? { id: change.actor.id, username: change.actor.username } : null,
        details,
      },
    },
  };
}
