'use server';
/**
 * The account pages' server actions. Each one calls requireUser() first (a
 * server action is a public POST endpoint, whatever page its form is on) and
 * acts only on that user's own account. Next.js refuses server-action posts
 * whose Origin is not this host (CSRF).
 */
import { redirect } from 'next/navigation';
import {
  revokeApp,
  saveProfile,
  savePassword,
  signOutOtherSessions,
  signOutSession,
  type PasswordChangeState,
  type ProfileState,
} from '@/lib/services/account/pages';
import { ACCOUNT_SIGNED_OUT_PATH } from '@/lib/services/portal/registration';
import { endPortalSession, requireUser } from '@/lib/services/portal/session';

export async function updateProfileAction(_state: ProfileState, form: FormData): Promise<ProfileState> {
  const user = await requireUser('/account');
  return saveProfile(user, form);
}

export async function changePasswordAction(_state: PasswordChangeState, form: FormData): Promise<PasswordChangeState> {
  const user = await requireUser('/account/password');
  return savePassword(user, form);
}

export async function revokeAppAction(clientId: string): Promise<void> {
  const user = await requireUser('/account/apps');
  const result = await revokeApp(user, clientId);
  redirect(`/account/apps?notice=${result.status}`);
}

export async function endOtherSessionsAction(): Promise<void> {
  const user = await requireUser('/account/sessions');
  const count = await signOutOtherSessions(user);
  redirect(`/account/sessions?notice=others_ended&count=${count}`);
}

export async function endSessionAction(uid: string): Promise<void> {
  const user = await requireUser('/account/sessions');
  const result = await signOutSession(user, uid);
  redirect(`/account/sessions?notice=${result.status}`);
}

/** Ends the portal session and the Gatehouse session (RP-initiated logout), back to /account/signed-out. */
export async function signOutAction(): Promise<void> {
  redirect(await endPortalSession(ACCOUNT_SIGNED_OUT_PATH));
}
