'use server';
// /admin/access/attributes's server actions, and a person's claims on their page. Each runs as the signed-in admin
// whose role may do it (asAdmin: access.manage for attributes and mappings, users.manage on the person for their
// claims), and Next.js refuses a server-action post from another Origin. Done goes back to the page with its notice.
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import type { Permission } from '@/lib/admin-roles/roles';
import type { AccessFormState } from '@/lib/surfaces/portal/access-form-state';
import * as claims from '@/lib/surfaces/portal/claims';
import { confirmOrSay, type Confirmation } from '@/lib/surfaces/portal/confirmation';
import type { ActsOn, AdminUser } from '@/lib/surfaces/portal/session';
import { asAdmin, recordPath } from '../../outcomes';

const PAGE = '/admin/access/attributes';

async function change(permission: Permission, returnTo: string, act: (admin: AdminUser) => Promise<AccessFormState>, actsOn?: ActsOn) {
  const result = await asAdmin(permission, returnTo, act, actsOn);
  if (result.status === 'done') redirect(`${returnTo}?notice=${result.notice}`);
  return result;
}

export async function createAttributeAction(_s: AccessFormState, form: FormData): Promise<AccessFormState> {
  return change('access.manage', PAGE, (a) => claims.createAttributeFromForm(a, form));
}

export async function deleteAttributeAction(key: string, _s: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, (await getTranslations('admin.attributes'))('deleteUnconfirmed'), async () => {
    const result = await change('access.manage', PAGE, (a) => claims.deleteAttributeFor(a, key));
    if (result.status === 'error') redirect(`${PAGE}?notice=gone`);
  });
}

export async function mapClaimAction(_s: AccessFormState, form: FormData): Promise<AccessFormState> {
  return change('access.manage', PAGE, (a) => claims.mapClaimFromForm(a, form));
}

export async function unmapClaimAction(clientId: string, claim: string, _s: AccessFormState, _form: FormData): Promise<AccessFormState> {
  return change('access.manage', PAGE, (a) => claims.unmapClaimFor(a, clientId, claim));
}

/** A person's profile claims and attribute values: a change to their account, so their role must be one the admin's may act on. */
export async function savePersonClaimsAction(userId: string, _s: AccessFormState, form: FormData): Promise<AccessFormState> {
  return change('users.manage', recordPath('users', userId), (a) => claims.savePersonClaimsFromForm(a, userId, form), { userId });
}
