/**
 * AUDIT_RETENTION_DAYS (lib/config/env.ts): audit entries older than that many
 * days are deleted at start and then every hour; 0 keeps them all. Each
 * instance runs it; deleting what another already deleted is a no-op.
 * The start-up starts it once per server process.
 */
import { deleteAuditEventsBefore } from './repository.ts';
import type { Database } from '../db/database.ts';

const DAY_MS = 86_400_000;

/** Deletes the entries older than `days` days before `now`; returns how many. `days` 0 deletes nothing. */
export async function purgeAuditEvents(db: Database, days: number, now: number): Promise<number> {
  if (!(days > 0)) return 0;
  return deleteAuditEventsBefore(db, new Date(now - days * DAY_MS));
}

/**
 * Starts the purge of entries older than `days`: once now, then every
 * `intervalMs`, never keeping a process alive. Returns a function that stops it.
 */
export function startAuditRetention(
  db: Database,
  { days, intervalMs = 3_600_000, log, now }: { days: number; intervalMs?: number; log: (line: string) => void; now: () => number },
): () => void {
  if (!(days > 0)) return () => {};
  const run = () =>
    purgeAuditEvents(db, days, now()).then(
      (count) => count > 0 && log(`audit log: deleted ${count} entries older than ${days} days (AUDIT_RETENTION_DAYS)`),
      (error: unknown) => log(`audit log: the retention purge failed: ${(error as { code?: string })?.code ?? (error as Error)?.name ?? 'error'}`),
    );
  void run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
