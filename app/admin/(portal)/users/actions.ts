'use server';
// The user pages' server actions in page order (new, the user's page, edit); outcomes.ts says what they share.
import { notFound, redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import {
  createUserFromForm,
  endSessionsFor,
  resetFactorsFor,
  resendInvitationFor,
  resendVerificationFor,
  revokeAppFor,
  setPasswordFromForm,
  setRoleFor,
  setUserEnabledFor,
  unlockFor,
  updateProfileFromForm,
} from '@/lib/surfaces/portal/users';
import type { NewUserState, PasswordState, ProfileFormState } from '@/lib/surfaces/portal/users';
import { confirmOrSay, type Confirmation } from '@/lib/surfaces/portal/confirmation';
import { unlinkIdentityFor } from '@/lib/surfaces/portal/connections';
import { afterChange, afterForm, asAdmin, createRecord, editRecord, recordPath } from '../outcomes';

const userPath = (id: string) => recordPath('users', id);

/** What an unticked confirmation says, in the admin area's words. */
const unconfirmed = async (
  key: 'disableUnconfirmed' | 'resetUnconfirmed' | 'endUnconfirmed' | 'revokeUnconfirmed' | 'removeAdminUnconfirmed' | 'unlinkUnconfirmed',
) => (await getTranslations('admin.user'))(key);

export async function createUserAction(_state: NewUserState, form: FormData): Promise<NewUserState> {
  return createRecord('users', (admin) => createUserFromForm(admin, form));
}

export async function setPasswordAction(id: string, _state: PasswordState, form: FormData): Promise<PasswordState> {
  return asAdmin(userPath(id), async (admin) => afterForm(userPath(id), await setPasswordFromForm(admin, id, form)));
}

export async function enableUserAction(id: string): Promise<void> {
  const result = await asAdmin(userPath(id), (admin) => setUserEnabledFor(admin, id, true));
  afterChange(userPath(id), result, { done: 'enabled', refused: 'self' });
}

/** Disabling ends the user's sessions and revokes their tokens and grants: only with the box ticked. */
export async function disableUserAction(id: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, await unconfirmed('disableUnconfirmed'), async () => {
    const result = await asAdmin(userPath(id), (admin) => setUserEnabledFor(admin, id, false));
    afterChange(userPath(id), result, { done: 'disabled', refused: 'self' });
  });
}

export async function makeAdminAction(id: string): Promise<void> {
  const result = await asAdmin(userPath(id), (admin) => setRoleFor(admin, id, 'admin'));
  afterChange(userPath(id), result, { done: 'admin_granted', refused: 'self' });
}

/** Removing the role revokes the portal and the admin API at their next request: only with the box ticked. */
export async function removeAdminAction(id: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, await unconfirmed('removeAdminUnconfirmed'), async () => {
    const result = await asAdmin(userPath(id), (admin) => setRoleFor(admin, id, 'user'));
    afterChange(userPath(id), result, { done: 'admin_removed', refused: 'self' });
  });
}

export async function unlockAction(id: string): Promise<void> {
  const result = await asAdmin(userPath(id), (admin) => unlockFor(admin, id));
  if (result.status === 'not_found') notFound();
  redirect(`${userPath(id)}?notice=${result.status}`);
}

export async function resetFactorsAction(id: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, await unconfirmed('resetUnconfirmed'), async () => {
    const result = await asAdmin(userPath(id), (admin) => resetFactorsFor(admin, id));
    if (result.status === 'not_found') notFound();
    redirect(`${userPath(id)}?notice=${result.status}`);
  });
}

export async function resendVerificationAction(id: string): Promise<void> {
  const result = await asAdmin(userPath(id), (admin) => resendVerificationFor(admin, id));
  if (result.status === 'not_found') notFound();
  redirect(`${userPath(id)}?notice=${result.status}`);
}

export async function resendInvitationAction(id: string): Promise<void> {
  const result = await asAdmin(userPath(id), (admin) => resendInvitationFor(admin, id));
  if (result.status === 'not_found') notFound();
  redirect(`${userPath(id)}?notice=${result.status}`);
}

export async function endSessionsAction(id: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, await unconfirmed('endUnconfirmed'), async () => {
    const result = await asAdmin(userPath(id), (admin) => endSessionsFor(admin, id));
    if (result.status === 'not_found') notFound();
    redirect(`${userPath(id)}?notice=sessions_ended&count=${result.count}`);
  });
}

export async function revokeAppAction(id: string, clientId: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, await unconfirmed('revokeUnconfirmed'), async () => {
    const result = await asAdmin(userPath(id), (admin) => revokeAppFor(admin, id, clientId));
    if (result.status === 'not_found') redirect(`${userPath(id)}?notice=app_gone`);
    redirect(`${userPath(id)}?notice=${result.status === 'done' ? 'app_revoked' : 'portal_app'}`);
  });
}

/** Removes one of the person's identities at another provider; the last way into the account stays (identity_last). */
export async function unlinkIdentityAction(id: string, identityId: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, await unconfirmed('unlinkUnconfirmed'), async () => {
    const result = await asAdmin(userPath(id), (admin) => unlinkIdentityFor(admin, id, identityId));
    redirect(`${userPath(id)}?notice=${result === 'unlinked' ? 'identity_unlinked' : result === 'last' ? 'identity_last' : 'identity_gone'}`);
  });
}

export async function updateProfileAction(id: string, _state: ProfileFormState, form: FormData): Promise<ProfileFormState> {
  return editRecord('users', id, (admin) => updateProfileFromForm(admin, id, form));
}
