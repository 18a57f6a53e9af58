/**
 * Authenticate a user by username and password. The answer never says whether
 * the username exists: unknown users, disabled users and wrong passwords all
 * take one argon2id verification and give the same `undefined`.
 */
import 'server-only';
import { database } from '../db/database.ts';
import { findCredentials } from '../db/users.ts';
import { verifyAgainstDummy, verifyPassword } from './passwords.ts';

export async function authenticate(username: string, password: string): Promise<string | undefined> {
  const credentials = await findCredentials(database(), username);
  if (!credentials) {
    await verifyAgainstDummy(password);
    return undefined;
  }
  const valid = await verifyPassword(credentials.passwordHash, password);
  return valid && !credentials.disabled ? credentials.id : undefined;
}
