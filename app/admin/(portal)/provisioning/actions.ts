'use server';
// The provisioning page's server actions: issue a SCIM token (shown once), revoke one. Both need access.manage (owners and admins).
import { redirect } from 'next/navigation';
import { issueScimTokenFromForm, revokeScimTokenFor, type ScimTokenFormState } from '@/lib/surfaces/portal/provisioning';
import { asAdmin } from '../outcomes';

const PAGE = '/admin/provisioning';

export async function issueScimTokenAction(_state: ScimTokenFormState, form: FormData): Promise<ScimTokenFormState> {
  return asAdmin('access.manage', PAGE, (admin) => issueScimTokenFromForm(admin, form));
}

export async function revokeScimTokenAction(id: string): Promise<void> {
  const result = await asAdmin('access.manage', PAGE, (admin) => revokeScimTokenFor(admin, id));
  redirect(`${PAGE}?notice=${result.status === 'done' ? 'revoked' : 'notRevoked'}`);
}
