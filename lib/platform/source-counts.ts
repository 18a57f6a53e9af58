/**
 * Attempts counted per source (the address, or its /64 for IPv6), so that something a stranger can
 * repeat as fast as they like writes at most one entry a minute: the first from a source at once
 * (`count: 1`), the ones that follow within the next minute as one entry when that minute ends
 * (`count: n`), which opens the next minute. The count lives in this process's memory: several
 * instances each write their own, and a restart drops at most one minute's unwritten count per
 * source. The sign-in failures (lib/sign-in/failures.ts) and the refused second steps
 * (lib/factors/second-step.ts) write through it.
 */
import { isIP } from 'node:net';
import type { RequestContext } from './request-context.ts';

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
export type WriteCount = (count: number) => Promise<void>;

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
    counted,
    flushDue,
    get sources() {
      return windows.size;
    },
  };
}
