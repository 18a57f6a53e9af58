/**
 * Where passwords are checked: sign-in at /interaction/:uid/login
 * (`authenticate`) and the current password on /account (`verifyCurrentPassword`).
 * Both go through `checkPassword`, the one place a password is checked against
 * an account, under the throttle (lib/platform/throttle.ts): a refused attempt
 * runs no argon2id at all, a failure is counted, a success clears the count.
 *
 * The answer the person sees never says whether the username exists: unknown
 * users, disabled users and wrong passwords all take one argon2id verification
 * and fail alike, and an unknown username is throttled exactly like a known
 * one. Only the audit log (read by admins) is told which it was. The exceptions
 * come after the right password, which proves the account is the person's: a
 * disabled account is told it is disabled (reason `disabled`; with a wrong
 * password it is `wrong_password`, like any other), and a signed-up account
 * whose address is not verified yet is told so (it may not sign in until it is).
 * Both are decided after the one verification, so neither takes longer.
 *
 * No 'server-only' marker: like the other use cases in the domain folders that
 * take their dependencies as arguments, it is tested under node:test, which
 * cannot import that marker.
 */
import type { Database } from '../db/database.ts';
import { findCredentials, findCredentialsById, type Credentials } from '../users/repository.ts';
import { recordAudit, type RequestContext } from '../audit/log.ts';
import { knownDevice } from './devices.ts';
import type { signInFailureReasons } from '../audit/events.ts';
import { needsRehash, verifyAgainstDummy, verifyPassword } from '../platform/passwords.ts';
import { rehashImportedPassword } from '../users/import-hashes.ts';
import type { Refusal, Throttle } from '../platform/throttle.ts';

/** What checking a password needs: the database and the throttle (lib/context.ts has both). */
export interface PasswordCheckContext {
  db: Database;
  throttle: Throttle;
}

export type Authentication =
  | { ok: true; accountId: string; username: string }
  /**
   * `accountId` and `username` (the account's own spelling) are set when the username names an account.
   * `refusal`: the throttle refused the attempt (nothing was verified). `locked`: this failure locked the account.
   * `awaitingEmail` (reason `email_unverified`): the password was right, but the account signed up and its
   * address, this one, is not verified yet; only then may the person be told (lib/sign-in/sign-up.ts).
   */
  | {
      ok: false;
      reason: (typeof signInFailureReasons)[number];
      accountId?: string;
      username?: string;
      refusal?: Refusal;
      locked?: { until: Date };
      awaitingEmail?: string;
    };

type PasswordCheck = { ok: true } | { ok: false; refusal?: Refusal; locked?: { until: Date } };

/**
 * The one password check: throttled first, then argon2id against the account's
 * hash (or the dummy, for a username that names no account). `typed` is the
 * username as typed, which keys an unknown name's counter.
 */
async function checkPassword(
  { db, throttle }: PasswordCheckContext,
  credentials: Credentials | undefined,
  typed: string,
  password: string,
  ip: string | null,
  device?: string,
): Promise<PasswordCheck> {
  const attempt = { account: credentials ? { id: credentials.id } : undefined, username: typed, ip, device };
  const check = await throttle.beforePasswordCheck(attempt);
  if (!check.allowed) return { ok: false, refusal: check };
  // An account without a password (an invitation not yet accepted) costs the same hash and matches nothing.
  const ok = credentials?.passwordHash ? await verifyPassword(credentials.passwordHash, password) : await verifyAgainstDummy(password);
  if (ok) {
    await throttle.passwordSucceeded(attempt);
    // An imported hash (bcrypt, PBKDF2, …) is replaced by argon2id now that the password is known: once.
    if (credentials?.passwordHash && needsRehash(credentials.passwordHash))
      await rehashImportedPassword(db, credentials.id, credentials.passwordHash, password);
    return { ok: true };
  }
  const outcome = await throttle.passwordFailed(attempt);
  return outcome.locked && outcome.wait ? { ok: false, locked: { until: outcome.wait.until } } : { ok: false };
}

/**
 * Sign-in: the username, in any case, and its password, from `ip`. `cookieHeader`: the browser's
 * cookies, whose device cookie (lib/sign-in/devices.ts) may make it a known browser of the
 * account, with a budget of its own.
 */
export async function authenticate(
  ctx: PasswordCheckContext,
  username: string,
  password: string,
  ip: string | null = null,
  cookieHeader: string | null = null,
): Promise<Authentication> {
  const credentials = await findCredentials(ctx.db, username);
  const account = credentials ? { accountId: credentials.id, username: credentials.username } : {};
  const device = credentials && cookieHeader ? await knownDevice(ctx.db, credentials.id, cookieHeader) : undefined;
  const checked = await checkPassword(ctx, credentials, username, password, ip, device);
  if (!checked.ok) {
    if (checked.refusal) return { ok: false, reason: 'throttled', ...account, refusal: checked.refusal };
    return { ok: false, reason: credentials ? 'wrong_password' : 'unknown_user', ...account, ...(checked.locked ? { locked: checked.locked } : {}) };
  }
  if (credentials?.disabled) return { ok: false, reason: 'disabled', ...account };
  if (credentials?.awaitingEmail !== null && credentials?.awaitingEmail !== undefined) {
    return { ok: false, reason: 'email_unverified', ...account, awaitingEmail: credentials.awaitingEmail };
  }
  return { ok: true, ...(account as { accountId: string; username: string }) };
}

/**
 * A signed-in person proves they know their current password (/account),
 * under the same throttle as sign-in. A failure is recorded as
 * `password.check_failed`, made by the person, with the request's IP address
 * and user agent (never what was typed).
 */
export async function verifyCurrentPassword(
  ctx: PasswordCheckContext,
  person: { id: string; username: string },
  password: string,
  context: Partial<RequestContext> = {},
): Promise<{ ok: true } | { ok: false; refusal?: Refusal }> {
  const { db } = ctx;
  const credentials = await findCredentialsById(db, person.id);
  if (!credentials || credentials.disabled) return { ok: false };
  const checked = await checkPassword(ctx, credentials, credentials.username, password, context.ip ?? null);
  if (!checked.ok && !checked.refusal) {
    await recordAudit(db, {
      action: 'password.check_failed',
      actor: { id: person.id, username: person.username },
      target: { type: 'user', id: person.id, label: person.username },
      context,
      details: {},
    });
  }
  if (!checked.ok && checked.locked) await recordLockout(db, person, checked.locked.until, context);
  return checked.ok ? { ok: true } : { ok: false, refusal: checked.refusal };
}

/** A failure locked the account: recorded under it, for its owner and the admins. */
export async function recordLockout(db: Database, person: { id: string; username: string }, until: Date, context: Partial<RequestContext> = {}): Promise<void> {
  await recordAudit(db, {
    action: 'user.locked',
    actor: null,
    target: { type: 'user', id: person.id, label: person.username },
    context,
    details: { until: until.toISOString() },
  });
}
