/**
 * User management use cases (CLI, admin portal, admin API, /account). Every one
 * names its user by id; a surface that is given a username (the CLI) resolves
 * it once with `userIdByUsername`. Inputs are validated here with
 * zod; refusals are ServiceErrors (errors.ts: NotFound, Conflict on the taken
 * field, Forbidden for oneself). Every change takes an optional `by`
 * (lib/audit/log.ts): who makes it and from where, recorded in the audit
 * log; omitted, nothing is recorded.
 */
import { z } from 'zod';
import { destroyArtifactsOfAccount } from '../account/repository.ts';
import { deleteConsentsOf } from '../consents/repository.ts';
import type { Database } from '../db/database.ts';
import { countUnusedRecoveryCodes, deleteAllFactors, findTotpFactor, listPasskeys, type PasskeySummary } from '../factors/repository.ts';
import { deletePendingEmailVerificationsOf } from '../sign-in/pending-email-verifications.ts';
import {
  countUsers,
  deleteUser as deleteUserRow,
  findUserById,
  findUserByUsername,
  insertUser,
  listUsers,
  searchUsers,
  setPasswordHash,
  setUserDisabled,
  setUserRole,
  setUsername,
  updateUserProfile,
  type NewProvisionedFields,
  type Role,
  type UserRecord,
} from './repository.ts';
import { endAllSessions, endOtherSessions } from '../account/sessions.ts';
import { recordAuditBy, type AuditBy } from '../audit/log.ts';
import { Conflict, Forbidden, NotFound, parseInput } from '../platform/errors.ts';
import { mayActOn, mayAssign, roleSchema } from '../admin-roles/roles.ts';
import { countEnabledOwners } from './repository.ts';
import { hashPassword, passwordPolicy } from '../platform/passwords.ts';
import type { Throttle } from '../platform/throttle.ts';

export const usernameSchema = z
  .string()
  .trim()
  .min(1, 'Username is required')
  .max(64, 'Username is at most 64 characters')
  .regex(/^[A-Za-z0-9._@-]+$/, 'Username may contain letters, digits and . _ @ - only');

export const passwordSchema = z
  .string()
  .min(passwordPolicy.minLength, `Password must be at least ${passwordPolicy.minLength} characters`)
  .max(passwordPolicy.maxLength, `Password is at most ${passwordPolicy.maxLength} characters`);

export const newUserSchema = z.object({
  username: usernameSchema,
  email: z.email('Email is not a valid address').max(254).nullable().default(null),
  name: z.string().trim().min(1).max(128).nullable().default(null),
  password: passwordSchema,
  role: roleSchema.default('user'),
});

export type NewUserInput = z.input<typeof newUserSchema>;

export const profileSchema = z.object({
  name: z
    .string()
    .trim()
    .max(128, 'Name is at most 128 characters')
    .transform((v) => v || null)
    .nullable()
    .default(null),
  email: z
    .string()
    .trim()
    .transform((v) => v || null)
    .pipe(z.email('Email is not a valid address').max(254).nullable())
    .nullable()
    .default(null),
});

export type ProfileInput = z.input<typeof profileSchema>;

export function isUniqueViolation(error: unknown, field: string): boolean {
  const e = error as { code?: string; meta?: { target?: unknown; driverAdapterError?: unknown } };
  return e?.code === 'P2002' && JSON.stringify(e.meta ?? {}).includes(field);
}

const target = (user: UserRecord) => ({ type: 'user' as const, id: user.id, label: user.username });

/** `generated`: Gatehouse generated the password (recorded, so the log says who has seen it). */
export async function createUser(db: Database, input: NewUserInput, by?: AuditBy, options: { generated?: boolean } = {}): Promise<UserRecord> {
  const data = parseInput(newUserSchema, input);
  return insertNewUser(db, data, await hashPassword(data.password), by, options.generated === undefined ? {} : { generated: options.generated });
}

/**
 * Stores a validated new user and records `user.created`; a taken username or
 * email is a Conflict on its field. `passwordHash` null: an invited person, who
 * chooses the password with their link (lib/users/invitations.ts). `provisioned`: what
 * a provisioning client sets beside (lib/scim/users.ts), stored with the person at once.
 */
export async function insertNewUser(
  db: Database,
  data: Omit<z.output<typeof newUserSchema>, 'password'>,
  passwordHash: string | null,
  by: AuditBy | undefined,
  details: { generated?: boolean; invited?: boolean },
  provisioned?: NewProvisionedFields,
): Promise<UserRecord> {
  if (!mayAssignAs(by, 'user', data.role as Role)) throw new Forbidden(`your admin role may not create a person with the ${data.role} role`);
  let user: UserRecord;
  try {
    user = await insertUser(db, { username: data.username, email: data.email, name: data.name, passwordHash, role: data.role as Role, provisioned });
  } catch (error) {
    if (isUniqueViolation(error, 'external_id')) {
      throw new Conflict(`A user with the external id ${provisioned?.externalId} already exists`, { field: 'externalId' });
    }
    if (isUniqueViolation(error, 'email')) throw new Conflict(`A user with email ${data.email} already exists`, { field: 'email' });
    if (isUniqueViolation(error, 'username') || (error as { code?: string })?.code === 'P2002') {
      throw new Conflict(`A user named ${data.username} already exists`, { field: 'username' });
    }
    throw error;
  }
  await recordAuditBy(db, by, { action: 'user.created', target: target(user), details: { role: user.role, email: user.email, ...details } });
  return user;
}

export { countUsers, findUserById, listUsers, searchUsers };

/**
 * The id of the user a typed username names, ignoring case (an account spelled
 * exactly so first: findUserByUsername); NotFound when there is none. What a
 * surface given a username calls once, before calling the use cases by id.
 */
export async function userIdByUsername(db: Database, username: string): Promise<string> {
  const user = await findUserByUsername(db, username);
  if (!user) throw new NotFound(`no user named ${username}`);
  return user.id;
}

/** A person named by username or, failing that, by id (as the admin API and the portal's addresses name them). */
export async function userIdByUsernameOrId(db: Database, name: string): Promise<string> {
  const user = (await findUserByUsername(db, name)) ?? (await findUserById(db, name));
  if (!user) throw new NotFound(`no user named ${name}`);
  return user.id;
}

export async function existingUser(db: Database, id: string): Promise<UserRecord> {
  const user = await findUserById(db, id);
  if (!user) throw new NotFound(`no user ${id}`);
  return user;
}

export interface PasswordChange {
  /** How many of the person's Gatehouse sessions ended with the old password. */
  endedSessions: number;
}

/**
 * Sets a user's password, by anyone: the person (/account), an admin (portal,
 * API) or the CLI. Every Gatehouse session of the person ends with it, so a
 * browser signed in with the old password cannot get another code without the
 * new one; only `keepSessionUid` stays, the session the person changed it from.
 * So does a sign-in waiting for a signed-up address's verification.
 * Grants and refresh tokens stay; tokens bound to an ended session end with it.
 */
export async function changePassword(
  db: Database,
  id: string,
  password: string,
  by?: AuditBy,
  options: { generated?: boolean; keepSessionUid?: string; viaMailLink?: boolean } = {},
): Promise<PasswordChange> {
  const hash = await hashPassword(parseInput(passwordSchema, password, 'password'));
  const user = await existingUser(db, id);
  if (!(await setPasswordHash(db, user.id, hash))) throw new NotFound(`no user ${id}`);
  // A sign-in waiting for the address's verification was started with the old password (lib/sign-in/sign-up.ts).
  await deletePendingEmailVerificationsOf(db, user.id);
  await recordAuditBy(db, by, {
    action: 'user.password_changed',
    target: target(user),
    details: {
      ...(options.generated === undefined ? {} : { generated: options.generated }),
      ...(by?.actor?.id === user.id ? { self: true } : {}),
      ...(options.viaMailLink ? { viaMailLink: true } : {}),
    },
  });
  const holder = { id: user.id, username: user.username, sessionUid: options.keepSessionUid };
  const endedSessions = options.keepSessionUid ? await endOtherSessions(db, holder, by) : await endAllSessions(db, holder, by);
  return { endedSessions };
}

/** Disabling also ends the user's sessions and revokes every token and grant they hold. */
export async function disableUser(db: Database, id: string, by?: AuditBy): Promise<UserRecord> {
  if (by?.actor?.id === id && (await findUserById(db, id))) throw new Forbidden('you cannot disable your own account');
  await keepAnOwner(db, await findUserById(db, id), 'disable');
  const user = await setUserDisabled(db, id, true);
  if (!user) throw new NotFound(`no user ${id}`);
  const revokedArtifacts = await destroyArtifactsOfAccount(db, user.id);
  // Disabling is how an admin stops someone at once: what they allowed apps goes too, so enabling them again asks
  // their consent again instead of reconnecting every app silently.
  await deleteConsentsOf(db, user.id);
  await recordAuditBy(db, by, { action: 'user.disabled', target: target(user), details: { revokedArtifacts } });
  return user;
}

export async function enableUser(db: Database, id: string, by?: AuditBy): Promise<UserRecord> {
  const user = await setUserDisabled(db, id, false);
  if (!user) throw new NotFound(`no user ${id}`);
  await recordAuditBy(db, by, { action: 'user.enabled', target: target(user), details: {} });
  return user;
}

/**
 * An admin deletes an account for good (the portal, the admin API, the CLI), with the effects of a person deleting
 * their own (eraseAccount). Not one's own (as disabling: /account is where a person deletes themselves); an owner's
 * account only an owner, another admin's only an owner or an admin (mayActOn; the CLI acts as the system); never the
 * last enabled owner. False when there is no such account.
 */
export async function deleteUser(db: Database, id: string, by?: AuditBy): Promise<boolean> {
  if (by?.actor?.id === id) throw new Forbidden('you cannot delete your own account');
  const user = await findUserById(db, id);
  if (!user) return false;
  const role = by?.actor?.role;
  if (role !== undefined && !mayActOn(role, user.role)) throw new Forbidden(`the ${role} admin role may not delete a person with the ${user.role} role`);
  await keepAnOwner(db, user, 'delete');
  return eraseAccount(db, user.id, by);
}

/**
 * Deleting an account, whoever does it: every session ends first (the apps signed in through them get their
 * back-channel logout tokens where they registered for them: lib/account/repository.ts), then every token, grant
 * and remembered consent, then the row with its factors, recovery codes, mailed links and memberships (cascades).
 * The audit entry is pseudonymous: the account's id (earlier entries name it too), never its username. `self`: the
 * person deleted their own (lib/users/own-account.ts). False when the row was gone already.
 */
export async function eraseAccount(db: Database, id: string, by: AuditBy | undefined, self = false): Promise<boolean> {
  const revokedArtifacts = await destroyArtifactsOfAccount(db, id);
  await deleteConsentsOf(db, id);
  if (!(await deleteUserRow(db, id))) return false;
  await recordAuditBy(db, by, {
    action: 'user.deleted',
    target: { type: 'user', id, label: null },
    details: { revokedArtifacts, ...(self && { self: true as const }) },
  });
  return true;
}

/**
 * Until when failed password checks (or second-factor codes) lock the user
 * out (lib/platform/throttle.ts); null when they may sign in. For the admin's
 * views: a short wait between guesses is not a lock and shows as null.
 */
export async function lockOf(throttle: Pick<Throttle, 'lockState'>, id: string): Promise<Date | null> {
  return (await throttle.lockState(id))?.lockedUntil ?? null;
}

export interface Unlocking {
  user: UserRecord;
  /** The account was locked and now is not; false when there was nothing to lift (nothing is recorded then). */
  wasLocked: boolean;
}

/**
 * Lifts a lock that failed password checks put on the account, at once rather
 * than when it runs out, and starts the day's count of failures again. Recorded
 * as `user.unlocked` only when there was a lock, so the log holds what changed.
 */
export async function unlockUser(ctx: { db: Database; throttle: Pick<Throttle, 'unlock'> }, id: string, by?: AuditBy): Promise<Unlocking> {
  const user = await existingUser(ctx.db, id);
  const wasLocked = await ctx.throttle.unlock(user.id);
  if (wasLocked) await recordAuditBy(ctx.db, by, { action: 'user.unlocked', target: target(user), details: {} });
  return { user, wasLocked };
}

/**
 * What an admin may see of a user's second step: never a secret, key, hash or
 * code. `totp`: a confirmed TOTP factor (the person signs in with it), `since`
 * when it was confirmed; `pending`: a set-up waiting for its first code;
 * `passkeys`: their names and dates.
 */
export interface SecondFactors {
  totp: boolean;
  since: Date | null;
  pending: boolean;
  passkeys: Array<Pick<PasskeySummary, 'name' | 'createdAt' | 'lastUsedAt'>>;
  /** Unused recovery codes. */
  recoveryCodesLeft: number;
}

export async function secondFactorsOf(db: Database, id: string): Promise<SecondFactors> {
  const user = await existingUser(db, id);
  const [factor, passkeys, recoveryCodesLeft] = await Promise.all([
    findTotpFactor(db, user.id),
    listPasskeys(db, user.id),
    countUnusedRecoveryCodes(db, user.id),
  ]);
  return {
    totp: Boolean(factor?.confirmedAt),
    since: factor?.confirmedAt ?? null,
    pending: Boolean(factor && !factor.confirmedAt),
    passkeys: passkeys.map(({ name, createdAt, lastUsedAt }) => ({ name, createdAt, lastUsedAt })),
    recoveryCodesLeft,
  };
}

export interface SecondFactorsReset {
  user: UserRecord;
  /** A TOTP factor (confirmed or pending) was removed. */
  totp: boolean;
  /** How many passkeys were removed. */
  passkeys: number;
  /** How many unused recovery codes were removed. */
  recoveryCodes: number;
}

/**
 * Removes a user's TOTP factor (confirmed or pending), every passkey and every
 * recovery code, for a person whose authenticators are lost: they sign in with
 * their password alone and may set two-step verification up again. Ends
 * nothing else (their sessions, grants and password stay). Recorded as
 * `factor.reset` only when something was removed.
 */
export async function resetSecondFactors(db: Database, id: string, by?: AuditBy): Promise<SecondFactorsReset> {
  const user = await existingUser(db, id);
  const removed = await deleteAllFactors(db, user.id);
  if (removed.totp || removed.passkeys > 0 || removed.recoveryCodes > 0) {
    await recordAuditBy(db, by, { action: 'factor.reset', target: target(user), details: removed });
  }
  return { user, ...removed };
}

/** Replaces a user's name and email (a changed email is no longer verified). */
export async function updateProfile(db: Database, id: string, input: ProfileInput, by?: AuditBy): Promise<UserRecord> {
  const profile = parseInput(profileSchema, input);
  const before = await existingUser(db, id);
  let user: UserRecord | undefined;
  try {
    user = await updateUserProfile(db, id, profile);
  } catch (error) {
    if (isUniqueViolation(error, 'email') || (error as { code?: string })?.code === 'P2002') {
      throw new Conflict(`A user with email ${profile.email} already exists`, { field: 'email' });
    }
    throw error;
  }
  if (!user) throw new NotFound(`no user ${id}`);
  const changed = (['name', 'email'] as const).filter((field) => before[field] !== user[field]);
  if (changed.length) await recordAuditBy(db, by, { action: 'user.updated', target: target(user), details: { changed } });
  return user;
}

/**
 * Gives a user another username (their id, the `sub` apps know them by, stays).
 * Refused when the new name, in any case, is another account's.
 */
export async function renameUser(db: Database, id: string, newUsername: string, by?: AuditBy): Promise<UserRecord> {
  const name = parseInput(usernameSchema, newUsername, 'username');
  const before = await existingUser(db, id);
  if (before.username === name) return before;
  let user: UserRecord | undefined;
  try {
    user = await setUsername(db, before.id, name);
  } catch (error) {
    if ((error as { code?: string })?.code === 'P2002') throw new Conflict(`A user named ${name} already exists`, { field: 'username' });
    throw error;
  }
  if (!user) throw new NotFound(`no user ${id}`);
  await recordAuditBy(db, by, { action: 'user.updated', target: target(user), details: { changed: ['username'] } });
  return user;
}

/** Whether `by` may change a person's role from `from` to `to` (lib/admin-roles/roles.ts); the CLI and the system may. */
function mayAssignAs(by: AuditBy | undefined, from: Role, to: Role): boolean {
  const role = by?.actor?.role;
  return from === to || role === undefined || mayAssign(role, from, to);
}

/**
 * The last enabled owner stays one: never demoted, disabled or deleted, by
 * anyone (the CLI included), so there is always someone who may do everything.
 */
async function keepAnOwner(db: Database, user: UserRecord | undefined, change: 'demote' | 'disable' | 'delete'): Promise<void> {
  if (!user || user.role !== 'owner' || user.disabled) return;
  if ((await countEnabledOwners(db)) <= 1) throw new Forbidden(`${user.username} is the only owner: make someone else an owner before you ${change} them`);
}

/**
 * Gives a person an admin role, changes it, or takes it away (`user`). Only an
 * owner makes or unmakes owners, owners and admins the other roles; no one
 * changes their own role (someone else must), and the last owner stays one.
 */
export async function setRole(db: Database, id: string, role: Role, by?: AuditBy): Promise<UserRecord> {
  // 'admin' and 'user' are what the API and the CLI took before admin roles, and still mean what they did.
  const parsed = parseInput(roleSchema, role, 'role');
  const before = await existingUser(db, id);
  if (before.role === parsed) return before;
  if (by?.actor?.id === id) throw new Forbidden('you cannot change your own admin role');
  if (!mayAssignAs(by, before.role, parsed)) {
    throw new Forbidden(
      before.role === 'owner' || parsed === 'owner' ? 'only an owner may make or unmake owners' : 'your admin role may not change admin roles',
    );
  }
  if (before.role === 'owner') await keepAnOwner(db, before, 'demote');
  const user = await setUserRole(db, id, parsed);
  if (!user) throw new NotFound(`no user ${id}`);
  await recordAuditBy(db, by, { action: 'user.role_changed', target: target(user), details: { from: before.role, to: user.role } });
  return user;
}
