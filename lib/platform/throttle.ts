/**
 * Throttling and lockout of guessing (issues 10 and 21): password checks per
 * (account, source address), per known browser and per source, second-factor
 * codes per account, failed client authentication per source. Counters are
 * shared by every instance (lib/db/throttle-store.ts: the database, or Redis
 * with REDIS_URL).
 *
 * Throttling must not become the attack: a counter keyed by something a
 * stranger can name (an account, a client_id) and consulted before the right
 * secret is checked lets anyone keep the owner out. So (OWASP's "device
 * cookies" against online guessing):
 * - a browser that signed in to the account before presents a device cookie
 *   (lib/sign-in/devices.ts) and has a budget of its own, which
 *   nobody else's failures touch;
 * - every other attempt counts per (account, source) and per source, so a
 *   guesser slows and locks only their own address; over all sources, the
 *   account's failures from browsers it does not know lock out new browsers
 *   only at a total far above what a person mistyping reaches (100 a day by
 *   default), and the owner lifts that from a mailed link;
 * - a passkey sign-in consults none of this;
 * - a client secret is compared first (it is a 256-bit random value, so
 *   counting guesses protects nothing): a right one is never refused; wrong
 *   ones are counted per source, with a high global cap, and past them the
 *   answer is 429 instead of 401.
 *
 * How to wire it: build one `createThrottle({ db, redisUrl: env().REDIS_URL,
 * settings: throttleSettings() })` per process (the context's `throttle`,
 * lib/context.ts). Wherever a password is verified (authenticate, verifyCurrentPassword),
 * look the account up, call `beforePasswordCheck` and, if refused, show "try
 * again in …" (JSON: 429 with `Retry-After: retryAfterSeconds`) without
 * verifying; otherwise verify (passwords.ts's `verifyAgainstDummy` for an unknown username)
 * and report `passwordFailed` or `passwordSucceeded`. Client authentication
 * at /oauth/token, /introspect and /revoke compares the secret first and calls
 * `clientAuthenticationFailed` for a wrong one only; TOTP and
 * recovery codes with the second-factor trio. Audit events are the caller's: a
 * refusal (`throttled`), a failure that answers `locked: true` (a lockout), and
 * `unlock` returning true (an unlock, by the admin).
 *
 * The policy, per key and window (each figure a setting, so an operator can fit it to their users):
 * the first `free` failures cost nothing, so a person who mistypes is never
 * slowed; each further one earns a wait of `delaySeconds`, doubling up to
 * `maxDelaySeconds`; for accounts, from `lockAfter` failures on each failure
 * locks the (account, source) pair or the known browser for `lockSeconds`; at
 * `cap` attempts the key is refused until its window (which starts at its first
 * failure) ends. A password check is counted before it runs, atomically, so
 * parallel guesses cannot pass the cap; a success clears the pair's or the
 * browser's counters and gives the source its point back. Unknown usernames are keyed by an HMAC of what was typed (which may be
 * a password typed into the wrong field, so it is never stored), and take the
 * same steps as known ones.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Env } from '../config/env.ts';
import { env } from '../config/env.ts';
import type { Database } from '../db/database.ts';
import { serverSecret } from '../db/secrets.ts';
import { type CounterStore, openCounterStore } from '../db/throttle-store.ts';
import { usernameKey } from '../users/repository.ts';
import { sourceOf } from './source-counts.ts';

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
  /**
   * Password checks per (account, source), and per known browser of the account; second-factor codes use
   * the same limits on counters of their own.
   */
  account: Limits;
  /** Failed password checks per account from browsers it does not know, over every source: the lock of new browsers. */
  newBrowsers: Limits;
  /** Password checks per source address (IPv6: per /64), over every account: credential stuffing. */
  source: Limits;
  /** Failed client authentications per source address, over every client. */
  client: Limits;
  /** Failed client authentications over every source: past it, every wrong secret is answered 429. */
  clientGlobal: Limits;
  /** Sign-ups per source address (lib/sign-in/sign-up.ts): each one creates an account and sends a mail. */
  signUp: Limits;
  /** Registrations without an initial access token per source address (DYNAMIC_REGISTRATION=open, lib/oidc/registration.ts). */
  openRegistration: Limits;
  delaySeconds: number;
  maxDelaySeconds: number;
}

/** The settings from the environment; throws, naming the variables, when they are out of order. */
export function throttleSettings(e: Env = env()): ThrottleSettings {
  const problems = [
    e.THROTTLE_ACCOUNT_FREE_FAILURES < e.THROTTLE_ACCOUNT_LOCK_AFTER || 'THROTTLE_ACCOUNT_FREE_FAILURES must be below THROTTLE_ACCOUNT_LOCK_AFTER',
    e.THROTTLE_ACCOUNT_LOCK_AFTER <= e.THROTTLE_ACCOUNT_DAILY_CAP || 'THROTTLE_ACCOUNT_LOCK_AFTER must not exceed THROTTLE_ACCOUNT_DAILY_CAP',
    e.THROTTLE_ACCOUNT_DAILY_CAP < e.THROTTLE_NEW_BROWSER_LOCK_AFTER || 'THROTTLE_NEW_BROWSER_LOCK_AFTER must exceed THROTTLE_ACCOUNT_DAILY_CAP',
    e.THROTTLE_SOURCE_FREE_FAILURES < e.THROTTLE_SOURCE_HOURLY_CAP || 'THROTTLE_SOURCE_FREE_FAILURES must be below THROTTLE_SOURCE_HOURLY_CAP',
    e.THROTTLE_CLIENT_FREE_FAILURES < e.THROTTLE_CLIENT_HOURLY_CAP || 'THROTTLE_CLIENT_FREE_FAILURES must be below THROTTLE_CLIENT_HOURLY_CAP',
    e.THROTTLE_CLIENT_HOURLY_CAP <= e.THROTTLE_CLIENT_GLOBAL_HOURLY_CAP || 'THROTTLE_CLIENT_HOURLY_CAP must not exceed THROTTLE_CLIENT_GLOBAL_HOURLY_CAP',
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
    // No waits below the lock: waits there would slow the owner's new browser at a stranger's will.
    newBrowsers: {
      free: e.THROTTLE_NEW_BROWSER_LOCK_AFTER,
      lockAfter: e.THROTTLE_NEW_BROWSER_LOCK_AFTER,
      lockSeconds: 86_400,
      cap: e.THROTTLE_NEW_BROWSER_LOCK_AFTER,
      windowSeconds: 86_400,
    },
    source: { free: e.THROTTLE_SOURCE_FREE_FAILURES, cap: e.THROTTLE_SOURCE_HOURLY_CAP, windowSeconds: 3600 },
    client: { free: e.THROTTLE_CLIENT_FREE_FAILURES, cap: e.THROTTLE_CLIENT_HOURLY_CAP, windowSeconds: 3600 },
    clientGlobal: { free: e.THROTTLE_CLIENT_GLOBAL_HOURLY_CAP, cap: e.THROTTLE_CLIENT_GLOBAL_HOURLY_CAP, windowSeconds: 3600 },
    // No waits in between: a person signs up once; the cap alone stops a script filling the user table or the mail queue.
    signUp: { free: e.THROTTLE_SIGN_UP_HOURLY_CAP, cap: e.THROTTLE_SIGN_UP_HOURLY_CAP, windowSeconds: 3600 },
    // The same for clients registering themselves: each one is a row in `clients` and a name on the consent page.
    openRegistration: { free: e.DYNAMIC_REGISTRATION_OPEN_HOURLY_CAP, cap: e.DYNAMIC_REGISTRATION_OPEN_HOURLY_CAP, windowSeconds: 3600 },
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
  /**
   * This failure locked the account (or second factor) for the browser or address it came from, or for every
   * new browser: a lockout, for the audit log and the owner's unlock mail.
   */
  locked: boolean;
}

/** A password check. `account` is the account the typed username names, if any. */
export interface PasswordAttempt {
  account: { id: string } | undefined;
  username: string;
  /** The request's address (lib/platform/request-context.ts), null when unknown. */
  ip: string | null;
  /**
   * The browser's device id for this account, when it presented a valid device cookie for it
   * (lib/sign-in/devices.ts): the attempt then counts against that browser's own budget only.
   */
  device?: string;
}

/** A failed client authentication, from `ip`. */
export interface ClientAttempt {
  clientId: string;
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
  /**
   * A wrong client secret (compared first: a right one never asks): counted against its source and the global
   * cap, unless the source already waits. Refused: answer 429 with Retry-After instead of invalid_client.
   */
  clientAuthenticationFailed(attempt: ClientAttempt): Promise<Check>;
  /**
   * Before sending a mail someone asked for (a password reset link): counted
   * per source address and per `accountId`, like failed passwords (a few go
   * through freely, then delays, then a lock of that key's mails), so nobody
   * floods a mailbox or the mail server. Callers pass a key for every request,
   * a real account's id or a pseudonym of what was typed
   * (lib/mail-links/mail-requests.ts), so a name that is no account is refused
   * at the same step as one that is.
   */
  beforeMailRequest(request: { ip: string | null; accountId?: string }): Promise<Check>;
  /**
   * Before a sign-up (a well-formed one: a typo costs nothing): counted per source
   * address; the `cap`th in an hour makes the address wait until that hour ends.
   * Attempts with a taken username count too, so usernames cannot be tried in bulk.
   */
  beforeSignUp(ip: string | null): Promise<Check>;
  /** Before a registration without an initial access token (RFC 7591 open registration): as beforeSignUp. */
  beforeOpenRegistration(ip: string | null): Promise<Check>;
  /** Before checking a token from a mailed link: refused while the source waits. */
  beforeLinkCheck(ip: string | null): Promise<Check>;
  /** A link's token matched nothing (or is spent or expired): counted against the source, like a wrong password. */
  linkFailed(ip: string | null): Promise<FailureOutcome>;
  /**
   * For the admin's views: until when the account is locked for new browsers, or its second factor is. A lock of
   * one address or one browser is not shown: it keeps out only that address or browser, and ends by itself.
   */
  lockState(accountId: string): Promise<{ lockedUntil: Date } | undefined>;
  /** Clears the account's counters and waits (new browsers', second factor's); true when it was locked (an audit event). */
  unlock(accountId: string): Promise<boolean>;
  /**
   * Before mailing an account's owner an unlock link (a lock engaged): at most `free` such mails a day per
   * account, so a stranger who locks an address after another cannot fill the owner's mailbox.
   */
  beforeUnlockMail(accountId: string): Promise<Check>;
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
  // Keys: `<account or name key>@<source>`; a known browser's: `<account key>#<device id>`.
  const password = counter(store, 'password', settings.account, settings);
  const newBrowsers = counter(store, 'new_browsers', settings.newBrowsers, settings);
  const secondFactor = counter(store, 'second_factor', settings.account, settings);
  const source = counter(store, 'source', settings.source, settings);
  const client = counter(store, 'client_source', settings.client, settings);
  const clientGlobal = counter(store, 'client_global', settings.clientGlobal, settings);
  const unlockMail = counter(store, 'unlock_mail', UNLOCK_MAILS, settings);
  const mail = counter(store, 'mail', settings.account, settings);
  const signUp = counter(store, 'sign_up', settings.signUp, settings);
  const openRegistration = counter(store, 'open_registration', settings.openRegistration, settings);
  const sweeper =
    store.kind !== 'redis' && sweepEveryMs > 0
      ? setInterval(() => void store.sweep().catch((error: unknown) => db.log.error({ err: error }, 'deleting expired throttle counters failed')), sweepEveryMs)
      : undefined;
  sweeper?.unref();

  let hmacKey: Promise<string> | undefined;
  /** The account's key, or for a name that names none, an HMAC of the name: both take the same steps. */
  const nameKey = async ({ account, username }: PasswordAttempt) => {
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

  /** Which budget an attempt spends: a known browser's own, or its (account, source) pair's. */
  const keysOf = async (attempt: PasswordAttempt) => {
    const name = await nameKey(attempt);
    const from = sourceOf(attempt.ip);
    return attempt.device && attempt.account
      ? { name, from, own: `${name}#${attempt.device}`, known: true }
      : { name, from, own: `${name}@${from}`, known: false };
  };

  const lockState = async (accountId: string) => {
    const waits = await Promise.all([newBrowsers.waiting(accountKey(accountId)), secondFactor.waiting(accountKey(accountId))]);
    const lock = latest(waits.filter((w) => w?.reason === 'locked'));
    return lock ? { lockedUntil: lock.until } : undefined;
  };

  return {
    async beforePasswordCheck(attempt) {
      const { name, from, own, known } = await keysOf(attempt);
      if (known) {
        // The browser's own budget only: a stranger's guesses from elsewhere, or from the same address, do not reach it.
        const refusal = (await password.waiting(own)) ?? (await password.attempt(own));
        return refusal ? refused(refusal) : { allowed: true };
      }
      const waiting = latest(await Promise.all([password.waiting(own), source.waiting(from), newBrowsers.waiting(name)]));
      if (waiting) return refused(waiting);
      const overPair = await password.attempt(own);
      if (overPair) return refused(overPair);
      const overSource = await source.attempt(from);
      if (overSource) await password.refund(own);
      return overSource ? refused(overSource) : { allowed: true };
    },
    async passwordFailed(attempt) {
      const { name, from, own, known } = await keysOf(attempt);
      if (known) return password.failed(own, true);
      const [mine, theirs, all] = await Promise.all([password.failed(own, true), source.failed(from, true), newBrowsers.failed(name, false)]);
      const wait = latest([mine.wait, theirs.wait, all.wait]);
      const locked = mine.locked || all.locked;
      return wait ? { wait, locked } : { locked };
    },
    async passwordSucceeded(attempt) {
      const { from, own, known } = await keysOf(attempt);
      // The new-browser count stays: the owner's success elsewhere must not hand a guesser a fresh day.
      await Promise.all([password.clear(own), known ? undefined : source.refund(from)]);
    },
    async beforeSecondFactor(accountId) {
      const key = accountKey(accountId);
      const refusal = (await secondFactor.waiting(key)) ?? (await secondFactor.attempt(key));
      return refusal ? refused(refusal) : { allowed: true };
    },
    secondFactorFailed: (accountId) => secondFactor.failed(accountKey(accountId), true),
    secondFactorSucceeded: (accountId) => secondFactor.clear(accountKey(accountId)),
    async clientAuthenticationFailed({ ip }) {
      const from = sourceOf(ip);
      const waiting = latest(await Promise.all([client.waiting(from), clientGlobal.waiting(ALL)]));
      if (waiting) return refused(waiting);
      // This failure is answered 401 whatever it earns; the wait applies to the source's next wrong secret.
      await Promise.all([client.failed(from, false), clientGlobal.failed(ALL, false)]);
      return { allowed: true };
    },
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
    async beforeOpenRegistration(ip) {
      const from = sourceOf(ip);
      const waiting = await openRegistration.waiting(from);
      if (waiting) return refused(waiting);
      await openRegistration.failed(from, false);
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
      await Promise.all([newBrowsers.clear(accountKey(accountId)), secondFactor.clear(accountKey(accountId))]);
      return wasLocked;
    },
    async beforeUnlockMail(accountId) {
      const refusal = await unlockMail.attempt(accountKey(accountId));
      return refusal ? refused(refusal) : { allowed: true };
    },
    async close() {
      clearInterval(sweeper);
      await store.close();
    },
  };
}

const accountKey = (accountId: string) => `id:${accountId}`;
/** The key of counters kept over every source. */
const ALL = 'all';
/** Unlock mails per account a day. */
const UNLOCK_MAILS: Limits = { free: 3, cap: 3, windowSeconds: 86_400 };

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
