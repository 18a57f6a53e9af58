/**
 * Who may use the admin portal, decided on every request from the database,
 * not from the portal session: a role removed or an account disabled takes
 * effect at the next page load, without waiting for the session to end.
 *
 * The second-factor policy (SECOND_FACTOR_REQUIRED) is decided here too: an
 * admin without a second factor (`admins`, the default), or anyone (`everyone`),
 * is sent to set one up before anything else. /admin and /account share one
 * portal session, so that happens at /account/security, which the policy
 * never blocks; once a factor exists, every later sign-in asks for it.
 */
import { isSessionOfAccount } from '../../account/repository.ts';
import type { Database } from '../../db/database.ts';
import { hasSecondFactor } from '../../factors/repository.ts';
import { findUserById, type Role } from '../../users/repository.ts';
import { isAdminRole, type AdminRole } from '../../admin-roles/roles.ts';
import { secondFactorRequiredFor, type SecondFactorPolicy } from '../../factors/policy.ts';

export { enrolmentPath, secondFactorRequiredFor, type SecondFactorPolicy } from '../../factors/policy.ts';

/** The signed-in administrator, as pages and server actions see them. */
export interface AdminUser {
  id: string;
  username: string;
  name: string | null;
  email: string | null;
  /** The admin role they hold now (read on every request): what lib/admin-roles/roles.ts lets them do. */
  role: AdminRole;
  /** The Gatehouse session this portal sign-in came from (its browser's), when known. */
  sessionUid?: string;
}

export type AdminAccess =
  | { kind: 'signed_out' }
  /** Signed in, but not an enabled admin (or no longer a user at all). */
  | { kind: 'forbidden' }
  /** An admin the policy sends to set up a second factor first. */
  | { kind: 'enrol'; admin: AdminUser }
  | { kind: 'admin'; admin: AdminUser };

/** `sub` is the portal session's subject: a Gatehouse user id, or undefined without a session. */
export async function adminAccess(db: Database, sub: string | undefined, policy: SecondFactorPolicy): Promise<AdminAccess> {
  if (!sub) return { kind: 'signed_out' };
  const user = await findUserById(db, sub);
  if (!user || user.disabled || !isAdminRole(user.role)) return { kind: 'forbidden' };
  const admin = { id: user.id, username: user.username, name: user.name, email: user.email, role: user.role };
  if (secondFactorRequiredFor(policy, user.role) && !(await hasSecondFactor(db, user.id))) return { kind: 'enrol', admin };
  return { kind: 'admin', admin };
}

/** Anyone signed in to the portal, as the account pages (/account) see them. */
export interface PortalUser extends Omit<AdminUser, 'role'> {
  role: Role;
}

/** `enrol`: the `everyone` policy sends this person to set up a second factor first. */
export type UserAccess = { kind: 'signed_out' } | { kind: 'user' | 'enrol'; user: PortalUser };

/**
 * Any enabled user, whatever their role. A disabled or deleted user counts as
 * signed out: disabling ends their Gatehouse sessions, so signing in again is
 * refused by Gatehouse itself. Only `everyone` stops anyone here: under
 * `admins` an admin's own /account stays open (it is where they enrol).
 */
export async function userAccess(db: Database, sub: string | undefined, policy: SecondFactorPolicy): Promise<UserAccess> {
  if (!sub) return { kind: 'signed_out' };
  const user = await findUserById(db, sub);
  if (!user || user.disabled) return { kind: 'signed_out' };
  const portalUser = { id: user.id, username: user.username, name: user.name, email: user.email, role: user.role };
  if (policy === 'everyone' && !(await hasSecondFactor(db, user.id))) return { kind: 'enrol', user: portalUser };
  return { kind: 'user', user: portalUser };
}

/**
 * Whether the Gatehouse session a portal sign-in came from (the provider's
 * Session, by its uid) still exists for the same account. The portal session
 * lives and dies with it, as a session-bound token would: signing out
 * elsewhere, "sign out everywhere else" and disabling the user all end it.
 */
export function gatehouseSessionAlive(db: Database, sub: string, sessionUid: string, now: number): Promise<boolean> {
  return isSessionOfAccount(db, sub, sessionUid, now);
}
