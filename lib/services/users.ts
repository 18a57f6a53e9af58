/**
 * User management use cases (CLI, admin portal). Inputs are validated here with
 * zod. Every change takes an optional `by` (lib/services/audit.ts): who makes
 * it and from where, recorded in the audit log; omitted, nothing is recorded.
 */
import { z } from 'zod';
import { destroyArtifactsOfAccount } from '../db/artifacts.ts';
import type { Database } from '../db/database.ts';
import {
  countUsers,
  findUserById,
  findUserByUsername,
  insertUser,
  listUsers,
  searchUsers,
  setPasswordHash,
  setUserDisabled,
  setUserRole,
  updateUserProfile,
  type Role,
  type UserRecord,
} from '../db/users.ts';
import { recordAuditBy, type AuditBy } from './audit.ts';
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

export const profileSchema = z.object({
  name: z.string().trim().max(128, 'name is at most 128 characters').transform((v) => v || null).nullable().default(null),
  email: z
    .string()
    .trim()
    .transform((v) => v || null)
    .pipe(z.email('email is not a valid address').max(254).nullable())
    .nullable()
    .default(null),
});

export type ProfileInput = z.input<typeof profileSchema>;

export class UserError extends Error {
  constructor(
    /** `self_change`: an admin may not take their own admin role away nor disable themselves. */
    readonly code: 'username_taken' | 'email_taken' | 'not_found' | 'self_change',
    message: string,
  ) {
    super(message);
  }
}

function isUniqueViolation(error: unknown, field: string): boolean {
  const e = error as { code?: string; meta?: { target?: unknown; driverAdapterError?: unknown } };
  return e?.code === 'P2002' && JSON.stringify(e.meta ?? {}).includes(field);
}

const target = (user: UserRecord) => ({ type: 'user' as const, id: user.id, label: user.username });

/** `generated`: Gatehouse generated the password (recorded, so the log says who has seen it). */
export async function createUser(db: Database, input: NewUserInput, by?: AuditBy, options: { generated?: boolean } = {}): Promise<UserRecord> {
  const data = newUserSchema.parse(input);
  const passwordHash = await hashPassword(data.password);
  let user: UserRecord;
  try {
    user = await insertUser(db, { username: data.username, email: data.email, name: data.name, passwordHash, role: data.role as Role });
  } catch (error) {
    if (isUniqueViolation(error, 'email')) throw new UserError('email_taken', `a user with email ${data.email} already exists`);
    if (isUniqueViolation(error, 'username') || (error as { code?: string })?.code === 'P2002') {
      throw new UserError('username_taken', `a user named ${data.username} already exists`);
    }
    throw error;
  }
  await recordAuditBy(db, by, {
    action: 'user.created',
    target: target(user),
    details: { role: user.role, email: user.email, ...(options.generated === undefined ? {} : { generated: options.generated }) },
  });
  return user;
}

export { countUsers, listUsers, searchUsers };

export async function changePassword(db: Database, username: string, password: string, by?: AuditBy, options: { generated?: boolean } = {}): Promise<void> {
  const hash = await hashPassword(passwordSchema.parse(password));
  if (!(await setPasswordHash(db, username, hash))) throw new UserError('not_found', `no user named ${username}`);
  const user = by ? await findUserByUsername(db, username) : undefined;
  if (user) {
    await recordAuditBy(db, by, {
      action: 'user.password_changed',
      target: target(user),
      details: { ...(options.generated === undefined ? {} : { generated: options.generated }), ...(by?.actor?.id === user.id ? { self: true } : {}) },
    });
  }
}

/** Disabling also ends the user's sessions and revokes every token and grant they hold. */
export async function disableUser(db: Database, username: string, by?: AuditBy): Promise<UserRecord> {
  const existing = await findUserByUsername(db, username);
  if (existing && by?.actor?.id === existing.id) throw new UserError('self_change', 'you cannot disable your own account');
  const user = await setUserDisabled(db, username, true);
  if (!user) throw new UserError('not_found', `no user named ${username}`);
  const revokedArtifacts = await destroyArtifactsOfAccount(db.sql, user.id);
  await recordAuditBy(db, by, { action: 'user.disabled', target: target(user), details: { revokedArtifacts } });
  return user;
}

export async function enableUser(db: Database, username: string, by?: AuditBy): Promise<UserRecord> {
  const user = await setUserDisabled(db, username, false);
  if (!user) throw new UserError('not_found', `no user named ${username}`);
  await recordAuditBy(db, by, { action: 'user.enabled', target: target(user), details: {} });
  return user;
}

export async function getUser(db: Database, username: string): Promise<UserRecord | undefined> {
  return findUserByUsername(db, username);
}

export async function getUserById(db: Database, id: string): Promise<UserRecord | undefined> {
  return findUserById(db, id);
}

/** Replaces a user's name and email (a changed email is no longer verified). */
export async function updateProfile(db: Database, id: string, input: ProfileInput, by?: AuditBy): Promise<UserRecord> {
  const profile = profileSchema.parse(input);
  const before = await findUserById(db, id);
  if (!before) throw new UserError('not_found', `no user ${id}`);
  let user: UserRecord | undefined;
  try {
    user = await updateUserProfile(db, id, profile);
  } catch (error) {
    if (isUniqueViolation(error, 'email') || (error as { code?: string })?.code === 'P2002') {
      throw new UserError('email_taken', `a user with email ${profile.email} already exists`);
    }
    throw error;
  }
  if (!user) throw new UserError('not_found', `no user ${id}`);
  const changed = (['name', 'email'] as const).filter((field) => before[field] !== user[field]);
  if (changed.length) await recordAuditBy(db, by, { action: 'user.updated', target: target(user), details: { changed } });
  return user;
}

/** Grants or removes the admin role. An admin cannot take it from themselves (someone else must). */
export async function setRole(db: Database, id: string, role: Role, by?: AuditBy): Promise<UserRecord> {
  const parsed = z.enum(['user', 'admin']).parse(role);
  const before = await findUserById(db, id);
  if (!before) throw new UserError('not_found', `no user ${id}`);
  if (by?.actor?.id === id && parsed !== 'admin') throw new UserError('self_change', 'you cannot remove your own admin role');
  if (before.role === parsed) return before;
  const user = await setUserRole(db, id, parsed);
  if (!user) throw new UserError('not_found', `no user ${id}`);
  await recordAuditBy(db, by, { action: 'user.role_changed', target: target(user), details: { from: before.role, to: user.role } });
  return user;
}
