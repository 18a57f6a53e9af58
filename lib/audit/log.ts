/**
 * The audit log: who did what, to whom, from where and when.
 *
 * `recordAudit` is called where things happen (sign-in, consent, client and
 * user changes) and never throws into its caller: the action has happened
 * whether or not it could be logged, and a failure is reported on stderr
 * without the event's details. Details are checked twice: against the action's
 * strict zod schema (lib/audit/events.ts), then by key, dropping
 * anything that sounds like a credential at any depth.
 */
import { z } from 'zod';
import { namedIssues } from '../platform/errors.ts';
import { pageRange, pageWindow } from '../platform/paging.ts';
import { appendAuditEvents, listAuditEvents, placeAuditEvent, type AuditEventRecord, type AuditEventRow, type PlacedAuditEventRow } from './repository.ts';
import type { Statement } from '../db/sql.ts';
import type { Database } from '../db/database.ts';
import { auditActions, auditDetailsSchemas, CLIENT_ACTOR_PREFIX, isAuditAction, type AuditAction, type AuditDetails, type AuditTargetType } from './events.ts';
import type { RequestContext } from '../platform/request-context.ts';
import { isAdminRole, type AdminRole } from '../admin-roles/roles.ts';
import { outboxWritesFor } from '../webhooks/outbox.ts';

export { requestContext, type RequestContext } from '../platform/request-context.ts';
export { lastSignIns } from './repository.ts';
export { auditActions, auditActionLabels, isAuditAction, type AuditAction } from './events.ts';
export type { AuditEventRecord };

/**
 * Who acted: a user (their username as it is now, kept with the entry), a
 * client calling the admin API as itself (no user id; named `client:<client_id>`,
 * see `clientActor`), or null for the system itself.
 */
export type AuditActor = { id: string | null; username: string; role?: AdminRole } | null;

/** An event's target when it is about a person's account: their id, and their username as it is now. */
export function userTarget(user: { id: string; username: string }): NonNullable<AuditEvent['target']> {
  return { type: 'user', id: user.id, label: user.username };
}

/** `role`: the admin role the client acts with, named in every entry it causes. */
export function clientActor(clientId: string, role?: AdminRole): NonNullable<AuditActor> {
  return { id: null, username: `${CLIENT_ACTOR_PREFIX}${clientId}`, ...(role ? { role } : {}) };
}

export interface AuditEvent<A extends AuditAction = AuditAction> {
  action: A;
  actor: AuditActor;
  target?: { type: AuditTargetType; id: string | null; label?: string | null };
  /** Where the request came from; omitted for the system (CLI, first start). */
  context?: Partial<RequestContext>;
  details?: AuditDetails<A>;
}

/**
 * Who makes a change and from where, handed to the use cases that change
 * users and clients so they record it themselves. Omitted (tests, fixtures,
 * the benchmark's setup), nothing is recorded.
 */
export interface AuditBy {
  actor: AuditActor;
  context?: Partial<RequestContext>;
}

/** The user agent recorded for changes made with `npm run gatehouse`. */
export const CLI_CONTEXT: RequestContext = { ip: null, userAgent: 'gatehouse-cli' };

/** Changes made with `npm run gatehouse`: the system acts. */
export const BY_CLI: AuditBy = { actor: null, context: CLI_CONTEXT };

/** Changes Gatehouse makes on its own (the first start). */
export const BY_SYSTEM: AuditBy = { actor: null };

/** Records `event` as done `by`, when there is a `by`. */
export async function recordAuditBy<A extends AuditAction>(
  db: Database,
  by: AuditBy | undefined,
  event: Omit<AuditEvent<A>, 'actor' | 'context'>,
): Promise<void> {
  if (by)
    await recordAudit(db, {
      ...event,
      actor: by.actor ? { id: by.actor.id, username: by.actor.username, role: by.actor.role } : null,
      context: by.context,
    } as AuditEvent<A>);
}

const SECRET_WORDS = new Set([
  'password',
  'passwd',
  'pwd',
  'passphrase',
  'secret',
  'token',
  'code',
  'verifier',
  'hash',
  'credential',
  'credentials',
  'cookie',
  'authorization',
  'jwt',
  'assertion',
  'key',
  'otp',
  'pin',
  'nonce',
  'salt',
]);
const MAX_STRING = 2_000;
const MAX_DEPTH = 4;

/** The words of a key, whatever its case style: `clientSecret`, `client_secret`, `client-secret` → client, secret. */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

export function isSecretKey(key: string): boolean {
  return keyWords(key).some((word) => SECRET_WORDS.has(word));
}

/** Drops secret-sounding keys at any depth, and strings that look like a JWT; caps lengths and depth. */
export function sanitizeDetails(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return /^eyJ[\w-]*\.[\w-]*\./.test(value) ? '[redacted]' : value.slice(0, MAX_STRING);
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  if (depth >= MAX_DEPTH) return undefined;
  if (Array.isArray(value)) return value.slice(0, 100).map((item) => sanitizeDetails(item, depth + 1) ?? null);
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (isSecretKey(key)) continue;
      const clean = sanitizeDetails(item, depth + 1);
      if (clean !== undefined) out[key] = clean;
    }
    return out;
  }
  return undefined; // functions, bigint, symbols: not log material
}

/** The details as stored: schema-checked and sanitized, or `{}` (with a log line naming only the bad fields). */
function detailsJson(db: Database, action: AuditAction, details: unknown): string {
  const parsed = auditDetailsSchemas[action].safeParse(details ?? {});
  if (!parsed.success) {
    // Field names only: a message may quote the refused value, and details can be what must not be logged.
    const named = namedIssues(parsed.error).map(({ field, issue }) => field || (issue.code === 'unrecognized_keys' ? issue.keys.join(',') : '(root)'));
    const paths = [...new Set(named)];
    db.log.error(`audit: ${action}: details refused (${paths.join(', ')}); recorded without them`);
    return '{}';
  }
  return JSON.stringify(sanitizeDetails(parsed.data));
}

const cap = (value: string | null | undefined, max: number) => (value ? value.slice(0, max) : null);

/** An event a person causes about their own account (a link used, a sign-in): they are its actor and its target. */
export function recordSelfAudit<A extends AuditAction>(
  db: Database,
  action: A,
  person: { id: string; username: string },
  context: RequestContext,
  details: AuditDetails<A>,
): Promise<void> {
  return recordAudit(db, { action, actor: person, target: { type: 'user', id: person.id, label: person.username }, context, details } as AuditEvent<A>);
}

/** An event as its entry's row: actor and target as columns, details checked and sanitized, capped lengths. */
function auditRow(db: Database, event: AuditEvent): AuditEventRow & { action: AuditAction } {
  const action = event?.action;
  if (!isAuditAction(action)) throw new Error('unknown action');
  return {
    action,
    actorId: event.actor?.id ?? null,
    actorUsername: cap(event.actor?.username, 200),
    // The admin role used (an admin action, lib/admin-roles): only a known one is stored.
    actorRole: isAdminRole(event.actor?.role) ? event.actor.role : null,
    targetType: event.target?.type ?? null,
    targetId: cap(event.target?.id, 200),
    targetLabel: cap(event.target?.label, 200),
    ip: cap(event.context?.ip, 64),
    userAgent: cap(event.context?.userAgent, 512),
    details: detailsJson(db, action, event.details),
  };
}

/**
 * The webhook outbox's rows for the entries (lib/webhooks/outbox.ts), committed with them so an event is never
 * recorded and then not sent. Built from the entries as stored: their details already sanitized.
 */
function webhookWrites(db: Database, rows: PlacedAuditEventRow[]) {
  return outboxWritesFor(
    db,
    rows.map((row) => ({
      action: row.action as AuditAction,
      at: row.at,
      actor: row.actorId || row.actorUsername ? { id: row.actorId, username: row.actorUsername } : null,
      target: row.targetType ? { type: row.targetType, id: row.targetId, label: row.targetLabel } : null,
      details: JSON.parse(row.details) as Record<string, unknown>,
    })),
  );
}

const failureName = (error: unknown) => {
  const e = error as { name?: string; code?: string };
  return `${e?.name ?? 'Error'}${e?.code ? ` ${e.code}` : ''}`;
};

/** Records one event. Never throws; resolves once the entry is written (or could not be). */
export async function recordAudit<A extends AuditAction>(db: Database, event: AuditEvent<A>): Promise<void> {
  const action = event?.action;
  try {
    const row = placeAuditEvent(auditRow(db, event));
    // Reading the endpoints may fail: the entry is then recorded alone, and the failure logged.
    const alongside = await webhookWrites(db, [row]).catch((error: unknown) => {
      db.log.error(`webhooks: could not queue ${row.action}: ${failureName(error)}`);
      return [];
    });
    try {
      await appendAuditEvents(db, [row], { alongside });
    } catch (error) {
      if (!alongside.length) throw error;
      // An endpoint deleted meanwhile fails the outbox's rows: the entry itself is still recorded.
      db.log.error(`webhooks: could not queue ${row.action}; recorded without it`);
      await appendAuditEvents(db, [row]);
    }
  } catch (error) {
    // Only what identifies the failure: a Prisma error's message can quote the values it was given.
    db.log.error(`audit: could not record ${String(action).slice(0, 64)}: ${failureName(error)}`);
  }
}

/**
 * Makes `writes` (raw statements: a change of many rows) and records `events`, the change as done `by`, in one
 * transaction with their webhook deliveries: all committed or nothing, so a crash neither loses an event of
 * what was written nor raises one of what was not. Unlike recordAudit it throws, as the change then failed.
 * Without a `by` (tests, fixtures), the writes alone.
 */
export async function writeAudited(
  db: Database,
  by: AuditBy | undefined,
  events: Array<Omit<AuditEvent, 'actor' | 'context'>>,
  writes: Statement[],
): Promise<void> {
  const at = new Date();
  const rows = by ? events.map((event) => placeAuditEvent({ ...auditRow(db, { ...event, actor: by.actor, context: by.context } as AuditEvent), at })) : [];
  await appendAuditEvents(db, rows, { before: writes, alongside: await webhookWrites(db, rows) });
}

/** The audit page's filters, from the query string; anything malformed is dropped rather than refused. */
export const auditFilterSchema = z.object({
  action: z
    .enum(auditActions as [AuditAction, ...AuditAction[]])
    .optional()
    .catch(undefined),
  actor: z.string().trim().max(100).optional().catch(undefined),
  target: z.string().trim().max(200).optional().catch(undefined),
  /** yyyy-mm-dd (a date input) or a full ISO timestamp; dates are UTC days, `to` inclusive. */
  from: z.string().trim().max(40).optional().catch(undefined),
  to: z.string().trim().max(40).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

export type AuditQuery = z.input<typeof auditFilterSchema>;

function dayBound(value: string | undefined, end: boolean): Date | undefined {
  if (!value) return undefined;
  const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T${end ? '23:59:59.999' : '00:00:00.000'}Z`) : new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

export interface AuditPage {
  events: AuditEventRecord[];
  filters: { action?: AuditAction; actor: string; target: string; from: string; to: string };
  page: number;
  pageCount: number;
  total: number;
  first: number;
  last: number;
}

export const AUDIT_EVENTS_PER_PAGE = 50;

/** One page of the log for the given filters (from a query string or a form), newest first. */
export async function auditLogPage(db: Database, query: Record<string, unknown>, perPage = AUDIT_EVENTS_PER_PAGE): Promise<AuditPage> {
  const f = auditFilterSchema.parse({ ...query, page: query.page ?? 1 });
  const from = dayBound(f.from, false);
  const to = dayBound(f.to, true);
  const { events, total } = await listAuditEvents(
    db,
    { actions: f.action ? [f.action] : undefined, actor: f.actor || undefined, target: f.target || undefined, from, to },
    pageRange(f.page, perPage),
  );
  const { pageCount, first, last } = pageWindow(f.page, perPage, total, events.length);
  return {
    events,
    filters: { action: f.action, actor: f.actor ?? '', target: f.target ?? '', from: from ? f.from! : '', to: to ? f.to! : '' },
    page: f.page,
    pageCount,
    total,
    first,
    last,
  };
}

/**
 * A narrower history, for detail pages and a user's own account page: e.g.
 * `{ involvingUserId }` is every entry where that user acted or was acted on.
 */
export async function auditEventsFor(
  db: Database,
  filter: { involvingUserId?: string; actorId?: string; targetType?: AuditTargetType; targetId?: string; actions?: AuditAction[] },
  take = 20,
): Promise<AuditEventRecord[]> {
  return (await listAuditEvents(db, filter, { skip: 0, take })).events;
}
