/**
 * Who may use the admin portal, decided on every request from the database,
 * not from the portal session: a role removed or an account disabled takes
 * effect at the next page load, without waiting for the session to end.
 */
import { isSessionOfAccount } from '../../db/artifacts.ts';
import type { Database } from '../../db/database.ts';
import { findUserById, type Role } from '../../db/users.ts';

/** The signed-in administrator, as pages and server actions see them. */
export interface AdminUser {
  id: string;
  username: string;
  name: string | null;
  email: string | null;
  /** The Gatehouse session this portal sign-in came from (its browser's), when known. */
  sessionUid?: string;
}

export type AdminAccess =
  | { kind: 'signed_out' }
  /** Signed in, but not an enabled admin (or no longer a user at all). */
  | { kind: 'forbidden' }
  | { kind: 'admin'; admin: AdminUser };

/** `sub` is the portal session's subject: a Gatehouse user id, or undefined without a session. */
export async function adminAccess(db: Database, sub: string | undefined): Promise<AdminAccess> {
  if (!sub) return { kind: 'signed_out' };
  const user = await findUserById(db, sub);
  if (!user || user.disabled || user.role !== 'admin') return { kind: 'forbidden' };
  return { kind: 'admin', admin: { id: user.id, username: user.username, name: user.name, email: user.email } };
}

/** Anyone signed in to the portal, as the account pages (/account) see them. */
export interface PortalUser extends AdminUser {
  role: Role;
}

export type UserAccess = { kind: 'signed_out' } | { kind: 'user'; user: PortalUser };

/**
 * Any enabled user, whatever their role. A disabled or deleted user counts as
 * signed out: disabling ends their Gatehouse sessions, so signing in again is
 * refused by Gatehouse itself.
 */
export async function userAccess(db: Database, sub: string | undefined): Promise<UserAccess> {
  if (!sub) return { kind: 'signed_out' };
  const user = await findUserById(db, sub);
  if (!user || user.disabled) return { kind: 'signed_out' };
  return { kind: 'user', user: { id: user.id, username: user.username, name: user.name, email: user.email, role: user.role } };
}

/**
 * Whether the Gatehouse session a portal sign-in came from (the provider's
 * Session, by its uid) still exists for the same account. The portal session
 * lives and dies with it, as a session-bound token would: signing out
 * elsewhere, "sign out everywhere else" and disabling the user all end it.
 */
export function gatehouseSessionAlive(db: Database, sub: string, sessionUid: string): Promise<boolean> {
  return isSessionOfAccount(db, sub, sessionUid);
}
