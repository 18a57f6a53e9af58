/**
 * Admin roles and what each may do: the one permission table every surface
 * checks (the portal's pages and server actions through requireAdmin, the admin
 * API through its operations table). A person holds at most one role; `user`
 * is no admin role at all. Admin-API clients act with one of the same roles.
 *
 * Acting on a person is a second check, on whom: an owner's account only an
 * owner may change, another admin's only an owner or an admin (`mayActOn`), so
 * a user manager cannot reset an owner's password and sign in as them.
 */
import { z } from 'zod';

export const ADMIN_ROLES = ['owner', 'admin', 'user_manager', 'auditor'] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

/** What a person's `role` may be: no admin role (`user`), or one of them. */
export const ROLES = ['user', ...ADMIN_ROLES] as const;
export type Role = (typeof ROLES)[number];

export const adminRoleSchema = z.enum(ADMIN_ROLES);
export const roleSchema = z.enum(ROLES);

export function isAdminRole(role: string | null | undefined): role is AdminRole {
  return (ADMIN_ROLES as readonly string[]).includes(role ?? '');
}

/** A stored role, read back: anything unknown (a hand-edited row) is no admin role. */
export function toRole(value: string): Role {
  return (ROLES as readonly string[]).includes(value) ? (value as Role) : 'user';
}

const EVERY_ROLE = ADMIN_ROLES;
const MANAGERS = ['owner', 'admin'] as const satisfies readonly AdminRole[];
const READERS = ['owner', 'admin', 'auditor'] as const satisfies readonly AdminRole[];

/**
 * Action → the roles allowed to do it. Reading is `.read`; every change has its
 * own entry, so the auditor (read-only) is in no change's list.
 */
export const PERMISSIONS = {
  /** The admin area's start page, the lists of users and their pages. */
  'users.read': EVERY_ROLE,
  /** Create people without an admin role, change their profile, password, sessions, apps; enable, disable, delete. */
  'users.manage': ['owner', 'admin', 'user_manager'],
  /** Lift a lock failed password checks put on a person. */
  'users.unlock': ['owner', 'admin', 'user_manager'],
  /** Reset a person's two-step verification (a lost authenticator). */
  'users.reset_factors': ['owner', 'admin', 'user_manager'],
  /** Invite a person, send an invitation or a verification link again. */
  'users.invite': ['owner', 'admin', 'user_manager'],
  /** Give or take an admin role other than owner (and create a person with one). */
  'users.assign_role': MANAGERS,
  /** Make an owner, take it away, change an owner's account. */
  'owners.manage': ['owner'],
  /** Clients: the list, a client's page (never its secret: a secret is shown once, when made). */
  'clients.read': READERS,
  /** Register, change, enable, disable, delete a client, and rotate its secret (which shows the new one). */
  'clients.manage': MANAGERS,
  /** The signing keys and the server's settings (the System page), read only. */
  'system.read': READERS,
  /** Rotate and retire signing keys. */
  'keys.manage': MANAGERS,
  /** The audit log. */
  'audit.read': EVERY_ROLE,
  /** Add, change and delete the identity providers people sign in with (federation); read with `system.read`. */
  'connections.manage': MANAGERS,
  /** Register, change and delete webhook endpoints, send a delivery again; read with `system.read`. */
  'webhooks.manage': MANAGERS,
  /** APIs (resource servers), their permissions, roles and groups and who is in them (lib/authorization), read only. */
  'access.read': READERS,
  /** Register, change and delete APIs, roles and groups; put people in groups and give them roles; grant clients permissions. */
  'access.manage': MANAGERS,
} as const satisfies Record<string, readonly AdminRole[]>;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_NAMES = Object.keys(PERMISSIONS) as Permission[];

/** Whether `role` may do `permission`. No admin role may do nothing. */
export function may(role: Role | null | undefined, permission: Permission): boolean {
  return isAdminRole(role) && (PERMISSIONS[permission] as readonly AdminRole[]).includes(role);
}

/**
 * Whether an admin of role `actor` may change the account of a person of role
 * `target`: an owner's only owners, another admin role's only owners and
 * admins, anyone else's whoever may manage users.
 */
export function mayActOn(actor: Role | null | undefined, target: Role): boolean {
  if (target === 'owner') return may(actor, 'owners.manage');
  if (isAdminRole(target)) return may(actor, 'users.assign_role');
  return may(actor, 'users.manage');
}

/**
 * Whether `actor` may change a person's role from `from` to `to`: to or from
 * owner only an owner; to or from any other admin role owners and admins.
 */
export function mayAssign(actor: Role | null | undefined, from: Role, to: Role): boolean {
  if (from === to) return mayActOn(actor, from);
  if (from === 'owner' || to === 'owner') return may(actor, 'owners.manage');
  return may(actor, 'users.assign_role');
}

/**
 * Whether an admin of role `actor` may change a client: an admin-API client
 * that acts as an owner only an owner may (rotating its secret would be
 * becoming an owner); any other, whoever may manage clients.
 */
export function mayActOnClient(actor: Role | null | undefined, client: { adminApi: boolean; adminRole: AdminRole }): boolean {
  if (client.adminApi && client.adminRole === 'owner') return may(actor, 'owners.manage');
  return may(actor, 'clients.manage');
}

/** The permission a change of a person's account needs, by their role: what `mayActOn` checks. */
export function permissionToActOn(target: Role): Permission {
  if (target === 'owner') return 'owners.manage';
  return isAdminRole(target) ? 'users.assign_role' : 'users.manage';
}
