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
 * (lib/services/factors/second-step.ts).
 */
import { isIP } from 'node:net';
import type { Database } from '../db/database.ts';
import type { Authentication } from './authentication.ts';
import { recordAudit, type RequestContext } from './audit.ts';

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
  if (failure.reason === 'throttled') return ctx.signInFailures.failed(db, client, context, undefined, 'throttled');
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
  await ctx.signInFailures.failed(db, client, context);
}

/** The failures counted per source rather than recorded one by one. */
export type CountedReason = 'unknown_user' | 'throttled';

/** One entry, standing for `count` such failures from one source. */
function recordCounted(db: Database, reason: CountedReason, client: SignInClient, context: RequestContext, count: number): Promise<void> {
  return recordAudit(db, { action: 'sign_in.failed', actor: null, context, details: { reason, count, ...client } });
}

/** Where failures are counted together: the address, or its /64 for IPv6. */
export function sourceOf(ip: string | null): string {
  if (!ip || isIP(ip) !== 6) return ip ?? 'unknown';
  const [head, tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** Writes one entry standing for `count` attempts (the latest attempt's request is what it names). */
type WriteCount = (count: number) => Promise<void>;

interface Window {
  /** When this source's current minute ends. */
  until: number;
  /** Failures counted since its entry, not yet written. */
  pending: number;
  /** How to write the latest of them: what the aggregated entry shows. */
  last?: WriteCount;
  /** Cancels the timer that writes `pending` when the minute ends. */
  cancel?: () => void;
}

export interface UnknownUsernameFailures {
  /** One failure of a kind counted per source: `unknown_user` unless said otherwise. */
  failed(db: Database, client: SignInClient, context: RequestContext, now?: number, reason?: CountedReason): Promise<void>;
  /**
   * One attempt counted under `kind` and its request's source (with whatever
   * else `kind` names, e.g. the account): the first of a minute written at once
   * with `write(1)`, the rest as one `write(n)` when the minute ends.
   */
  counted(kind: string, context: RequestContext, write: WriteCount, now?: number): Promise<void>;
  /** Writes every count whose minute has ended by `now` (the timers call it; tests call it with their own clock). */
  flushDue(now?: number): Promise<void>;
  readonly sources: number;
}

/** Schedules `run` after `ms`; returns how to cancel it. Tests pass their own to drive time. */
export type Timer = (run: () => Promise<void>, ms: number) => () => void;

const realTimer: Timer = (run, ms) => {
  const handle = setTimeout(() => void run(), ms);
  handle.unref?.(); // a pending count never keeps the process alive
  return () => clearTimeout(handle);
};

/**
 * `maxSources` bounds the memory a spread of addresses can take: past it,
 * sources with nothing pending are forgotten, and if all have something
 * pending, new ones share one window. `timer: false` leaves writing due
 * counts to explicit `flushDue` calls.
 */
export function unknownUsernameFailures({
  windowMs = 60_000,
  maxSources = 10_000,
  timer = realTimer as Timer | false,
  clock = Date.now,
} = {}): UnknownUsernameFailures {
  const windows = new Map<string, Window>();

  const write = async (window: Window, now: number) => {
    window.cancel?.();
    window.cancel = undefined;
    const { pending, last } = window;
    window.pending = 0;
    window.until = now + windowMs; // this entry opens the next minute
    if (pending > 0 && last) await last(pending);
  };

  const keyFor = (context: RequestContext, kind: string, now: number) => {
    const key = `${kind} ${sourceOf(context.ip)}`;
    if (windows.has(key) || windows.size < maxSources) return key;
    for (const [k, w] of windows) if (w.pending === 0 && w.until <= now) windows.delete(k);
    return windows.size < maxSources ? key : `${kind} *`;
  };

  const flushDue = async (now = clock()) => {
    for (const [key, window] of windows) {
      if (window.until > now) continue;
      if (window.pending > 0) await write(window, now);
      else windows.delete(key);
    }
  };

  const counted = async (kind: string, context: RequestContext, writeCount: WriteCount, now = clock()) => {
    const key = keyFor(context, kind, now);
    const window = windows.get(key);
    if (!window || window.until <= now) {
      // A count whose timer has not fired yet goes into this entry.
      window?.cancel?.();
      windows.set(key, { until: now + windowMs, pending: 0 });
      await writeCount((window?.pending ?? 0) + 1);
      return;
    }
    window.pending++;
    window.last = writeCount;
    if (timer && !window.cancel) window.cancel = timer(() => flushDue(), Math.max(0, window.until - now));
  };

  return {
    failed: (db, client, context, now = clock(), reason = 'unknown_user') =>
      counted(reason, context, (count) => recordCounted(db, reason, client, context, count), now),
    counted,
    flushDue,
    get sources() {
      return windows.size;
    },
  };
}
