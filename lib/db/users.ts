/**
 * Users. Functions return plain `UserRecord`s without the password hash; the
 * only function that reads the hash is `findCredentials`, used by sign-in.
 */
import { randomUUID } from 'node:crypto';
import type { Database } from './database.ts';

export type Role = 'user' | 'admin';

export interface UserRecord {
  id: string;
  username: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  role: Role;
  disabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** The claims-relevant part of a user, read on the provider's hot path with the raw driver. */
export interface AccountRecord {
  id: string;
  username: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  updatedAt: number; // epoch seconds
  disabled: boolean;
}

const publicFields = {
  id: true,
  username: true,
  email: true,
  emailVerified: true,
  name: true,
  role: true,
  disabled: true,
  createdAt: true,
  updatedAt: true,
} as const;

function toRole(role: string): Role {
  return role === 'admin' ? 'admin' : 'user';
}

export async function insertUser(
  db: Database,
  user: { username: string; email: string | null; name: string | null; passwordHash: string; role: Role },
): Promise<UserRecord> {
  const row = await db.prisma.user.create({ data: { id: randomUUID(), ...user }, select: publicFields });
  return { ...row, role: toRole(row.role) };
}

/** Whether any user exists: the check every start makes, on the raw driver (no Prisma start-up cost). */
export async function hasUsers(db: Database): Promise<boolean> {
  return (await db.sql.one('SELECT id FROM users LIMIT 1')) !== undefined;
}

export async function countUsers(db: Database): Promise<number> {
  return db.prisma.user.count();
}

export async function listUsers(db: Database): Promise<UserRecord[]> {
  const rows = await db.prisma.user.findMany({ select: publicFields, orderBy: { createdAt: 'asc' } });
  return rows.map((row) => ({ ...row, role: toRole(row.role) }));
}

export async function findUserByUsername(db: Database, username: string): Promise<UserRecord | undefined> {
  const row = await db.prisma.user.findUnique({ where: { username }, select: publicFields });
  return row ? { ...row, role: toRole(row.role) } : undefined;
}

/** For sign-in only: the id, hash and state of a username. */
export async function findCredentials(
  db: Database,
  username: string,
): Promise<{ id: string; passwordHash: string; disabled: boolean } | undefined> {
  const row = await db.sql.one<{ id: string; password_hash: string; disabled: number | boolean }>(
    'SELECT id, password_hash, disabled FROM users WHERE username = ?',
    [username],
  );
  return row ? { id: row.id, passwordHash: row.password_hash, disabled: Boolean(row.disabled) } : undefined;
}

/** The account behind a `sub`, for claims and token issuance (hot path: raw driver). */
export async function findAccount(db: Database, id: string): Promise<AccountRecord | undefined> {
  const row = await db.sql.one<{
    id: string;
    username: string;
    email: string | null;
    email_verified: number | boolean;
    name: string | null;
    updated_at: unknown;
    disabled: number | boolean;
  }>('SELECT id, username, email, email_verified, name, updated_at, disabled FROM users WHERE id = ?', [id]);
  if (!row) return undefined;
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    emailVerified: Boolean(row.email_verified),
    name: row.name,
    updatedAt: toEpochSeconds(row.updated_at),
    disabled: Boolean(row.disabled),
  };
}

/** Prisma stores DateTime as a Date (PostgreSQL), an ISO string or epoch ms (SQLite): accept each. */
function toEpochSeconds(value: unknown): number {
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  if (typeof value === 'number' || typeof value === 'bigint') return Math.floor(Number(value) / 1000);
  const parsed = Date.parse(String(value));
  return Number.isNaN(parsed) ? 0 : Math.floor(parsed / 1000);
}

export async function setPasswordHash(db: Database, username: string, passwordHash: string): Promise<boolean> {
  const { count } = await db.prisma.user.updateMany({ where: { username }, data: { passwordHash } });
  return count === 1;
}

export async function setUserDisabled(db: Database, username: string, disabled: boolean): Promise<UserRecord | undefined> {
  const { count } = await db.prisma.user.updateMany({ where: { username }, data: { disabled } });
  return count === 1 ? findUserByUsername(db, username) : undefined;
}

/** The user behind a `sub` with their role, for the portal's authorization check on every request. */
export async function findUserById(db: Database, id: string): Promise<UserRecord | undefined> {
  const row = await db.prisma.user.findUnique({ where: { id }, select: publicFields });
  return row ? { ...row, role: toRole(row.role) } : undefined;
}

/**
 * One page of users, newest first, whose username, email or name contains
 * `query` (case-insensitive on both databases), and how many match in all.
 */
export async function searchUsers(
  db: Database,
  { query, skip, take }: { query?: string; skip: number; take: number },
): Promise<{ users: UserRecord[]; total: number }> {
  const contains = (value: string) =>
    (db.sql.kind === 'postgresql' ? { contains: value, mode: 'insensitive' } : { contains: value }) as { contains: string };
  const where = query ? { OR: [{ username: contains(query) }, { email: contains(query) }, { name: contains(query) }] } : {};
  const [rows, total] = await Promise.all([
    db.prisma.user.findMany({ where, select: publicFields, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }], skip, take }),
    db.prisma.user.count({ where }),
  ]);
  return { users: rows.map((row) => ({ ...row, role: toRole(row.role) })), total };
}

/** Replaces a user's name and email; a changed email is no longer verified. */
export async function updateUserProfile(
  db: Database,
  id: string,
  profile: { name: string | null; email: string | null },
): Promise<UserRecord | undefined> {
  const current = await findUserById(db, id);
  if (!current) return undefined;
  const emailVerified = current.email === profile.email ? current.emailVerified : false;
  const { count } = await db.prisma.user.updateMany({ where: { id }, data: { ...profile, emailVerified } });
  return count === 1 ? findUserById(db, id) : undefined;
}

export async function setUserRole(db: Database, id: string, role: Role): Promise<UserRecord | undefined> {
  const { count } = await db.prisma.user.updateMany({ where: { id }, data: { role } });
  return count === 1 ? findUserById(db, id) : undefined;
}
