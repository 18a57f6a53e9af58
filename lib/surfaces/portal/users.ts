/**
 * The admin portal's user pages as use cases: list, show, create (with a
 * password, or an invitation: lib/users/invitations.ts), send an invitation
 * or a verification link again, edit the profile, set or generate a password, disable/enable, grant or remove the
 * admin role, lift a lock that failed password checks put on them, reset their
 * two-step verification (a lost authenticator). Each takes the admin that `requireAdmin()` returned; the user
 * use cases (lib/users/manage.ts) record every change in the audit log as
 * done by them, from their request's IP and user agent. Expected failures
 * come back as values for the page to show; anything else throws.
 * A password is returned only when Gatehouse generated it, to be shown once;
 * a mailed link never.
 */
import 'server-only';
import { sendEmailVerification, type VerificationSend } from '../../mail-links/email-verification.ts';
import { z } from 'zod';
import { inviteUser, resendInvitation } from '../../users/invitations.ts';
import { addUser, changeProfile } from '../../users/onboarding.ts';
import { canMailLinks } from '../../mail-links/password-reset.ts';
import { type ListPage, listPage, NEWEST_FIRST } from '../../platform/paging.ts';
import { serverContext } from '../../context.ts';
import { USER_SORTS, type UserRecord, type UserSort } from '../../users/repository.ts';
import { connectedApps, revokeAppOfUser, type ConnectedApp } from '../../account/apps.ts';
import { activeSessions, endAllSessions, type ActiveSession } from '../../account/sessions.ts';
import { auditEventsFor, lastSignIns, type AuditEventRecord } from '../../audit/log.ts';
import { Conflict, Forbidden, InvalidRequest, NotFound } from '../../platform/errors.ts';
import { formProblems } from '../../platform/forms.ts';
import {
  changePassword,
  deleteUser,
  disableUser,
  enableUser,
  findUserById,
  resetSecondFactors,
  searchUsers,
  setRole,
  unlockUser,
  type SecondFactors,
} from '../../users/manage.ts';
import { userStanding } from '../../users/standing.ts';
import type { AdminUser } from './access.ts';
import { may, mayActOn, mayAssign, ROLES, roleSchema, type Permission, type Role } from '../../admin-roles/roles.ts';
import { byAdmin } from './audit-context.ts';
import {
  readNewUserForm,
  readPasswordChoice,
  readProfileForm,
  userFields,
  type NewUserFormValues,
  type ProfileFormValues,
  type UserFieldProblems,
} from './user-fields.ts';

export const USERS_PER_PAGE = 20;

export interface UserSummary {
  id: string;
  username: string;
  name: string | null;
  email: string | null;
  role: Role;
  disabled: boolean;
  /** No password yet: invited, not accepted. */
  invited: boolean;
  createdAt: Date;
  /** Signed up (lib/sign-in/sign-up.ts) and the address not verified yet: the account cannot sign in. */
  awaitingEmail: boolean;
}

/** A user as the list shows them: their state in one word, and whether a second factor and a verified address back the account. */
export type UserStatus = 'disabled' | 'locked' | 'invited' | 'active';

export interface UserRow extends UserSummary {
  /** When they last signed in (null: no sign-in in the audit log). */
  lastSignInAt: Date | null;
  /** Disabled first (it outlasts any lock), then locked by failed sign-ins (lockOf, as the user's page shows it), invited, active. */
  status: UserStatus;
  /** A confirmed authenticator app or a passkey. */
  twoStep: boolean;
  emailVerified: boolean;
}

const summary = (u: UserRecord): UserSummary => ({
  id: u.id,
  username: u.username,
  name: u.name,
  email: u.email,
  role: u.role,
  disabled: u.disabled,
  invited: u.invited,
  createdAt: u.createdAt,
  awaitingEmail: u.requiresVerifiedEmail && !u.emailVerified,
});

export async function usersPage(_admin: AdminUser, params: { q?: unknown; page?: unknown; sort?: unknown }): Promise<ListPage<UserRow, UserSort['column']>> {
  const { db, throttle } = serverContext();
  return listPage(params, { perPage: USERS_PER_PAGE, columns: USER_SORTS, defaultSort: NEWEST_FIRST }, async (range) => {
    const { users, total } = await searchUsers(db, range);
    const signIns = await lastSignIns(
      db,
      users.map((u) => u.id),
    );
    // A page is at most USERS_PER_PAGE people: their locks and factors are looked up side by side.
    const rows = await Promise.all(
      users.map(async (u): Promise<UserRow> => {
        const { lockedUntil, secondFactors } = await userStanding(db, throttle, u);
        const status: UserStatus = u.disabled ? 'disabled' : lockedUntil ? 'locked' : u.invited ? 'invited' : 'active';
        return {
          ...summary(u),
          lastSignInAt: signIns.get(u.id) ?? null,
          status,
          twoStep: secondFactors.totp || secondFactors.passkeys.length > 0,
          emailVerified: u.emailVerified,
        };
      }),
    );
    return { rows, total };
  });
}

/** A user id from a URL: bounded, or nothing. */
const userId = z.string().min(1).max(100);

export interface UserDetails {
  user: UserSummary & { emailVerified: boolean; updatedAt: Date };
  /** Until when failed password checks lock them out; null when they may sign in. */
  lockedUntil: Date | null;
  /** Their two-step verification as an admin may see it: whether it is on and since when, recovery codes left; never a secret or code. */
  secondFactors: SecondFactors;
  /**
   * For an invited user: when their latest invitation link stops working (past: expired), or null when
   * none was sent (the mail server refused); undefined once they have a password.
   */
  invitation: Date | null | undefined;
  /** The admin looking is this user: they cannot disable themselves or remove their own admin role. */
  self: boolean;
  /**
   * What the admin looking may do to this person (their admin role and this person's, lib/admin-roles/roles.ts):
   * the page shows only those buttons; every action checks again. `roles`: the roles they may give (theirs included).
   */
  can: { manage: boolean; unlock: boolean; resetFactors: boolean; invite: boolean; roles: Role[] };
  /** Their Gatehouse sign-in sessions (named by uid: a session's id is its cookie value and never leaves lib/db). */
  sessions: ActiveSession[];
  /** The apps they granted access to, with scopes, when granted and when last used. */
  apps: ConnectedApp[];
  /** The latest audit entries where this user acted or was acted on. */
  activity: AuditEventRecord[];
}

export async function userDetails(admin: AdminUser, id: string): Promise<UserDetails | undefined> {
  if (!userId.safeParse(id).success) return undefined;
  const { db, throttle, config, now } = serverContext();
  const user = await findUserById(db, id);
  if (!user) return undefined;
  const holder = { id: user.id, username: user.username };
  const mayOn = (permission: Permission) => may(admin.role, permission) && mayActOn(admin.role, user.role);
  const [{ lockedUntil, invitation, secondFactors }, sessions, apps, activity] = await Promise.all([
    userStanding(db, throttle, user),
    activeSessions(db, holder, config.SESSION_TTL, now()),
    connectedApps(db, holder, now()),
    auditEventsFor(db, { involvingUserId: user.id }, 10),
  ]);
  return {
    user: { ...summary(user), emailVerified: user.emailVerified, updatedAt: user.updatedAt },
    lockedUntil,
    invitation,
    secondFactors,
    self: user.id === admin.id,
    can: {
      manage: mayOn('users.manage'),
      unlock: mayOn('users.unlock'),
      resetFactors: mayOn('users.reset_factors'),
      invite: mayOn('users.invite'),
      roles: assignableRoles(admin, user.role, user.id === admin.id),
    },
    sessions,
    apps,
    activity,
  };
}

/** Whether the new-user form may offer an invitation: only a server that sends mail can. */
export const canInvite = () => canMailLinks(serverContext());

export type NewUserState =
  | { status: 'editing'; values: NewUserFormValues; problems: UserFieldProblems }
  /**
   * `password` only when generated: in this one answer and nowhere else. `invitation`: what became of the
   * invitation's mail; `verification`: of the verification link's, for a user with a password and an address.
   */
  | {
      status: 'created';
      user: { id: string; username: string; email: string | null };
      password?: string;
      invitation?: 'sent' | 'failed';
      verification?: VerificationSend;
    };

export async function createUserFromForm(admin: AdminUser, form: FormData): Promise<NewUserState> {
  const { values, input, generated, problems } = readNewUserForm(form);
  try {
    if (Object.keys(problems).length) return { status: 'editing', values, problems };
    const by = await byAdmin(admin);
    if (values.passwordChoice === 'invite') {
      const { password: _, ...fields } = input;
      const { user, invitation } = await inviteUser(serverContext(), fields, by);
      return { status: 'created', user: { id: user.id, username: user.username, email: user.email }, invitation: invitation.status };
    }
    const { user, verification } = await addUser(serverContext(), input, by, { generated });
    return {
      status: 'created',
      user: { id: user.id, username: user.username, email: user.email },
      ...(generated ? { password: input.password } : {}),
      ...(verification ? { verification } : {}),
    };
  } catch (error) {
    // A taken username or email is worded for its field by the catalogs (problems.username.conflict).
    return { status: 'editing', values, problems: { ...formProblems(error, userFields), ...problems } };
  }
}

/** `notice`: what the user's page says after a save, `saved` unless a new address's verification link was mailed or refused. */
export type ProfileFormState =
  | { status: 'editing'; values: ProfileFormValues; problems: UserFieldProblems }
  | { status: 'saved'; notice: 'saved' | 'saved_verification_sent' | 'saved_verification_failed' }
  | { status: 'not_found' };

export async function updateProfileFromForm(admin: AdminUser, id: string, form: FormData): Promise<ProfileFormState> {
  const { values, input } = readProfileForm(form);
  try {
    const { verification } = await changeProfile(serverContext(), id, input, await byAdmin(admin));
    return { status: 'saved', notice: verification === 'sent' ? 'saved_verification_sent' : verification === 'failed' ? 'saved_verification_failed' : 'saved' };
  } catch (error) {
    if (error instanceof NotFound) return { status: 'not_found' };
    return { status: 'editing', values, problems: formProblems(error, userFields) };
  }
}

export type PasswordState =
  | { status: 'idle' }
  | { status: 'invalid'; problems: UserFieldProblems }
  /** `password` only when generated, to be shown once; `endedSessions`: the user's sessions that ended with it. */
  | { status: 'set'; endedSessions: number; password?: string }
  | { status: 'not_found' };

/** Sets a typed (twice) or generated password. The old one stops working at once and every session of the user ends (changePassword). */
export async function setPasswordFromForm(admin: AdminUser, id: string, form: FormData): Promise<PasswordState> {
  const { db } = serverContext();
  const user = userId.safeParse(id).success ? await findUserById(db, id) : undefined;
  if (!user) return { status: 'not_found' };
  const { password, generated, problems } = readPasswordChoice(form);
  try {
    if (Object.keys(problems).length) return { status: 'invalid', problems };
    // An admin setting their own password stays signed in here, as in /account; every other session ends.
    const keepSessionUid = admin.id === user.id ? admin.sessionUid : undefined;
    const { endedSessions } = await changePassword(db, user.id, password, await byAdmin(admin), { generated, keepSessionUid });
    return generated ? { status: 'set', endedSessions, password } : { status: 'set', endedSessions };
  } catch (error) {
    if (error instanceof NotFound) return { status: 'not_found' };
    return { status: 'invalid', problems: formProblems(error, userFields) };
  }
}

/** `refused`: not on oneself (their own account, their own admin role), or the portal's own app; the page's notice says which. */
export type UserChange = { status: 'done' } | { status: 'refused' } | { status: 'not_found' };

async function change(id: string, fn: (user: UserRecord) => Promise<unknown>): Promise<UserChange> {
  const user = userId.safeParse(id).success ? await findUserById(serverContext().db, id) : undefined;
  if (!user) return { status: 'not_found' };
  try {
    await fn(user);
    return { status: 'done' };
  } catch (error) {
    if (error instanceof Forbidden) return { status: 'refused' };
    if (error instanceof NotFound) return { status: 'not_found' };
    throw error;
  }
}

/** Disabling ends the user's sessions and revokes their tokens and grants (disableUser). Not oneself. */
export async function setUserEnabledFor(admin: AdminUser, id: string, enabled: boolean): Promise<UserChange> {
  const by = await byAdmin(admin);
  return change(id, (user) => (enabled ? enableUser(serverContext().db, user.id, by) : disableUser(serverContext().db, user.id, by)));
}

/**
 * Deletes the person for good, with the effects of their deleting their own account (deleteUser): not oneself, an
 * owner only by an owner, never the last owner (`refused`).
 */
export async function deleteUserFor(admin: AdminUser, id: string): Promise<UserChange> {
  const by = await byAdmin(admin);
  return change(id, async (user) => {
    if (!(await deleteUser(serverContext().db, user.id, by))) throw new NotFound(`no user ${user.id}`);
  });
}

/**
 * Gives, changes or takes away an admin role; not one's own, an owner's only by an owner, never the last owner's
 * (setRole refuses: `refused`). Takes effect at the user's next portal request.
 */
export async function setRoleFor(admin: AdminUser, id: string, role: string): Promise<UserChange> {
  const parsed = roleSchema.safeParse(role);
  if (!parsed.success) return { status: 'refused' };
  const by = await byAdmin(admin);
  return change(id, (user) => setRole(serverContext().db, user.id, parsed.data, by));
}

/** The roles `admin` may give a person who holds `current` now (theirs included), in the table's order; none for themselves. */
export function assignableRoles(admin: AdminUser, current: Role, self: boolean): Role[] {
  if (self || !mayActOn(admin.role, current)) return [];
  return ROLES.filter((role) => role === current || mayAssign(admin.role, current, role));
}

export type Unlock = { status: 'unlocked' } | { status: 'not_locked' } | { status: 'not_found' };

/** Lifts the lock failed password checks put on the user (unlockUser); `not_locked` when it had already run out. */
export async function unlockFor(admin: AdminUser, id: string): Promise<Unlock> {
  const { db, throttle } = serverContext();
  const user = userId.safeParse(id).success ? await findUserById(db, id) : undefined;
  if (!user) return { status: 'not_found' };
  try {
    const { wasLocked } = await unlockUser({ db, throttle }, user.id, await byAdmin(admin));
    return { status: wasLocked ? 'unlocked' : 'not_locked' };
  } catch (error) {
    if (error instanceof NotFound) return { status: 'not_found' };
    throw error;
  }
}

export type FactorsReset = { status: 'factors_reset' } | { status: 'no_factors' } | { status: 'not_found' };

/**
 * Removes the user's TOTP factor and recovery codes (resetSecondFactors): they
 * sign in with their password alone; `no_factors` when there was nothing to remove.
 */
export async function resetFactorsFor(admin: AdminUser, id: string): Promise<FactorsReset> {
  const { db } = serverContext();
  const user = userId.safeParse(id).success ? await findUserById(db, id) : undefined;
  if (!user) return { status: 'not_found' };
  try {
    const { totp, passkeys, recoveryCodes } = await resetSecondFactors(db, user.id, await byAdmin(admin));
    return { status: totp || passkeys > 0 || recoveryCodes > 0 ? 'factors_reset' : 'no_factors' };
  } catch (error) {
    if (error instanceof NotFound) return { status: 'not_found' };
    throw error;
  }
}

export type SessionsEnding = { status: 'ended'; count: number } | { status: 'not_found' };

/**
 * Ends every Gatehouse session of the user: they sign in again at their next
 * authorization request. Their grants and refresh tokens stay (revoke an app
 * for that, or disable the user); tokens bound to a session end with it.
 */
export async function endSessionsFor(admin: AdminUser, id: string): Promise<SessionsEnding> {
  const { db } = serverContext();
  const user = userId.safeParse(id).success ? await findUserById(db, id) : undefined;
  if (!user) return { status: 'not_found' };
  return { status: 'ended', count: await endAllSessions(db, { id: user.id, username: user.username }, await byAdmin(admin)) };
}

/** Revokes what one app holds for the user: its grants, codes and tokens (their tokens introspect as inactive at once). */
export async function revokeAppFor(admin: AdminUser, id: string, clientId: string): Promise<UserChange> {
  const { db } = serverContext();
  const user = userId.safeParse(id).success ? await findUserById(db, id) : undefined;
  if (!user || !clientId || clientId.length > 200) return { status: 'not_found' };
  const result = await revokeAppOfUser(db, { id: user.id, username: user.username }, clientId, await byAdmin(admin));
  if (result.status === 'refused') return { status: 'refused' };
  return result.status === 'revoked' ? { status: 'done' } : { status: 'not_found' };
}

/**
 * Mails the user's address its verification link again (an admin's Resend):
 * `verification_sent`, `verification_failed` (the mail server refused),
 * `no_mail` (this server sends none), `nothing_to_verify` (no address, or verified).
 */
export async function resendVerificationFor(
  admin: AdminUser,
  id: string,
): Promise<{ status: 'verification_sent' | 'verification_failed' | 'no_mail' | 'nothing_to_verify' | 'not_found' }> {
  void admin; // checked by the caller (requireAdmin through asAdmin); nothing is changed or recorded
  const ctx = serverContext();
  const user = userId.safeParse(id).success ? await findUserById(ctx.db, id) : undefined;
  if (!user) return { status: 'not_found' };
  if (!user.email || user.emailVerified) return { status: 'nothing_to_verify' };
  const sent = await sendEmailVerification(ctx, user, user.email);
  return { status: sent === 'sent' ? 'verification_sent' : sent === 'failed' ? 'verification_failed' : 'no_mail' };
}

export type InvitationResend = { status: 'invitation_sent' | 'invitation_failed' | 'no_mail' | 'not_invited' | 'not_found' };

/**
 * Mails an invited user a new invitation link (an admin's "Send the invitation again"):
 * `invitation_failed` when the mail server refused (the earlier link still works),
 * `no_mail` without mail or an address, `not_invited` once they have a password.
 */
export async function resendInvitationFor(admin: AdminUser, id: string): Promise<InvitationResend> {
  const ctx = serverContext();
  const user = userId.safeParse(id).success ? await findUserById(ctx.db, id) : undefined;
  if (!user) return { status: 'not_found' };
  try {
    const { invitation } = await resendInvitation(ctx, user.id, await byAdmin(admin));
    return { status: invitation.status === 'sent' ? 'invitation_sent' : 'invitation_failed' };
  } catch (error) {
    if (error instanceof Conflict) return { status: 'not_invited' };
    if (error instanceof InvalidRequest) return { status: 'no_mail' };
    if (error instanceof NotFound) return { status: 'not_found' };
    throw error;
  }
}
