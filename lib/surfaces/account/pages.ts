/**
 * What the /account pages and their server actions call: the account use
 * cases on the process's database, each change recorded in the audit log as
 * made by the person themselves, from the request's IP and user agent. Every
 * function takes the user `requireUser()` returned: the caller has checked who
 * is signed in, this module only ever acts on that person's own account.
 */
import 'server-only';
import { cookies } from 'next/headers';
import { serverContext } from '../../context.ts';
import type { Locale } from '../../i18n/locale.ts';
import { recoveryCodesLeft } from '../../factors/recovery-codes.ts';
import { accessOf } from '../../authorization/repository.ts';
import { byAdmin } from '../portal/audit-context.ts';
import type { SignedInUser } from '../portal/session.ts';
import { recentActivity, type ActivityEntry } from '../../account/activity.ts';
import { listTrustedDevices, removeTrustedDevice, type TrustedDevice } from '../../sign-in/trusted-devices.ts';
import { connectedApps, revokeConnectedApp, type AppRevocation, type ConnectedApp } from '../../account/apps.ts';
import { changeOwnPassword, type PasswordChangeState } from '../../account/password.ts';
import { profileValues, updateOwnProfile, type ProfileState, type ProfileValues } from '../../account/profile.ts';
import {
  beginTotpEnrolment,
  confirmTotpEnrolment,
  regenerateOwnRecoveryCodes,
  removeOwnTotp,
  restartTotpEnrolment,
  twoStepStatus,
  type ConfirmState,
  type PasswordProtectedState,
  type TwoStepStatus,
} from '../../account/two-step.ts';
import {
  finishPasskeyRegistration,
  passkeysOf,
  removeOwnPasskey,
  startPasskeyRegistration,
  type PasskeyAdded,
  type PasskeyStart,
  type PasskeySummary,
} from '../../account/passkeys.ts';
import { activeSessions, endOneSession, endOtherSessions, type ActiveSession, type SessionEnding } from '../../account/sessions.ts';

export type { ConfirmState, PasswordProtectedState, TwoStepStatus };
export type { PasskeyAdded, PasskeyStart, PasskeySummary, TrustedDevice };
export type { ActiveSession, ActivityEntry, AppRevocation, ConnectedApp, PasswordChangeState, ProfileState, ProfileValues, SessionEnding };

/** Who acts and from where. `byAdmin` builds it for anyone the portal signed in: here the person acts on their own account. */
const bySelf = (user: SignedInUser) => byAdmin(user);

export function profileFormValues(user: SignedInUser): ProfileValues {
  return profileValues(user);
}

/** The person's groups and roles (lib/authorization), read-only: only an admin changes them. */
export async function ownAccess(user: SignedInUser): Promise<{ groups: string[]; roles: string[] }> {
  return accessOf(serverContext().db, user.id);
}

/** `locale`: the language of the request, which a new address's confirmation mail is written in. */
export async function saveProfile(user: SignedInUser, form: FormData, locale: Locale): Promise<ProfileState> {
  return updateOwnProfile(serverContext(), user, form, await bySelf(user), locale);
}

export async function savePassword(user: SignedInUser, form: FormData): Promise<PasswordChangeState> {
  return changeOwnPassword(serverContext(), user, form, await bySelf(user));
}

export function appsOf(user: SignedInUser): Promise<ConnectedApp[]> {
  const { db, now } = serverContext();
  return connectedApps(db, user, now());
}

export async function revokeApp(user: SignedInUser, clientId: string): Promise<AppRevocation> {
  return revokeConnectedApp(serverContext().db, user, clientId.slice(0, 200), await bySelf(user));
}

export function sessionsOf(user: SignedInUser): Promise<ActiveSession[]> {
  const { db, config, now } = serverContext();
  return activeSessions(db, user, config.SESSION_TTL, now());
}

export async function signOutOtherSessions(user: SignedInUser): Promise<number> {
  return endOtherSessions(serverContext().db, user, await bySelf(user));
}

export async function signOutSession(user: SignedInUser, uid: string): Promise<SessionEnding> {
  return endOneSession(serverContext().db, user, uid, await bySelf(user));
}

export function activityOf(user: SignedInUser): Promise<ActivityEntry[]> {
  return recentActivity(serverContext().db, user, 10);
}

export function twoStepOf(user: SignedInUser): Promise<TwoStepStatus> {
  return twoStepStatus(serverContext(), user);
}

export function startTwoStep(user: SignedInUser): Promise<void> {
  return beginTotpEnrolment(serverContext(), user);
}

export function restartTwoStep(user: SignedInUser): Promise<void> {
  return restartTotpEnrolment(serverContext(), user);
}

export async function confirmTwoStep(user: SignedInUser, form: FormData): Promise<ConfirmState> {
  return confirmTotpEnrolment(serverContext(), user, form, await bySelf(user));
}

export async function newRecoveryCodes(user: SignedInUser, form: FormData): Promise<PasswordProtectedState> {
  return regenerateOwnRecoveryCodes(serverContext(), user, form, await bySelf(user));
}

export async function turnOffTwoStep(user: SignedInUser, form: FormData): Promise<PasswordProtectedState> {
  return removeOwnTotp(serverContext(), user, form, await bySelf(user));
}

export function passkeysOfUser(user: SignedInUser): Promise<PasskeySummary[]> {
  return passkeysOf(serverContext(), user);
}

export async function startAddingPasskey(user: SignedInUser, form: FormData): Promise<PasskeyStart> {
  return startPasskeyRegistration(serverContext(), user, form, await bySelf(user));
}

export async function finishAddingPasskey(user: SignedInUser, response: string): Promise<PasskeyAdded> {
  return finishPasskeyRegistration(serverContext(), user, response, await bySelf(user));
}

export async function removePasskey(user: SignedInUser, form: FormData): Promise<PasswordProtectedState> {
  return removeOwnPasskey(serverContext(), user, form, await bySelf(user));
}

/** Unused recovery codes: they stand in for any second factor, an authenticator app or passkeys. */
export function recoveryCodesLeftOf(user: SignedInUser): Promise<number> {
  return recoveryCodesLeft(serverContext().db, user.id);
}

/** The browsers the person trusted to skip their second step (lib/sign-in/trusted-devices.ts); this one marked. */
export async function trustedDevicesOf(user: SignedInUser): Promise<TrustedDevice[]> {
  const ctx = serverContext();
  return listTrustedDevices(ctx.db, user.id, (await cookies()).toString() || null, ctx.now());
}

/** Ends the trust of one of them; whether it was one of the person's. */
export function forgetTrustedDevice(user: SignedInUser, id: string): Promise<boolean> {
  return removeTrustedDevice(serverContext().db, user.id, id.slice(0, 100));
}
