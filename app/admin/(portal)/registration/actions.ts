'use server';
// The registration page's server actions: issue an initial access token (shown once), revoke one. Both need clients.manage.
import { redirect } from 'next/navigation';
import { issueRegistrationTokenFromForm, revokeRegistrationTokenFor, type RegistrationTokenFormState } from '@/lib/surfaces/portal/registration';
import { asAdmin } from '../outcomes';

const PAGE = '/admin/registration';

export async function issueRegistrationTokenAction(_state: RegistrationTokenFormState, form: FormData): Promise<RegistrationTokenFormState> {
  return asAdmin('clients.manage', PAGE, (admin) => issueRegistrationTokenFromForm(admin, form));
}

export async function revokeRegistrationTokenAction(id: string): Promise<void> {
  const result = await asAdmin('clients.manage', PAGE, (admin) => revokeRegistrationTokenFor(admin, id));
  redirect(`${PAGE}?notice=${result.status === 'done' ? 'revoked' : 'notRevoked'}`);
}
