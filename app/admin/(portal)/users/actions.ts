'use server';
// The user pages' server actions in page order (new, the user's page, edit); outcomes.ts says what they share.
import { notFound, redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import {
  createUserFromForm,
  deleteUserFor,
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
  key: 'disableUnconfirmed' | 'deleteUnconfirmed' | 'resetUnconfirmed' | 'endUnconfirmed' | 'revokeUnconfirmed' | 'roleUnconfirmed' | 'unlinkUnconfirmed',
) => (await getTranslations('admin.user'))(key);

export async function createUserAction(_state: NewUserState, form: FormData): Promise<NewUserState> {
  return createRecord('users', (admin) => createUserFromForm(admin, form));
}

export async function setPasswordAction(id: string, _state: PasswordState, form: FormData): Promise<PasswordState> {
  return asAdmin('users.manage', userPath(id), async (admin) => afterForm(userPath(id), await setPasswordFromForm(admin, id, form)), { userId: id });
}

export async function enableUserAction(id: string): Promise<void> {
  const result = await asAdmin('users.manage', userPath(id), (admin) => setUserEnabledFor(admin, id, true), { userId: id });
  afterChange(userPath(id), result, { done: 'enabled', refused: 'self' });
}

/** Disabling ends the user's sessions and revokes their tokens and grants: only with the box ticked. */
export async function disableUserAction(id: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, await unconfirmed('disableUnconfirmed'), async () => {
    const result = await asAdmin('users.manage', userPath(id), (admin) => setUserEnabledFor(admin, id, false), { userId: id });
    afterChange(userPath(id), result, { done: 'disabled', refused: 'self' });
  });
}

/**
 * Deletes the person for good (the effects of deleting one's own account), only with the box ticked; then the users
 * list says so. The use case refuses oneself, the last owner and, with mayActOn's second check, an owner's account
 * unless the admin is an owner.
 */
export async function deleteUserAction(id: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, await unconfirmed('deleteUnconfirmed'), async () => {
    const result = await asAdmin('users.manage', userPath(id), (admin) => deleteUserFor(admin, id), { userId: id });
    if (result.status === 'done') redirect('/admin/users?notice=deleted');
    afterChange(userPath(id), result, { done: 'deleted', refused: 'delete_refused' });
  });
}

/**
 * Gives a person an admin role, changes it, or takes it away (`user`), only with the box ticked: it can close the
 * admin area and the API to them at their next request. Which roles the admin's own may give is the use case's rule.
 */
export async function setRoleAction(id: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, await unconfirmed('roleUnconfirmed'), async () => {
    const role = form.get('role');
    const result = await asAdmin('users.assign_role', userPath(id), (admin) => setRoleFor(admin, id, typeof role === 'string' ? role : ''), {
      userId: id,
    });
    afterChange(userPath(id), result, { done: 'role_changed', refused: 'role_refused' });
  });
}

export async function unlockAction(id: string): Promise<void> {
  const result = await asAdmin('users.unlock', userPath(id), (admin) => unlockFor(admin, id), { userId: id });
  if (result.status === 'not_found') notFound();
  redirect(`${userPath(id)}?notice=${result.status}`);
}

export async function resetFactorsAction(id: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, await unconfirmed('resetUnconfirmed'), async () => {
    const result = await asAdmin('users.reset_factors', userPath(id), (admin) => resetFactorsFor(admin, id), { userId: id });
    if (result.status === 'not_found') notFound();
    redirect(`${userPath(id)}?notice=${result.status}`);
  });
}

export async function resendVerificationAction(id: string): Promise<void> {
  const result = await asAdmin('users.invite', userPath(id), (admin) => resendVerificationFor(admin, id), { userId: id });
  if (result.status === 'not_found') notFound();
  redirect(`${userPath(id)}?notice=${result.status}`);
}

export async function resendInvitationAction(id: string): Promise<void> {
  const result = await asAdmin('users.invite', userPath(id), (admin) => resendInvitationFor(admin, id), { userId: id });
  if (result.status === 'not_found') notFound();
  redirect(`${userPath(id)}?notice=${result.status}`);
}

export async function endSessionsAction(id: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, await unconfirmed('endUnconfirmed'), async () => {
    const result = await asAdmin('users.manage', userPath(id), (admin) => endSessionsFor(admin, id), { userId: id });
    if (result.status === 'not_found') notFound();
    redirect(`${userPath(id)}?notice=sessions_ended&count=${result.count}`);
  });
}

export async function revokeAppAction(id: string, clientId: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, await unconfirmed('revokeUnconfirmed'), async () => {
    const result = await asAdmin('users.manage', userPath(id), (admin) => revokeAppFor(admin, id, clientId), { userId: id });
    if (result.status === 'not_found') redirect(`${userPath(id)}?notice=app_gone`);
    redirect(`${userPath(id)}?notice=${result.status === 'done' ? 'app_revoked' : 'portal_app'}`);
  });
}

/** Removes one of the person's identities at another provider; the last way into the account stays (identity_last). */
export async function unlinkIdentityAction(id: string, identityId: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, await unconfirmed('unlinkUnconfirmed'), async () => {
    const result = await asAdmin('users.manage', userPath(id), (admin) => unlinkIdentityFor(admin, id, identityId), { userId: id });
    redirect(`${userPath(id)}?notice=${result === 'unlinked' ? 'identity_unlinked' : result === 'last' ? 'identity_last' : 'identity_gone'}`);
  });
}

export async function updateProfileAction(id: string, _state: ProfileFormState, form: FormData): Promise<ProfileFormState> {
  return editRecord('users', id, (admin) => updateProfileFromForm(admin, id, form));
}
