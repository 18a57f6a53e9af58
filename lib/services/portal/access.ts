/**
 * Who may use the admin portal, decided on every request from the database,
 * not from the portal session: a role removed or an account disabled takes
 * effect at the next page load, without waiting for the session to end.
 */
import type { Database } from '../../db/database.ts';
import { findUserById } from '../../db/users.ts';

/** The signed-in administrator, as pages and server actions see them. */
export interface AdminUser {
  id: string;
  username: string;
  name: string | null;
  email: string | null;
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
