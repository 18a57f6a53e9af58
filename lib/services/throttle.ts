/**
 * Throttling and lockout of guessing (issue 10): password checks per account
 * and per source address, second-factor codes per account, client
 * authentication per client_id. Counters are shared by every instance
 * (lib/db/throttle-store.ts: the database, or Redis with REDIS_URL).
 *
 * How to wire it: build one `createThrottle({ db, redisUrl: env().REDIS_URL,
 * settings: throttleSettings() })` per process (on globalThis, like the
 * database). Wherever a password is verified (authenticate, verifyCurrentPassword),
 * look the account up, call `beforePasswordCheck` and, if refused, show "try
 * again in …" (JSON: 429 with `Retry-After: retryAfterSeconds`) without
 * verifying; otherwise verify (passwords.ts's `verifyAgainstDummy` for an unknown username)
 * and report `passwordFailed` or `passwordSucceeded`. Client authentication
 * at /oauth/token, /introspect and /revoke does the same with
 * `beforeClientAuthentication` / `clientAuthenticationFailed`; TOTP and
 * recovery codes with the second-factor trio. Audit events are the caller's: a
 * refusal (`throttled`), a failure that answers `locked: true` (a lockout), and
 * `unlock` returning true (an unlock, by the admin).
 *
 * The policy, per key and window (the defaults in lib/config/env.ts, README):
 * the first `free` failures cost nothing, so a person who mistypes is never
 * slowed; each further one earns a wait of `delaySeconds`, doubling up to
 * `maxDelaySeconds`; for accounts, from `lockAfter` failures on each failure
 * locks the account for `lockSeconds`; at `cap` attempts the key is refused
 * until its window (which starts at its first failure) ends. A password check
 * is counted before it runs, atomically, so parallel guesses cannot pass the
 * cap; a success clears the account's counters and gives the source its point
 * back. Unknown usernames are keyed by an HMAC of what was typed (which may be
 * a password typed into the wrong field, so it is never stored), and take the
 * same steps as known ones.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Env } from '../config/env.ts';
import { env } from '../config/env.ts';
import type { Database } from '../db/database.ts';
import { serverSecret } from '../db/secrets.ts';
import { type CounterStore, openCounterStore } from '../db/throttle-store.ts';
import { usernameKey } from '../db/users.ts';
import { sourceOf } from './sign-in-failures.ts';

export interface Limits {
  /** Failures in a window that cost nothing. */
  free: number;
  /** Attempts in a window after which the key is refused until the window ends. */
  cap: number;
  windowSeconds: number;
  /** Accounts only: from this many failures on, each failure locks for `lockSeconds`. */
  lockAfter?: number;
  lockSeconds?: number;
}

export interface ThrottleSettings {
  /** Password checks per account; second-factor codes use the same limits on counters of their own. */
  account: Limits;
  /** Password checks per source address (IPv6: per /64), over every account: credential stuffing. */
  source: Limits;
  /** Client authentication per client_id. */
  client: Limits;
  /** Sign-ups per source address (lib/services/sign-up.ts): each one creates an account and sends a mail. */
  signUp: Limits;
  delaySeconds: number;
  maxDelaySeconds: number;
}

/** The settings from the environment; throws, naming the variables, when they are out of order. */
export function throttleSettings(e: Env = env()): ThrottleSettings {
  const problems = [
    e.THROTTLE_ACCOUNT_FREE_FAILURES < e.THROTTLE_ACCOUNT_LOCK_AFTER || 'THROTTLE_ACCOUNT_FREE_FAILURES must be below THROTTLE_ACCOUNT_LOCK_AFTER',
    e.THROTTLE_ACCOUNT_LOCK_AFTER <= e.THROTTLE_ACCOUNT_DAILY_CAP || 'THROTTLE_ACCOUNT_LOCK_AFTER must not exceed THROTTLE_ACCOUNT_DAILY_CAP',
    e.THROTTLE_SOURCE_FREE_FAILURES < e.THROTTLE_SOURCE_HOURLY_CAP || 'THROTTLE_SOURCE_FREE_FAILURES must be below THROTTLE_SOURCE_HOURLY_CAP',
    e.THROTTLE_CLIENT_FREE_FAILURES < e.THROTTLE_CLIENT_HOURLY_CAP || 'THROTTLE_CLIENT_FREE_FAILURES must be below THROTTLE_CLIENT_HOURLY_CAP',
    e.THROTTLE_DELAY_SECONDS <= e.THROTTLE_MAX_DELAY_SECONDS || 'THROTTLE_DELAY_SECONDS must not exceed THROTTLE_MAX_DELAY_SECONDS',
  ].filter((p) => p !== true);
  if (problems.length > 0) throw new Error(`Invalid configuration:\n${problems.map((p) => `  ${p}`).join('\n')}`);
  return {
    account: {
      free: e.THROTTLE_ACCOUNT_FREE_FAILURES,
      lockAfter: e.THROTTLE_ACCOUNT_LOCK_AFTER,
      lockSeconds: e.THROTTLE_ACCOUNT_LOCK_SECONDS,
      cap: e.THROTTLE_ACCOUNT_DAILY_CAP,
      windowSeconds: 86_400,
    },
    source: { free: e.THROTTLE_SOURCE_FREE_FAILURES, cap: e.THROTTLE_SOURCE_HOURLY_CAP, windowSeconds: 3600 },
    client: { free: e.THROTTLE_CLIENT_FREE_FAILURES, cap: e.THROTTLE_CLIENT_HOURLY_CAP, windowSeconds: 3600 },
    // No waits in between: a person signs up once; the cap alone stops a script filling the user table or the mail queue.
    signUp: { free: e.THROTTLE_SIGN_UP_HOURLY_CAP, cap: e.THROTTLE_SIGN_UP_HOURLY_CAP, windowSeconds: 3600 },
    delaySeconds: e.THROTTLE_DELAY_SECONDS,
    maxDelaySeconds: e.THROTTLE_MAX_DELAY_SECONDS,
  };
}

/** Why an attempt may not run now: a short wait, or a lock of the account. */
export interface Refusal {
  reason: 'throttled' | 'locked';
  /** Whole seconds, at least 1: the `Retry-After` value. */
  retryAfterSeconds: number;
  until: Date;
}

export type Check = { allowed: true } | ({ allowed: false } & Refusal);

export interface FailureOutcome {
  /** The wait before the next attempt, if this failure earned one. */
  wait?: Refusal;
  /** This failure locked the account (or second factor): a lockout, for the audit log. */
  locked: boolean;
}

/** A password check. `account` is the account the typed username names, if any. */
export interface PasswordAttempt {
  account: { id: string } | undefined;
  username: string;
  /** The request's address (lib/services/request-context.ts), null when unknown. */
  ip: string | null;
}

export interface Throttle {
  /** Before verifying a password: refused while the account or the source waits, without spending a hash. Counts the attempt. */
  beforePasswordCheck(attempt: PasswordAttempt): Promise<Check>;
  passwordFailed(attempt: PasswordAttempt): Promise<FailureOutcome>;
  /** Clears the account's counters and gives the source its point back. */
  passwordSucceeded(attempt: PasswordAttempt): Promise<void>;
  beforeSecondFactor(accountId: string): Promise<Check>;
  secondFactorFailed(accountId: string): Promise<FailureOutcome>;
  secondFactorSucceeded(accountId: string): Promise<void>;
  /** One read; a success needs no call, so the token endpoint's happy path writes nothing. */
  beforeClientAuthentication(clientId: string): Promise<Check>;
  clientAuthenticationFailed(clientId: string): Promise<FailureOutcome>;
  /**
   * Before sending a mail someone asked for (a password reset link): counted
   * per source address and, when the request names an account, per account,
   * like failed passwords (a few go through freely, then delays, then a
   * lock of that account's mails), so nobody floods a mailbox or the mail server.
   */
  beforeMailRequest(request: { ip: string | null; accountId?: string }): Promise<Check>;
  /**
   * Before a sign-up (a well-formed one: a typo costs nothing): counted per source
   * address; the `cap`th in an hour makes the address wait until that hour ends.
   * Attempts with a taken username count too, so usernames cannot be tried in bulk.
   */
  beforeSignUp(ip: string | null): Promise<Check>;
  /** Before checking a token from a mailed link: refused while the source waits. */
  beforeLinkCheck(ip: string | null): Promise<Check>;
  /** A link's token matched nothing (or is spent or expired): counted against the source, like a wrong password. */
  linkFailed(ip: string | null): Promise<FailureOutcome>;
  /** For the admin's views: until when the account's password or second factor is locked. */
  lockState(accountId: string): Promise<{ lockedUntil: Date } | undefined>;
  /** Clears the account's counters and waits; true when it was locked (an audit event). */
  unlock(accountId: string): Promise<boolean>;
  close(): Promise<void>;
}

export interface ThrottleOptions {
  db: Database;
  redisUrl?: string;
  /** Prefix of every Redis key (tests use one each). */
  redisKeyPrefix?: string;
  settings: ThrottleSettings;
  /** How often expired rows are deleted from the database; 0: never (tests). */
  sweepEveryMs?: number;
}

/** Stored in a counter's wait limiter: what kind of wait it is. */
const DELAY = 1;
const LOCK = 2;

export function createThrottle({ db, redisUrl, redisKeyPrefix, settings, sweepEveryMs = 300_000 }: ThrottleOptions): Throttle {
  const store = openCounterStore(db, { redisUrl, redisKeyPrefix });
  const password = counter(store, 'password', settings.account, settings);
  const secondFactor = counter(store, 'second_factor', settings.account, settings);
  const source = counter(store, 'source', settings.source, settings);
  const client = counter(store, 'client', settings.client, settings);
  const mail = counter(store, 'mail', settings.account, settings);
  const signUp = counter(store, 'sign_up', settings.signUp, settings);
  const sweeper =
    store.kind !== 'redis' && sweepEveryMs > 0
      ? setInterval(() => void store.sweep().catch((error: unknown) => db.log.error({ err: error }, 'deleting expired throttle counters failed')), sweepEveryMs)
      : undefined;
  sweeper?.unref();

  let hmacKey: Promise<string> | undefined;
  const passwordKey = async ({ account, username }: PasswordAttempt) => {
    if (account) return accountKey(account.id);
    // One server secret, so every instance derives the same key; a failed read is tried again next time.
    hmacKey ??= serverSecret(db, 'throttle_username_key', () => randomBytes(32).toString('base64url')).catch((error) => {
      hmacKey = undefined;
      throw error;
    });
    const digest = createHmac('sha256', await hmacKey)
      .update(usernameKey(username))
      .digest('base64url');
    return `name:${digest}`;
  };

  const lockState = async (accountId: string) => {
    const waits = await Promise.all([password.waiting(accountKey(accountId)), secondFactor.waiting(accountKey(accountId))]);
    const lock = latest(waits.filter((w) => w?.reason === 'locked'));
    return lock ? { lockedUntil: lock.until } : undefined;
  };

  return {
    async beforePasswordCheck(attempt) {
      const [key, from] = [await passwordKey(attempt), sourceOf(attempt.ip)];
      const waiting = latest(await Promise.all([password.waiting(key), source.waiting(from)]));
      if (waiting) return refused(waiting);
      const overAccount = await password.attempt(key);
      if (overAccount) return refused(overAccount);
      const overSource = await source.attempt(from);
      if (overSource) await password.refund(key);
      return overSource ? refused(overSource) : { allowed: true };
    },
    async passwordFailed(attempt) {
      const [mine, theirs] = await Promise.all([password.failed(await passwordKey(attempt), true), source.failed(sourceOf(attempt.ip), true)]);
      const wait = latest([mine.wait, theirs.wait]);
      return wait ? { wait, locked: mine.locked } : { locked: mine.locked };
    },
    async passwordSucceeded(attempt) {
      await Promise.all([password.clear(await passwordKey(attempt)), source.refund(sourceOf(attempt.ip))]);
    },
    async beforeSecondFactor(accountId) {
      const key = accountKey(accountId);
      const refusal = (await secondFactor.waiting(key)) ?? (await secondFactor.attempt(key));
      return refusal ? refused(refusal) : { allowed: true };
    },
    secondFactorFailed: (accountId) => secondFactor.failed(accountKey(accountId), true),
    secondFactorSucceeded: (accountId) => secondFactor.clear(accountKey(accountId)),
    async beforeClientAuthentication(clientId) {
      const refusal = await client.waiting(clientId);
      return refusal ? refused(refusal) : { allowed: true };
    },
    clientAuthenticationFailed: (clientId) => client.failed(clientId, false),
    async beforeMailRequest({ ip, accountId }) {
      const from = sourceOf(ip);
      const waiting = latest(await Promise.all([source.waiting(from), accountId ? mail.waiting(accountKey(accountId)) : undefined]));
      if (waiting) return refused(waiting);
      // Every request counts, for an account or not: the wait it earns applies to the next one.
      await Promise.all([source.failed(from, false), accountId ? mail.failed(accountKey(accountId), false) : undefined]);
      return { allowed: true };
    },
    async beforeSignUp(ip) {
      const from = sourceOf(ip);
      const waiting = await signUp.waiting(from);
      if (waiting) return refused(waiting);
      await signUp.failed(from, false);
      return { allowed: true };
    },
    async beforeLinkCheck(ip) {
      const waiting = await source.waiting(sourceOf(ip));
      return waiting ? refused(waiting) : { allowed: true };
    },
    linkFailed: (ip) => source.failed(sourceOf(ip), false),
    lockState,
    async unlock(accountId) {
      const wasLocked = (await lockState(accountId)) !== undefined;
      await Promise.all([password.clear(accountKey(accountId)), secondFactor.clear(accountKey(accountId))]);
      return wasLocked;
    },
    async close() {
      clearInterval(sweeper);
      await store.close();
    },
  };
}

const accountKey = (accountId: string) => `id:${accountId}`;

const refused = (refusal: Refusal): Check => ({ allowed: false, ...refusal });

/** The refusal that ends last, if any. */
function latest(refusals: Array<Refusal | undefined>): Refusal | undefined {
  return refusals.reduce<Refusal | undefined>((a, b) => (!b || (a && a.until >= b.until) ? a : b), undefined);
}

function refusal(reason: Refusal['reason'], ms: number): Refusal {
  const retryAfterSeconds = Math.max(1, Math.ceil(ms / 1000));
  return { reason, retryAfterSeconds, until: new Date(Date.now() + retryAfterSeconds * 1000) };
}

/**
 * One kind of counted key: its failures in the current window, and the wait
 * they earned (a row of its own, whose points say whether it is a lock).
 */
function counter(store: CounterStore, name: string, limits: Limits, delays: Pick<ThrottleSettings, 'delaySeconds' | 'maxDelaySeconds'>) {
  const failures = store.limiter({ keyPrefix: name, points: limits.cap, duration: limits.windowSeconds });
  const waits = store.limiter({ keyPrefix: `${name}_wait`, points: LOCK, duration: limits.windowSeconds });
  const locks = limits.lockAfter !== undefined;

  const waiting = async (key: string) => {
    const wait = await waits.get(key);
    if (!wait || wait.msBeforeNext <= 0) return undefined;
    return refusal(wait.consumedPoints >= LOCK ? 'locked' : 'throttled', wait.msBeforeNext);
  };

  /** The wait that `n` failures with `windowMs` left in their window earn. */
  const earned = (n: number, windowMs: number): { reason: Refusal['reason']; seconds: number } | undefined => {
    if (n >= limits.cap) return { reason: locks ? 'locked' : 'throttled', seconds: Math.max(1, Math.ceil(windowMs / 1000)) };
    if (locks && n >= limits.lockAfter!) return { reason: 'locked', seconds: limits.lockSeconds! };
    if (n > limits.free) return { reason: 'throttled', seconds: Math.min(delays.delaySeconds * 2 ** (n - limits.free - 1), delays.maxDelaySeconds) };
    return undefined;
  };

  return {
    waiting,
    /** Counts an attempt before it runs; past the cap, the refusal. Atomic, so parallel guesses cannot pass the cap. */
    async attempt(key: string): Promise<Refusal | undefined> {
      try {
        await failures.consume(key);
        return undefined;
      } catch (rejection) {
        if (rejection instanceof Error) throw rejection; // the store failed; a refusal is a RateLimiterRes
        return refusal(locks ? 'locked' : 'throttled', (rejection as { msBeforeNext: number }).msBeforeNext);
      }
    },
    /** Records a failure (`counted`: attempt() already counted it) and the wait it earns. */
    async failed(key: string, counted: boolean): Promise<FailureOutcome> {
      const count = (counted ? await failures.get(key) : null) ?? (await failures.penalty(key));
      const wait = earned(count.consumedPoints, count.msBeforeNext);
      if (!wait) return { locked: false };
      const current = await waiting(key);
      if (current && current.until.getTime() >= Date.now() + wait.seconds * 1000) return { wait: current, locked: false };
      await waits.set(key, wait.reason === 'locked' ? LOCK : DELAY, wait.seconds);
      return { wait: refusal(wait.reason, wait.seconds * 1000), locked: wait.reason === 'locked' };
    },
    async clear(key: string) {
      await Promise.all([failures.delete(key), waits.delete(key)]);
    },
    /** Gives back the point attempt() took, for an attempt that did not fail. */
    async refund(key: string) {
      await failures.reward(key);
    },
  };
}

/** What a page says to a refused attempt: when to try again, and nothing about whether the account exists. */
export function tryAgainIn({ retryAfterSeconds }: Pick<Refusal, 'retryAfterSeconds'>): string {
  if (retryAfterSeconds < 60) return `too many attempts; try again in ${retryAfterSeconds} second${retryAfterSeconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(retryAfterSeconds / 60);
  if (minutes < 120) return `too many attempts; try again in ${minutes} minutes`;
  return `too many attempts; try again in ${Math.ceil(minutes / 60)} hours`;
}
