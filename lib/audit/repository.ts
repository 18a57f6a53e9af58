/**
 * The audit log's storage: append (to the hash chain, lib/audit/chain.ts),
 * list, and delete what is older than the retention period
 * (lib/audit/retention.ts); entries are never edited.
 * What may go into an entry, and in what shape, is decided by
 * lib/audit/log.ts; this module stores `details` as the JSON text it is given.
 */
import { randomBytes } from 'node:crypto';
import type { AuditEvent } from '../generated/sqlite/client.ts';
import type { Database } from '../db/database.ts';
import { insertRows, type Statement } from '../db/sql.ts';
import { containsText } from '../db/text-search.ts';
import { CHAIN_ID, entryHash } from './chain.ts';

/**
 * An entry to insert: the model's columns but its id (made here). `details` is
 * a JSON object, already validated and sanitized; `at` defaults to now (tests
 * set it to place entries in time).
 */
export type AuditEventRow = Omit<AuditEvent, 'id' | 'at' | 'actorRole' | 'seq' | 'prevHash' | 'hash'> & { at?: Date; actorRole?: string | null };

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

const APPEND = `INSERT INTO audit_events
  (id, at, actor_id, actor_username, actor_role, action, target_type, target_id, target_label, ip, user_agent, details, seq, prev_hash, hash)`;
const MOVE_HEAD = 'UPDATE audit_chain_heads SET seq = ?, hash = ?, updated_at = ? WHERE id = ?';

/** A DateTime as Prisma stores it: its own text form on SQLite, UTC in PostgreSQL's `timestamp` (which ignores the Z). */
export const dateTimeValue = (kind: 'sqlite' | 'postgresql', date: Date) =>
  kind === 'sqlite' ? date.toISOString().replace('Z', '+00:00') : date.toISOString();

/** Writes to make in the entry's own transaction (lib/webhooks/outbox.ts), on the raw driver's transaction. */
export type AlongsideWrites = Statement[];

/** An entry's id and time, made once: its webhook rows and the chain both name them. */
export interface PlacedAuditEventRow extends AuditEventRow {
  id: string;
  at: Date;
}

/** Gives an entry its id (a UUIDv7 of its time; now when it has none). */
export function placeAuditEvent(row: AuditEventRow): PlacedAuditEventRow {
  const at = row.at ?? new Date();
  return { ...row, at, id: auditEventId(at.getTime()) };
}

/** Appends one entry to the chain with the writes that must commit with it; see appendAuditEvents. */
export async function insertAuditEvent(db: Database, row: AuditEventRow, alongside?: AlongsideWrites): Promise<string> {
  const placed = placeAuditEvent(row);
  await appendAuditEvents(db, [placed], { alongside });
  return placed.id;
}

/**
 * Appends entries to the chain, in their order: reads the head, writes each entry with the hash of the one before
 * it, moves the head, in one transaction with `before` (the change the entries record, written first) and
 * `alongside` (the webhook outbox's rows for them): all committed or none. The head row is the lock every
 * appender takes in turn: on PostgreSQL `FOR UPDATE` (across instances and connections), taken after `before`
 * so it is held only for the appending; on SQLite the write lock that BEGIN IMMEDIATE takes before anything.
 * Statements on the raw driver, no Prisma query (bench/results/notes-2026-11-27-audit-chain.md measured it).
 * With no entries, `before` and `alongside` are written alone, in one transaction.
 */
export async function appendAuditEvents(
  db: Database,
  rows: PlacedAuditEventRow[],
  { before = [], alongside = [] }: { before?: Statement[]; alongside?: AlongsideWrites } = {},
): Promise<void> {
  const kind = db.sql.kind;
  if (rows.length === 0) {
    await db.sql.transaction({ before, read: ['SELECT 1 AS one', []], write: () => alongside });
    return;
  }
  const lock = kind === 'postgresql' ? ' FOR UPDATE' : '';
  await db.sql.transaction({
    before,
    read: [`SELECT seq, hash FROM audit_chain_heads WHERE id = ?${lock}`, [CHAIN_ID]],
    write(row) {
      const head = row as { seq: number | string; hash: string } | undefined;
      if (!head) throw Object.assign(new Error('the audit chain has no head'), { code: 'AUDIT_CHAIN_HEAD' });
      let seq = Number(head.seq);
      let prevHash = head.hash;
      const values = rows.map((e) => {
        const entry = { ...e, actorRole: e.actorRole ?? null };
        const hash = entryHash(entry, prevHash);
        const value = [
          e.id,
          dateTimeValue(kind, e.at),
          e.actorId,
          e.actorUsername,
          entry.actorRole,
          e.action,
          e.targetType,
          e.targetId,
          e.targetLabel,
          e.ip,
          e.userAgent,
          e.details,
          ++seq,
          prevHash,
          hash,
        ];
        prevHash = hash;
        return value;
      });
      const headValues = [seq, prevHash, dateTimeValue(kind, new Date()), CHAIN_ID];
      const appends = insertRows(APPEND, values);
      const [lastSql, lastParams] = appends.pop()!;
      // PostgreSQL: the last entries and the head in one statement, one round trip less while the head is locked.
      const append: Statement[] =
        kind === 'postgresql'
          ? [...appends, [`WITH appended AS (${lastSql} RETURNING 1) ${MOVE_HEAD}`, [...lastParams, ...headValues]]]
          : [...appends, [lastSql, lastParams], [MOVE_HEAD, headValues]];
      // What must commit with the entries or not at all (the webhook outbox's rows for their events).
      return [...append, ...alongside];
    },
  });
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
 * Deletes the entries from before the chain (seq null) older than `before`,
 * `batch` at a time so a first purge of a large log never holds one long write
 * lock; returns how many went.
 */
export async function deleteUnchainedAuditEventsBefore(db: Database, before: Date, batch = 5_000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await db.prisma.auditEvent.findMany({ where: { seq: null, at: { lt: before } }, select: { id: true }, take: batch });
    if (rows.length === 0) return deleted;
    deleted += (await db.prisma.auditEvent.deleteMany({ where: { id: { in: rows.map((row) => row.id) } } })).count;
    if (rows.length < batch) return deleted;
  }
}

/**
 * Where a retention cut falls: the last entry of the chain's oldest run of
 * entries older than `before` (a cut only ever removes a prefix of the chain,
 * so what is kept still links up). Undefined when the first entry is not that old.
 */
export async function chainCutBefore(db: Database, before: Date, batch = 5_000): Promise<{ seq: number; hash: string } | undefined> {
  let cut: { seq: number; hash: string } | undefined;
  for (;;) {
    const rows = await db.prisma.auditEvent.findMany({
      where: { seq: cut ? { gt: cut.seq } : { not: null } },
      orderBy: { seq: 'asc' },
      select: { seq: true, hash: true, at: true },
      take: batch,
    });
    for (const row of rows) {
      if (row.at >= before) return cut;
      cut = { seq: row.seq!, hash: row.hash! };
    }
    if (rows.length < batch) return cut;
  }
}

/** Deletes the chain's entries up to `seq`, `batch` at a time; returns how many went. */
export async function deleteChainUpTo(db: Database, seq: number, batch = 5_000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const rows = await db.prisma.auditEvent.findMany({ where: { seq: { lte: seq } }, select: { id: true }, take: batch });
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
