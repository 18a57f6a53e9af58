/**
 * Mail sent after the answer: a form whose answer must not tell whether an
 * account exists ("send me a link") answers first and makes and sends its mail
 * afterwards, so a slow or failing mail server shows in neither its words nor
 * its time. The job does its own undoing and logging (the account's id and the
 * failure, never the address or the link); anything it lets through is logged
 * here, never thrown at a request that has long been answered.
 *
 * Jobs are kept per mailer until they end, so a test (and an orderly stop) can
 * wait for the mail the answers promised: `handedOff(mailer)`.
 */
import type { Log } from '../ops/log.ts';
import type { Mailer } from './mailer.ts';

const pending = new WeakMap<Mailer, Set<Promise<void>>>();

/** Runs `job` (making and sending one mail) after the current request's answer; returns at once. */
export function sendAfterAnswer(mailer: Mailer, log: Pick<Log, 'error'>, what: string, job: () => Promise<void>): void {
  const jobs = pending.get(mailer) ?? new Set<Promise<void>>();
  pending.set(mailer, jobs);
  // setImmediate: nothing of the job, not even its first synchronous part, runs before the answer is on its way.
  const running: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
    .then(job)
    .catch((error: unknown) => log.error({ err: error }, `${what} failed after the answer`))
    .finally(() => jobs.delete(running));
  jobs.add(running);
}

/** Resolves once every job handed to `mailer` so far has ended (sent, or failed and logged). */
export async function handedOff(mailer: Mailer): Promise<void> {
  for (let jobs = pending.get(mailer); jobs && jobs.size > 0; jobs = pending.get(mailer)) await Promise.all(jobs);
}
