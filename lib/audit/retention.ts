/**
 * AUDIT_RETENTION_DAYS (lib/config/env.ts): audit entries older than that many
 * days are deleted at start and then every hour; 0 keeps them all. Each
 * instance runs it; deleting what another already deleted is a no-op.
 * The start-up starts it once per server process.
 *
 * The hash chain (lib/audit/chain.ts) loses only a prefix: the oldest run of
 * entries older than the period, after a signed checkpoint of the last one to
 * go (lib/audit/checkpoints.ts), so the first entry kept links to a signed
 * hash and the rest still verifies. An entry older than the period that came
 * after a newer one (clocks of two instances apart) goes at the next purge
 * after that one. Without a signing key to sign the cut (a database no server
 * has started on) the chain keeps everything.
 */
import { chainCutBefore, deleteChainUpTo, deleteUnchainedAuditEventsBefore } from './repository.ts';
import { signCheckpoint } from './checkpoints.ts';
import type { Database } from '../db/database.ts';

const DAY_MS = 86_400_000;

/** Deletes the entries older than `days` days before `now`; returns how many. `days` 0 deletes nothing. */
export async function purgeAuditEvents(db: Database, days: number, now: number): Promise<number> {
  if (!(days > 0)) return 0;
  return purgeAuditEventsBefore(db, new Date(now - days * DAY_MS), new Date(now));
}

/** Deletes the entries older than `before` (the chain's up to a signed cut); returns how many. */
export async function purgeAuditEventsBefore(db: Database, before: Date, now: Date): Promise<number> {
  let deleted = await deleteUnchainedAuditEventsBefore(db, before);
  const cut = await chainCutBefore(db, before);
  if (cut && (await signCheckpoint(db, { seq: cut.seq, hash: cut.hash, reason: 'retention' }, now))) deleted += await deleteChainUpTo(db, cut.seq);
  return deleted;
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
