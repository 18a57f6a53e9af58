/**
 * Authenticate a user by username and password. The answer the person sees
 * never says whether the username exists: unknown users, disabled users and
 * wrong passwords all take one argon2id verification and fail alike. Only the
 * audit log (read by admins) is told which of the three it was.
 */
import 'server-only';
import { database } from '../db/database.ts';
import { findCredentials } from '../db/users.ts';
import type { signInFailureReasons } from './audit-events.ts';
import { verifyAgainstDummy, verifyPassword } from './passwords.ts';

export type Authentication =
  | { ok: true; accountId: string }
  /** `accountId` is set when the username exists. */
  | { ok: false; reason: (typeof signInFailureReasons)[number]; accountId?: string };

export async function authenticate(username: string, password: string): Promise<Authentication> {
  const credentials = await findCredentials(database(), username);
  if (!credentials) {
    await verifyAgainstDummy(password);
    return { ok: false, reason: 'unknown_user' };
  }
  const valid = await verifyPassword(credentials.passwordHash, password);
  if (!valid) return { ok: false, reason: 'wrong_password', accountId: credentials.id };
  if (credentials.disabled) return { ok: false, reason: 'disabled', accountId: credentials.id };
  return { ok: true, accountId: credentials.id };
}
