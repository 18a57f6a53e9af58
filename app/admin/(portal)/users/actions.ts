'use server';
/**
 * The user pages' server actions. Each one calls requireAdmin() first: a
 * server action is a public POST endpoint, whatever page its form is on.
 * Next.js refuses server-action posts whose Origin is not this host (CSRF).
 */
import { notFound, redirect } from 'next/navigation';
import { requireAdmin } from '@/lib/services/portal/session';
import {
  createUserFromForm,
  endSessionsFor,
  revokeAppFor,
  setPasswordFromForm,
  setRoleFor,
  setUserEnabledFor,
  updateProfileFromForm,
  type NewUserState,
  type PasswordState,
  type ProfileFormState,
  type UserChange,
} from '@/lib/services/portal/users';

const userPath = (id: string) => `/admin/users/${encodeURIComponent(id)}`;

/** After a one-click change: back to the user's page with a notice, or the refusal's. */
function afterChange(id: string, result: UserChange, notice: string): never {
  if (result.status === 'not_found') notFound();
  redirect(`${userPath(id)}?notice=${result.status === 'done' ? notice : 'self'}`);
}

export async function createUserAction(_state: NewUserState, form: FormData): Promise<NewUserState> {
  const admin = await requireAdmin('/admin/users/new');
  return createUserFromForm(admin, form);
}

export async function updateProfileAction(id: string, _state: ProfileFormState, form: FormData): Promise<ProfileFormState> {
  const admin = await requireAdmin(`${userPath(id)}/edit`);
  const result = await updateProfileFromForm(admin, id, form);
  if (result.status === 'not_found') notFound();
  if (result.status === 'saved') redirect(`${userPath(id)}?notice=saved`);
  return result;
}

export async function setPasswordAction(id: string, _state: PasswordState, form: FormData): Promise<PasswordState> {
  const admin = await requireAdmin(userPath(id));
  const result = await setPasswordFromForm(admin, id, form);
  if (result.status === 'not_found') notFound();
  return result;
}

export async function setUserEnabledAction(id: string, enabled: boolean): Promise<void> {
  const admin = await requireAdmin(userPath(id));
  afterChange(id, await setUserEnabledFor(admin, id, enabled), enabled ? 'enabled' : 'disabled');
}

export async function setRoleAction(id: string, role: 'user' | 'admin'): Promise<void> {
  const admin = await requireAdmin(userPath(id));
  afterChange(id, await setRoleFor(admin, id, role === 'admin' ? 'admin' : 'user'), role === 'admin' ? 'admin_granted' : 'admin_removed');
}

export async function endSessionsAction(id: string): Promise<void> {
  const admin = await requireAdmin(userPath(id));
  const result = await endSessionsFor(admin, id);
  if (result.status === 'not_found') notFound();
  redirect(`${userPath(id)}?notice=sessions_ended&count=${result.count}`);
}

export async function revokeAppAction(id: string, clientId: string): Promise<void> {
  const admin = await requireAdmin(userPath(id));
  const result = await revokeAppFor(admin, id, clientId);
  if (result.status === 'not_found') redirect(`${userPath(id)}?notice=app_gone`);
  redirect(`${userPath(id)}?notice=${result.status === 'done' ? 'app_revoked' : 'portal_app'}`);
}
