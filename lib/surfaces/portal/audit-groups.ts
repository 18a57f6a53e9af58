/**
 * The audit log page's rows: consecutive entries that say the same thing (same action, actor, target, source
 * address and reason) within a few minutes of each other read as one row with a count, so ten failed sign-ins
 * are one line, not a screenful. Only neighbours on the page are grouped: the log itself keeps every entry, and
 * filtering by the action or target shows them all. Pure: no request read.
 */
import type { AuditEventRecord } from '../../audit/log.ts';

/** How far apart two neighbouring entries may be and still be one row. */
export const AUDIT_GROUP_WINDOW_MS = 5 * 60_000;

export interface AuditRow {
  /** The newest entry of the group: the row shows it. */
  event: AuditEventRecord;
  /** How many entries the row stands for; an entry that itself counts several (`details.count`) counts as that many. */
  count: number;
  /** The oldest entry's time, when the row stands for more than one. */
  since?: Date;
}

/** What must match for two entries to be one row; the details' reason is part of it, the other details are not compared. */
const key = (e: AuditEventRecord) =>
  JSON.stringify([e.action, e.actor?.id ?? null, e.actor?.username ?? null, e.target?.type ?? null, e.target?.id ?? null, e.ip, e.details.reason ?? null]);

const weight = (e: AuditEventRecord) => (typeof e.details.count === 'number' && e.details.count > 0 ? e.details.count : 1);

/** `events` newest first, as the page lists them. */
export function groupAuditEvents(events: AuditEventRecord[], windowMs = AUDIT_GROUP_WINDOW_MS): AuditRow[] {
  const rows: Array<AuditRow & { key: string; oldest: Date }> = [];
  for (const event of events) {
    const last = rows.at(-1);
    const k = key(event);
    if (last && last.key === k && last.oldest.getTime() - event.at.getTime() <= windowMs) {
      last.count += weight(event);
      last.oldest = event.at;
      last.since = event.at;
      continue;
    }
    rows.push({ event, count: weight(event), key: k, oldest: event.at });
  }
  return rows.map(({ event, count, since }) => ({ event, count, ...(since ? { since } : {}) }));
}
