/**
 * Failed sign-ins in the audit log, so strangers cannot flood it.
 *
 * A failure that names an account (wrong password, disabled) is recorded at
 * once, under the account's own username: it matters to that account's owner
 * and admins. What was typed is never stored: a username that names no account
 * may be anything, a password typed into the wrong field included.
 *
 * Failures for unknown usernames, and attempts the throttle refused (which
 * check nothing and come as fast as a client sends them), are aggregated per
 * source and kind: the first from an
 * address is recorded at once (`count: 1`), the ones that follow within the
 * next minute are counted and written as one entry when that minute ends
 * (`count: n`), which opens the next minute. So each source writes at most one
 * such entry a minute, however fast it guesses. IPv6 sources count per /64,
 * the block one host usually holds. The count lives in this process's memory:
 * several instances each write their own, and a restart drops at most one
 * minute's unwritten count per source.
 *
 * Second-step attempts the throttle refused (a code guessed after the account's
 * second-factor counter made it wait) are aggregated alike, per source and
 * account: `sign_in.second_factor_failed` with `reason: 'throttled'` and a count
 * (lib/factors/second-step.ts).
 */
import type { Database } from '../db/database.ts';
import type { Authentication } from './authentication.ts';
import type { UnknownUsernameFailures } from '../platform/source-counts.ts';
import { recordAudit, type RequestContext } from '../audit/log.ts';

export interface SignInClient {
  clientId: string;
  clientName?: string;
}

type Failure = Extract<Authentication, { ok: false }>;

/** `ctx.signInFailures` is the process's aggregation (lib/context.ts). */
export async function recordSignInFailure(
  ctx: { db: Database; signInFailures: UnknownUsernameFailures },
  failure: Failure,
  client: SignInClient,
  context: RequestContext,
): Promise<void> {
  const { db } = ctx;
  // A refused attempt ran no check and can come as fast as a client can send: counted like unknown usernames.
  if (failure.reason === 'throttled') return countFailure(ctx.signInFailures, db, client, context, undefined, 'throttled');
  if (failure.accountId && failure.username) {
    await recordAudit(db, {
      action: 'sign_in.failed',
      actor: null,
      target: { type: 'user', id: failure.accountId, label: failure.username },
      context,
      details: { username: failure.username, reason: failure.reason, ...client },
    });
    return;
  }
  await countFailure(ctx.signInFailures, db, client, context);
}

/** The failures counted per source rather than recorded one by one. */
export type CountedReason = 'unknown_user' | 'throttled';

/** One entry, standing for `count` such failures from one source. */
function recordCounted(db: Database, reason: CountedReason, client: SignInClient, context: RequestContext, count: number): Promise<void> {
  return recordAudit(db, { action: 'sign_in.failed', actor: null, context, details: { reason, count, ...client } });
}

/** One failure of a kind counted per source (lib/platform/source-counts.ts): `unknown_user` unless said otherwise. */
export function countFailure(
  failures: UnknownUsernameFailures,
  db: Database,
  client: SignInClient,
  context: RequestContext,
  now?: number,
  reason: CountedReason = 'unknown_user',
): Promise<void> {
  return failures.counted(reason, context, (count) => recordCounted(db, reason, client, context, count), now);
}
