/**
 * Exporting the audit log as JSON lines (`gatehouse audit export`, the admin
 * API's GET /api/admin/audit-events/export), for an auditor to keep away from
 * the database: one entry a line with every field its hash covers, exactly as
 * stored (`details` is the stored JSON text), so the chain can be checked
 * again from the file alone (docs/audit.md); then the signed checkpoints made
 * in the range, one a line under `checkpoint`. Read a page at a time, so any
 * range streams out in little memory.
 */
import type { Database } from '../db/database.ts';

export interface AuditExportRange {
  /** Inclusive bounds on the entries' time; either may be left open. */
  since?: Date;
  until?: Date;
}

const PAGE = 1_000;

function atRange(range: AuditExportRange) {
  return range.since || range.until ? { at: { ...(range.since ? { gte: range.since } : {}), ...(range.until ? { lte: range.until } : {}) } } : {};
}

/** The export's lines, each ending in a line break, in chunks of about 64 KiB: entries from before the chain first, then the chain in order, then its checkpoints. */
export async function* auditExportLines(db: Database, range: AuditExportRange = {}): AsyncGenerator<string> {
  let chunk = '';
  const add = function* (line: unknown) {
    chunk += `${JSON.stringify(line)}\n`;
    if (chunk.length > 64 * 1024) {
      yield chunk;
      chunk = '';
    }
  };
  const when = atRange(range);
  let unchained: { at: Date; id: string } | undefined;
  for (;;) {
    const rows = await db.prisma.auditEvent.findMany({
      where: { seq: null, ...when, ...(unchained ? { OR: [{ at: { gt: unchained.at } }, { at: unchained.at, id: { gt: unchained.id } }] } : {}) },
      orderBy: [{ at: 'asc' }, { id: 'asc' }],
      take: PAGE,
    });
    for (const row of rows) yield* add(entryLine(row));
    if (rows.length < PAGE) break;
    unchained = rows[rows.length - 1];
  }
  let seq: number | undefined;
  for (;;) {
    const rows = await db.prisma.auditEvent.findMany({
      where: { seq: seq === undefined ? { not: null } : { gt: seq }, ...when },
      orderBy: { seq: 'asc' },
      take: PAGE,
    });
    for (const row of rows) yield* add(entryLine(row));
    if (rows.length < PAGE) break;
    seq = rows[rows.length - 1].seq!;
  }
  const checkpoints = await db.prisma.auditCheckpoint.findMany({ where: when, orderBy: [{ seq: 'asc' }, { at: 'asc' }] });
  for (const c of checkpoints)
    yield* add({ checkpoint: { id: c.id, at: c.at.toISOString(), seq: c.seq, hash: c.hash, reason: c.reason, kid: c.kid, jws: c.jws } });
  if (chunk) yield chunk;
}

type EntryRow = Awaited<ReturnType<Database['prisma']['auditEvent']['findMany']>>[number];

/** One entry on the line: snake_case names, every field its hash covers, `details` as the JSON text that was hashed. */
function entryLine(row: EntryRow) {
  return {
    seq: row.seq,
    id: row.id,
    at: row.at.toISOString(),
    actor_id: row.actorId,
    actor_username: row.actorUsername,
    actor_role: row.actorRole,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    target_label: row.targetLabel,
    ip: row.ip,
    user_agent: row.userAgent,
    details: row.details,
    prev_hash: row.prevHash,
    hash: row.hash,
  };
}
