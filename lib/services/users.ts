/** User management use cases (CLI now, portal later). Inputs are validated here with zod. */
import { z } from 'zod';
import { destroyArtifactsOfAccount } from '../db/artifacts.ts';
import type { Database } from '../db/database.ts';
import { countUsers, findUserByUsername, insertUser, listUsers, setPasswordHash, setUserDisabled, type Role, type UserRecord } from '../db/users.ts';
import { hashPassword, passwordPolicy } from './passwords.ts';

export const usernameSchema = z
  .string()
  .trim()
  .min(1, 'username is required')
  .max(64, 'username is at most 64 characters')
  .regex(/^[A-Za-z0-9._@-]+$/, 'username may contain letters, digits and . _ @ - only');

export const passwordSchema = z
  .string()
  .min(passwordPolicy.minLength, `password must be at least ${passwordPolicy.minLength} characters`)
  .max(passwordPolicy.maxLength, `password is at most ${passwordPolicy.maxLength} characters`);

export const newUserSchema = z.object({
  username: usernameSchema,
  email: z.email('email is not a valid address').max(254).nullable().default(null),
  name: z.string().trim().min(1).max(128).nullable().default(null),
  password: passwordSchema,
  role: z.enum(['user', 'admin']).default('user'),
});

export type NewUserInput = z.input<typeof newUserSchema>;

export class UserError extends Error {
  constructor(
    readonly code: 'username_taken' | 'email_taken' | 'not_found',
    message: string,
  ) {
    super(message);
  }
}

function isUniqueViolation(error: unknown, field: string): boolean {
  const e = error as { code?: string; meta?: { target?: unknown; driverAdapterError?: unknown } };
  return e?.code === 'P2002' && JSON.stringify(e.meta ?? {}).includes(field);
}

export async function createUser(db: Database, input: NewUserInput): Promise<UserRecord> {
  const data = newUserSchema.parse(input);
  const passwordHash = await hashPassword(data.password);
  try {
    return await insertUser(db, { username: data.username, email: data.email, name: data.name, passwordHash, role: data.role as Role });
  } catch (error) {
    if (isUniqueViolation(error, 'email')) throw new UserError('email_taken', `a user with email ${data.email} already exists`);
    if (isUniqueViolation(error, 'username') || (error as { code?: string })?.code === 'P2002') {
      throw new UserError('username_taken', `a user named ${data.username} already exists`);
    }
    throw error;
  }
}

export { countUsers, listUsers };

export async function changePassword(db: Database, username: string, password: string): Promise<void> {
  const hash = await hashPassword(passwordSchema.parse(password));
  if (!(await setPasswordHash(db, username, hash))) throw new UserError('not_found', `no user named ${username}`);
}

/** Disabling also ends the user's sessions and revokes every token and grant they hold. */
export async function disableUser(db: Database, username: string): Promise<UserRecord> {
  const user = await setUserDisabled(db, username, true);
  if (!user) throw new UserError('not_found', `no user named ${username}`);
  await destroyArtifactsOfAccount(db.sql, user.id);
  return user;
}

export async function enableUser(db: Database, username: string): Promise<UserRecord> {
  const user = await setUserDisabled(db, username, false);
  if (!user) throw new UserError('not_found', `no user named ${username}`);
  return user;
}

export async function getUser(db: Database, username: string): Promise<UserRecord | undefined> {
  return findUserByUsername(db, username);
}
