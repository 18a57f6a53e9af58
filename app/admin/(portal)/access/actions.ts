'use server';
// /admin/access's server actions, and a person's groups and roles on their page. Each runs as the signed-in admin whose
// role may change access (asAdmin('access.manage'): the 403 page for anyone else, whatever the page showed them), and
// Next.js refuses a server-action post from another Origin. Done goes back to the page with its notice.
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import type { AdminUser } from '@/lib/surfaces/portal/session';
import * as access from '@/lib/surfaces/portal/authorization';
import type { AccessFormState } from '@/lib/surfaces/portal/authorization';
import { confirmOrSay, type Confirmation } from '@/lib/surfaces/portal/confirmation';
import { asAdmin, recordPath } from '../outcomes';

const ACCESS = '/admin/access';

async function change(returnTo: string, act: (admin: AdminUser) => Promise<AccessFormState>): Promise<AccessFormState> {
  const result = await asAdmin('access.manage', returnTo, act);
  if (result.status === 'done') redirect(`${returnTo}?notice=${result.notice}`);
  return result;
}

/** A deletion: only with the box ticked. A refusal (gone already) is the page's error notice. */
async function confirmedDelete(form: FormData, act: (admin: AdminUser) => Promise<AccessFormState>): Promise<Confirmation> {
  const t = await getTranslations('admin.access');
  return confirmOrSay(form, t('deleteUnconfirmed'), async () => {
    const result = await change(ACCESS, act);
    if (result.status === 'error') redirect(`${ACCESS}?notice=gone`);
  });
}

// APIs and their permissions.
export const createApiAction = async (_s: AccessFormState, form: FormData) => change(ACCESS, (a) => access.createApiFromForm(a, form));
export const updateApiAction = async (apiId: string, _s: AccessFormState, form: FormData) => change(ACCESS, (a) => access.updateApiFromForm(a, apiId, form));
export const deleteApiAction = async (apiId: string, _s: Confirmation, form: FormData) => confirmedDelete(form, (a) => access.deleteApiFor(a, apiId));
export const setPermissionAction = async (apiId: string, _s: AccessFormState, form: FormData) =>
  change(ACCESS, (a) => access.setPermissionFromForm(a, apiId, form));
export const removePermissionAction = async (apiId: string, permission: string, _s: AccessFormState, _form: FormData) =>
  change(ACCESS, (a) => access.removePermissionFor(a, apiId, permission));

// Roles: what they grant, and to whom.
export const createRoleAction = async (_s: AccessFormState, form: FormData) => change(ACCESS, (a) => access.createRoleFromForm(a, form));
export const deleteRoleAction = async (role: string, _s: Confirmation, form: FormData) => confirmedDelete(form, (a) => access.deleteRoleFor(a, role));
export const grantRolePermissionAction = async (role: string, _s: AccessFormState, form: FormData) =>
  change(ACCESS, (a) => access.grantRolePermissionFromForm(a, role, form));
export const revokeRolePermissionAction = async (role: string, apiId: string, permission: string, _s: AccessFormState, _form: FormData) =>
  change(ACCESS, (a) => access.revokeRolePermissionFor(a, role, apiId, permission));
export const assignRoleAction = async (role: string, _s: AccessFormState, form: FormData) => change(ACCESS, (a) => access.assignRoleFromForm(a, role, form));
export const unassignRoleFromUserAction = async (role: string, userId: string, _s: AccessFormState, _form: FormData) =>
  change(ACCESS, (a) => access.unassignRoleFor(a, role, { userId }));
export const unassignRoleFromGroupAction = async (role: string, group: string, _s: AccessFormState, _form: FormData) =>
  change(ACCESS, (a) => access.unassignRoleFor(a, role, { group }));

// Groups and their members.
export const createGroupAction = async (_s: AccessFormState, form: FormData) => change(ACCESS, (a) => access.createGroupFromForm(a, form));
export const deleteGroupAction = async (group: string, _s: Confirmation, form: FormData) => confirmedDelete(form, (a) => access.deleteGroupFor(a, group));
export const addMemberAction = async (group: string, _s: AccessFormState, form: FormData) => change(ACCESS, (a) => access.addMemberFromForm(a, group, form));
export const removeMemberAction = async (group: string, userId: string, _s: AccessFormState, _form: FormData) =>
  change(ACCESS, (a) => access.removeMemberFor(a, group, userId));

// Machine clients (client_credentials): the permissions granted to each.
export const grantClientPermissionAction = async (clientId: string, _s: AccessFormState, form: FormData) =>
  change(ACCESS, (a) => access.grantClientPermissionFromForm(a, clientId, form));
export const revokeClientPermissionAction = async (clientId: string, api: string, permission: string, _s: AccessFormState, _form: FormData) =>
  change(ACCESS, (a) => access.revokeClientPermissionFor(a, clientId, api, permission));

// A person's page: their groups and the roles given to them directly.
const personPath = (userId: string) => recordPath('users', userId);
export const joinGroupAction = async (userId: string, _s: AccessFormState, form: FormData) =>
  change(personPath(userId), (a) => access.joinGroupFromForm(a, userId, form));
export const leaveGroupAction = async (userId: string, group: string, _s: AccessFormState, _form: FormData) =>
  change(personPath(userId), (a) => access.leaveGroupFor(a, userId, group));
export const giveRoleAction = async (userId: string, _s: AccessFormState, form: FormData) =>
  change(personPath(userId), (a) => access.giveRoleFromForm(a, userId, form));
export const takeRoleAction = async (userId: string, role: string, _s: AccessFormState, _form: FormData) =>
  change(personPath(userId), (a) => access.takeRoleFor(a, userId, role));
