/**
 * Audit log entries on the wire, and the filters a list takes. The filters
 * are the audit page's (auditLogPage in lib/audit/log.ts), checked
 * strictly here: an API caller is told about a bad filter rather than getting
 * the whole log back.
 */
import { z } from 'zod';
import type { AuditEventRecord } from '../../../audit/repository.ts';
import { auditActions, type AuditAction } from '../../../audit/events.ts';
import { iso, pageOf, paging, timestamp } from './common.ts';

/** A UTC day (yyyy-mm-dd, a real one) or an RFC 3339 instant, as the audit page reads them. */
const dayOrTime = z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: 'expected a date (yyyy-mm-dd) or an RFC 3339 date-time' });

export const auditQuerySchema = z.strictObject({
  action: z.enum(auditActions as [AuditAction, ...AuditAction[]]).optional(),
  actor: z.string().trim().max(100).optional().meta({ description: "Part of the actor's name (a username, or client:<client_id>), or a user id." }),
  target: z.string().trim().max(200).optional().meta({ description: "Part of the target's label, or its exact id." }),
  from: dayOrTime.optional().meta({ description: 'From this UTC day (yyyy-mm-dd) or instant, inclusive.' }),
  to: dayOrTime.optional().meta({ description: 'Up to this UTC day (inclusive) or instant.' }),
  ...paging,
});

export const auditEventSchema = z
  .strictObject({
    id: z.string(),
    at: timestamp,
    action: z.string().meta({ description: `One of: ${auditActions.join(', ')}.` }),
    actor: z
      .strictObject({
        id: z.string().nullable(),
        username: z.string().nullable(),
        role: z
          .string()
          .nullable()
          .meta({ description: 'The admin role the actor acted with (owner, admin, user_manager, auditor); null when not an admin action.' }),
      })
      .nullable()
      .meta({ description: 'Who acted: a user, a client calling this API (id null, username client:<client_id>), or null for Gatehouse itself.' }),
    target: z.strictObject({ type: z.string(), id: z.string().nullable(), label: z.string().nullable() }).nullable(),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).meta({ description: 'Fixed per action; never a secret, password, code or token.' }),
  })
  .meta({ id: 'AuditEvent' });

export const auditEventListSchema = pageOf(auditEventSchema).meta({ id: 'AuditEventList' });

const snake = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** The details' keys in the wire's snake_case, at any depth (they are stored as the use cases name them). */
export function snakeKeys(value: unknown, depth = 0): unknown {
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => snakeKeys(item, depth + 1));
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, item]) => [snake(key), snakeKeys(item, depth + 1)]));
}

export function auditEventDto(event: AuditEventRecord): z.input<typeof auditEventSchema> {
  return {
    id: event.id,
    at: iso(event.at),
    action: event.action,
    actor: event.actor ? { id: event.actor.id, username: event.actor.username, role: event.actor.role ?? null } : null,
    target: event.target,
    ip: event.ip,
    user_agent: event.userAgent,
    details: snakeKeys(event.details) as Record<string, unknown>,
  };
}

/** The export's range: the list's `from` and `to` (a UTC day, `to` its end, or an RFC 3339 instant). */
export const auditExportQuerySchema = z.strictObject({
  from: dayOrTime.optional().meta({ description: 'Entries at or after this UTC day (yyyy-mm-dd) or instant.' }),
  to: dayOrTime.optional().meta({ description: 'Entries at or before this UTC day (inclusive) or instant.' }),
});

const problemKinds = ['changed', 'removed', 'reordered', 'inserted', 'checkpoint_forged'] as const;

export const auditChainReportSchema = z
  .strictObject({
    ok: z.boolean().meta({ description: 'True when every entry links up and every checkpoint that could be checked verifies.' }),
    entries: z.number().int().min(0),
    first_seq: z.number().int().nullable(),
    last_seq: z.number().int().nullable(),
    unchained: z.number().int().min(0).meta({ description: 'Entries from before the chain began: not covered by it.' }),
    checkpoints: z.strictObject({
      total: z.number().int().min(0),
      valid: z.number().int().min(0),
      unverifiable: z
        .number()
        .int()
        .min(0)
        .meta({ description: 'Signed by keys no longer published: check them with a JWKS kept from their day (gatehouse audit verify --jwks).' }),
      forged: z.number().int().min(0),
    }),
    unverifiable_kids: z.array(z.string()),
    problems: z
      .array(
        z.strictObject({
          kind: z.enum(problemKinds),
          seq: z.number().int().nullable(),
          id: z.string().nullable(),
          at: timestamp.nullable(),
          message: z.string(),
        }),
      )
      .meta({ description: 'In chain order, the first problem first; at most 100.' }),
  })
  .meta({ id: 'AuditChainReport' });
