/**
 * Where passwords are checked: sign-in at /interaction/:uid/login
 * (`authenticate`) and the current password on /account (`verifyCurrentPassword`).
 * Both go through `verifyAccountPassword`, the one place a password is checked
 * against an existing account, so a limiter on guesses per account has one
 * place to hook in.
 *
 * The answer the person sees never says whether the username exists: unknown
 * users, disabled users and wrong passwords all take one argon2id verification
 * and fail alike. Only the audit log (read by admins) is told which it was.
 *
 * No 'server-only' marker: like the other use cases under lib/services that
 * take their database as an argument, it is tested under node:test, which
 * cannot import that marker.
 */
import type { Database } from '../db/database.ts';
import { findCredentials, findCredentialsById, type Credentials } from '../db/users.ts';
import { recordAudit, type RequestContext } from './audit.ts';
import type { signInFailureReasons } from './audit-events.ts';
import { verifyAgainstDummy, verifyPassword } from './passwords.ts';

export type Authentication =
  | { ok: true; accountId: string; username: string }
  /** `accountId` and `username` (the account's own spelling) are set when the username names an account. */
  | { ok: false; reason: (typeof signInFailureReasons)[number]; accountId?: string; username?: string };

/** Whether `password` is this existing account's. Never throws. */
export async function verifyAccountPassword(credentials: Credentials, password: string): Promise<boolean> {
  return verifyPassword(credentials.passwordHash, password);
}

/** Sign-in: the username, in any case, and its password. */
export async function authenticate(db: Database, username: string, password: string): Promise<Authentication> {
  const credentials = await findCredentials(db, username);
  if (!credentials) {
    await verifyAgainstDummy(password);
    return { ok: false, reason: 'unknown_user' };
  }
  const account = { accountId: credentials.id, username: credentials.username };
  if (!(await verifyAccountPassword(credentials, password))) return { ok: false, reason: 'wrong_password', ...account };
  if (credentials.disabled) return { ok: false, reason: 'disabled', ...account };
  return { ok: true, ...account };
}

/**
 * A signed-in person proves they know their current password (/account). A
 * failure is recorded as `password.check_failed`, made by the person, with the
 * request's IP address and user agent (never what was typed).
 */
export async function verifyCurrentPassword(
  db: Database,
  person: { id: string; username: string },
  password: string,
  context: Partial<RequestContext> = {},
): Promise<boolean> {
  const credentials = await findCredentialsById(db, person.id);
  const ok = credentials !== undefined && !credentials.disabled && (await verifyAccountPassword(credentials, password));
  if (!ok) {
    await recordAudit(db, {
      action: 'password.check_failed',
      actor: { id: person.id, username: person.username },
      target: { type: 'user', id: person.id, label: person.username },
      context,
      details: {},
    });
  }
  return ok;
}
