/**
 * The audit log's storage: insert, list, and delete what is older than the
 * retention period (lib/audit/retention.ts); entries are never edited.
 * What may go into an entry, and in what shape, is decided by
 * lib/audit/log.ts; this module stores `details` as the JSON text it is given.
 */
import { randomBytes } from 'node:crypto';
import type { AuditEvent } from '../generated/sqlite/client.ts';
import type { Database } from '../db/database.ts';
import { containsText } from '../db/text-search.ts';

/**
 * An entry to insert: the model's columns but its id (made here). `details` is
 * a JSON object, already validated and sanitized; `at` defaults to now (tests
 * set it to place entries in time).
 */
export type AuditEventRow = Omit<AuditEvent, 'id' | 'at' | 'actorRole'> & { at?: Date; actorRole?: string | null };

/** An entry as pages and APIs see it. */
export interface AuditEventRecord {
  id: string;
  at: Date;
  /** Null when the system acted (the CLI, the first start). */
  actor: { id: string | null; username: string | null; role?: string | null } | null;
  action: string;
  target: { type: string; id: string | null; label: string | null } | null;
  ip: string | null;
  userAgent: string | null;
  details: Record<string, unknown>;
}

export interface AuditFilter {
  actions?: string[];
  actorId?: string;
  /** Part of the actor's username (case-insensitive), or their exact id. */
  actor?: string;
  targetType?: string;
  targetId?: string;
  /** Part of the target's label (case-insensitive), or its exact id. */
  target?: string;
  /** Entries where this user acted or was acted on. */
  involvingUserId?: string;
  /** Inclusive bounds on `at`. */
  from?: Date;
  to?: Date;
}

/**
 * A UUIDv7 (RFC 9562 §5.7): 48 bits of milliseconds, then random bits. Entries
 * sort by (at, id), so ids written in the same millisecond still sort after
 * each other in time order within a process (the counter below), and ids are
 * unguessable.
 */
let lastMs = 0;
let sequence = 0;
export function auditEventId(now: number): string {
  if (now === lastMs) sequence = (sequence + 1) & 0xfff;
  else {
    lastMs = now;
    sequence = randomBytes(2).readUInt16BE() & 0x7ff; // leave room to count up within the millisecond
  }
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (sequence >> 8); // version 7, then the 12-bit sequence as rand_a
  bytes[7] = sequence & 0xff;
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // RFC 9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * `alongside`: writes that must commit with the entry or not at all (the webhook outbox's rows for the
 * event, lib/webhooks/outbox.ts), in one transaction with it.
 */
export async function insertAuditEvent(
  db: Database,
  row: AuditEventRow,
  alongside: ReturnType<Database['prisma']['webhookDelivery']['createMany']>[] = [],
): Promise<string> {
  const at = row.at ?? new Date();
  const id = auditEventId(at.getTime());
  const entry = db.prisma.auditEvent.create({ data: { ...row, id, at } });
  if (alongside.length === 0) await entry;
  else await db.prisma.$transaction([entry, ...alongside]);
  return id;
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function toRecord(row: AuditEvent): AuditEventRecord {
  return {
    id: row.id,
    at: row.at,
    actor: row.actorId || row.actorUsername ? { id: row.actorId, username: row.actorUsername, ...(row.actorRole ? { role: row.actorRole } : {}) } : null,
    action: row.action,
    target: row.targetType ? { type: row.targetType, id: row.targetId, label: row.targetLabel } : null,
    ip: row.ip,
    userAgent: row.userAgent,
    details: parseDetails(row.details),
  };
}

function whereOf(db: Database, filter: AuditFilter) {
  const contains = (value: string) => containsText(db.sql.kind, value);
  const and: object[] = [];
  if (filter.actions?.length) and.push({ action: { in: filter.actions } });
  if (filter.actorId) and.push({ actorId: filter.actorId });
  if (filter.actor) and.push({ OR: [{ actorUsername: contains(filter.actor) }, { actorId: filter.actor }] });
  if (filter.targetType) and.push({ targetType: filter.targetType });
  if (filter.targetId) and.push({ targetId: filter.targetId });
  if (filter.target) and.push({ OR: [{ targetLabel: contains(filter.target) }, { targetId: filter.target }] });
  if (filter.involvingUserId) {
    and.push({ OR: [{ actorId: filter.involvingUserId }, { targetType: 'user', targetId: filter.involvingUserId }] });
  }
  if (filter.from || filter.to) and.push({ at: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lte: filter.to } : {}) } });
  return and.length ? { AND: and } : {};
}

/** One page of entries matching every given filter, newest first, and how many match in all. */
export async function listAuditEvents(
  db: Database,
  filter: AuditFilter,
  { skip, take }: { skip: number; take: number },
): Promise<{ events: AuditEventRecord[]; total: number }> {
  const where = whereOf(db, filter);
  const [rows, total] = await Promise.all([
    db.prisma.auditEvent.findMany({ where, orderBy: [{ at: 'desc' }, { id: 'desc' }], skip, take }),
    db.prisma.auditEvent.count({ where }),
  ]);
  return { events: rows.map(toRecord), total };
}

/**
 * Deletes entries older than `before`, `batch` at a time so a first purge of a
 * large log never holds one long write lock; returns how many went.
 */
export async function deleteAuditEventsBefore(db: Database, before: Date, batch = 5_000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await db.prisma.auditEvent.findMany({ where: { at: { lt: before } }, select: { id: true }, take: batch });
    if (rows.length === 0) return deleted;
    deleted += (await db.prisma.auditEvent.deleteMany({ where: { id: { in: rows.map((row) => row.id) } } })).count;
    if (rows.length < batch) return deleted;
  }
}

/**
 * When each of these users last signed in, from the log's `sign_in.succeeded`
 * entries (one grouped query on the (actor_id, at) index, for one page of a
 * list). A user missing from the answer has no sign-in left in the log: never,
 * or before AUDIT_RETENTION_DAYS deleted it.
 */
export async function lastSignIns(db: Database, userIds: string[]): Promise<Map<string, Date>> {
  if (!userIds.length) return new Map();
  const rows = await db.prisma.auditEvent.groupBy({
    by: ['actorId'],
    where: { actorId: { in: userIds }, action: 'sign_in.succeeded' },
    _max: { at: true },
  });
  return new Map(rows.flatMap((row) => (row.actorId && row._max.at ? [[row.actorId, row._max.at] as const] : [])));
}

/** An account's successful sign-ins since `since`, newest first (at most `take`): where each session came from. */
export async function signInsSince(
  db: Database,
  accountId: string,
  since: Date,
  take = 200,
): Promise<Array<{ at: Date; ip: string | null; userAgent: string | null }>> {
  return db.prisma.auditEvent.findMany({
    where: { actorId: accountId, action: 'sign_in.succeeded', at: { gte: since } },
    select: { at: true, ip: true, userAgent: true },
    orderBy: [{ at: 'desc' }, { id: 'desc' }],
    take,
  });
}
