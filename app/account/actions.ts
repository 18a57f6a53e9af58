'use server';
/**
 * The account pages' server actions. Each one calls requireUser() first (a
 * server action is a public POST endpoint, whatever page its form is on) and
 * acts only on that user's own account. Next.js refuses server-action posts
 * whose Origin is not this host (CSRF).
 */
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import {
  finishAddingPasskey,
  removePasskey,
  startAddingPasskey,
  type PasskeyAdded,
  type PasskeyStart,
  confirmTwoStep,
  newRecoveryCodes,
  restartTwoStep,
  startTwoStep,
  turnOffTwoStep,
  type ConfirmState,
  type PasswordProtectedState,
  revokeApp,
  saveProfile,
  savePassword,
  forgetTrustedDevice,
  signOutOtherSessions,
  signOutSession,
  type PasswordChangeState,
  type ProfileState,
} from '@/lib/surfaces/account/pages';
import { confirmOrSay, type Confirmation } from '@/lib/surfaces/portal/confirmation';
import { startLinkFor, unlinkOwnIdentity } from '@/lib/surfaces/account/identities';
import { deleteOwn, type DeleteOwnState } from '@/lib/surfaces/account/own-data';
import { requestLocale } from '@/lib/surfaces/locale';
import { ACCOUNT_SIGNED_OUT_PATH } from '@/lib/clients/portal-client';
import { endPortalSession, requireUser } from '@/lib/surfaces/portal/session';

export async function updateProfileAction(_state: ProfileState, form: FormData): Promise<ProfileState> {
  const user = await requireUser('/account');
  // A new address's confirmation mail in the language this request asks for (lib/surfaces/locale.ts).
  return saveProfile(user, form, await requestLocale());
}

export async function changePasswordAction(_state: PasswordChangeState, form: FormData): Promise<PasswordChangeState> {
  const user = await requireUser('/account/password');
  return savePassword(user, form);
}

export async function revokeAppAction(clientId: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  const user = await requireUser('/account/apps');
  return confirmOrSay(form, (await getTranslations('account.apps'))('unconfirmed'), async () => {
    const result = await revokeApp(user, clientId);
    redirect(`/account/apps?notice=${result.status}`);
  });
}

export async function endOtherSessionsAction(_state: Confirmation, form: FormData): Promise<Confirmation> {
  const user = await requireUser('/account/sessions');
  return confirmOrSay(form, (await getTranslations('account.sessions'))('unconfirmed'), async () => {
    const count = await signOutOtherSessions(user);
    redirect(`/account/sessions?notice=others_ended&count=${count}`);
  });
}

export async function endSessionAction(uid: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  const user = await requireUser('/account/sessions');
  return confirmOrSay(form, (await getTranslations('account.sessions'))('signOutUnconfirmed'), async () => {
    const result = await signOutSession(user, uid);
    redirect(`/account/sessions?notice=${result.status}`);
  });
}

/** Stops trusting one of the person's devices: its next sign-in asks for the second step again. Nothing to confirm: undoing it is one sign-in. */
export async function forgetTrustedDeviceAction(id: string): Promise<void> {
  const user = await requireUser('/account/sessions');
  const removed = await forgetTrustedDevice(user, typeof id === 'string' ? id : '');
  redirect(`/account/sessions?notice=${removed ? 'untrusted' : 'not_found'}`);
}

const SECURITY = '/account/security';

/** Unlinks one of the person's identities at another provider, never the last way into the account (lib/federation/manage.ts). */
export async function unlinkIdentityAction(id: string): Promise<void> {
  const user = await requireUser(SECURITY);
  const outcome = await unlinkOwnIdentity(user, typeof id === 'string' ? id : '');
  redirect(`${SECURITY}?identity=${outcome}`);
}

/**
 * Links another identity: on to the upstream and back (lib/federation/account-link.ts). Only after a recent
 * sign-in: otherwise Gatehouse's sign-in again (prompt=login), then back here to press the button again.
 */
export async function linkIdentityAction(slug: string): Promise<void> {
  const user = await requireUser(SECURITY);
  const started = await startLinkFor(user, typeof slug === 'string' ? slug : '');
  if ('redirect' in started) redirect(started.redirect);
  if (started.outcome === 'reauthenticate')
    redirect(`/account/sign-in?reauthenticate=1&callbackUrl=${encodeURIComponent(`${SECURITY}?identity=reauthenticated`)}`);
  redirect(`${SECURITY}?identity=${started.outcome}`);
}

/** Starts TOTP enrolment; posted twice, the second finds the first's pending secret. */
export async function startTwoStepAction(form: FormData): Promise<void> {
  const user = await requireUser(SECURITY);
  await startTwoStep(user);
  redirect(securityPage(form));
}

/** Back to the security page, still saying why the policy sent the person there (`required`: admin or everyone). */
function securityPage(form: FormData): string {
  const required = form.get('required');
  return required === 'admin' || required === 'everyone' ? `${SECURITY}?required=${required}` : SECURITY;
}

/** A new secret while enrolment is pending (a QR code scanned into the wrong place). */
export async function restartTwoStepAction(form: FormData): Promise<void> {
  const user = await requireUser(SECURITY);
  await restartTwoStep(user);
  redirect(securityPage(form));
}

export async function confirmTwoStepAction(_state: ConfirmState, form: FormData): Promise<ConfirmState> {
  const user = await requireUser(SECURITY);
  return confirmTwoStep(user, form);
}

export async function newRecoveryCodesAction(_state: PasswordProtectedState, form: FormData): Promise<PasswordProtectedState> {
  const user = await requireUser(SECURITY);
  return newRecoveryCodes(user, form);
}

export async function turnOffTwoStepAction(_state: PasswordProtectedState, form: FormData): Promise<PasswordProtectedState> {
  const user = await requireUser(SECURITY);
  return turnOffTwoStep(user, form);
}

/** Ends the portal session and the Gatehouse session (RP-initiated logout), back to /account/signed-out. */
export async function signOutAction(): Promise<void> {
  redirect(await endPortalSession(ACCOUNT_SIGNED_OUT_PATH));
}

/** Adding a passkey, step one: its name and the current password; the options for the browser's ceremony. */
export async function startPasskeyAction(form: FormData): Promise<PasskeyStart> {
  const user = await requireUser(SECURITY);
  return startAddingPasskey(user, form);
}

/** Step two: the authenticator's answer (JSON), checked against step one's challenge. */
export async function finishPasskeyAction(response: string): Promise<PasskeyAdded> {
  const user = await requireUser(SECURITY);
  return finishAddingPasskey(user, typeof response === 'string' ? response : '');
}

export async function removePasskeyAction(_state: PasswordProtectedState, form: FormData): Promise<PasswordProtectedState> {
  const user = await requireUser(SECURITY);
  return removePasskey(user, form);
}

/**
 * Deletes the person's own account (/account/data) after their password and a ticked box; once it is
 * gone, the portal's session cookie goes too and the browser lands on the signed-out page.
 */
export async function deleteOwnAccountAction(_state: DeleteOwnState, form: FormData): Promise<DeleteOwnState> {
  const user = await requireUser('/account/data');
  const result = await deleteOwn(user, form);
  if (result.status !== 'deleted') return result;
  // Its cookie cleared; the Gatehouse session behind it ended with the account, so no logout request is needed.
  await endPortalSession(ACCOUNT_SIGNED_OUT_PATH);
  redirect(`${ACCOUNT_SIGNED_OUT_PATH}?deleted=1`);
}
