/**
 * /admin/access and a person's groups and roles on their page (lib/authorization): what the pages show, and
 * the changes their forms make. Each change takes the admin requireAdmin('access.manage') returned (the server
 * actions in app/admin/(portal)/access/actions.ts call it themselves) and goes through the use cases the CLI and
 * the admin API use, which validate and audit. Expected failures (a name taken, a bad identifier, someone gone)
 * come back as the form's message; anything else throws.
 */
import 'server-only';
import { serverContext } from '../../context.ts';
import type { AuditBy } from '../../audit/log.ts';
import type { Database } from '../../db/database.ts';
import {
  addRolePermission,
  addToGroup,
  assignRole,
  createApi,
  createGroup,
  createRole,
  deleteApi,
  deleteGroup,
  deleteRole,
  existingApi,
  grantClientPermission,
  removeApiPermission,
  removeFromGroup,
  removeRolePermission,
  revokeClientPermission,
  setApiPermission,
  unassignRole,
  updateApi,
} from '../../authorization/manage.ts';
import {
  clientPermissions,
  directAccessOf,
  listApis,
  listGroups,
  listRoles,
  membersByGroup,
  type ApiRecord,
  type GrantedPermission,
  type RoleDetail,
} from '../../authorization/repository.ts';
import { listClients } from '../../clients/repository.ts';
import { ServiceError } from '../../platform/errors.ts';
import type { AdminUser } from './access.ts';
import { byAdmin } from './audit-context.ts';
import type { AccessFormState } from './access-form-state.ts';

export type { AccessFormState };

/** A machine client (client_credentials) and the permissions an admin granted it. */
export interface MachineClient {
  id: string;
  name: string;
  permissions: GrantedPermission[];
}

export interface AccessView {
  apis: ApiRecord[];
  roles: RoleDetail[];
  groups: { name: string; description: string; members: { id: string; username: string }[]; roles: string[] }[];
  clients: MachineClient[];
}

export async function accessView(): Promise<AccessView> {
  const { db } = serverContext();
  const [apis, roles, groups, members, clients] = await Promise.all([listApis(db), listRoles(db), listGroups(db), membersByGroup(db), listClients(db)]);
  const machines = clients.filter((client) => client.grantTypes.includes('client_credentials') && !client.adminApi);
  return {
    apis,
    roles,
    groups: groups.map((group) => ({ name: group.name, description: group.description, roles: group.roles, members: members.get(group.name) ?? [] })),
    clients: await Promise.all(machines.map(async (client) => ({ id: client.id, name: client.name, permissions: await clientPermissions(db, client.id) }))),
  };
}

/** A person's own groups and direct roles, and every group and role there is (the choices of their page's forms). */
export async function personAccess(userId: string) {
  const { db } = serverContext();
  const [mine, groups, roles] = await Promise.all([directAccessOf(db, userId), listGroups(db), listRoles(db)]);
  return { ...mine, allGroups: groups.map((g) => g.name), allRoles: roles.map((r) => r.name) };
}

const text = (form: FormData, name: string) => String(form.get(name) ?? '').trim();

/** Runs a change as `admin`; a refusal of the use case (shown: true) is the form's message, the page's notice otherwise. */
async function attempt(admin: AdminUser, notice: string, change: (db: Database, by: AuditBy) => Promise<unknown>): Promise<AccessFormState> {
  try {
    await change(serverContext().db, await byAdmin(admin));
    return { status: 'done', notice };
  } catch (error) {
    if (error instanceof ServiceError && error.shown) return { status: 'error', message: error.message };
    throw error;
  }
}

/** A permission chosen from a list, as `<API id> <permission>` (neither holds a space). */
async function chosenPermission(db: Database, value: string): Promise<{ api: string; permission: string }> {
  const [apiId = '', permission = ''] = value.split(' ');
  return { api: (await existingApi(db, apiId)).identifier, permission };
}

const apiSettings = (form: FormData) => ({
  name: text(form, 'name'),
  tokenFormat: text(form, 'tokenFormat') as 'jwt' | 'opaque',
  tokenLifetime: Number(text(form, 'tokenLifetime')),
  signingAlg: text(form, 'signingAlg') as 'ES256' | 'RS256',
  rolesInToken: form.get('rolesInToken') === 'on',
});

export const createApiFromForm = (admin: AdminUser, form: FormData) =>
  attempt(admin, 'api_created', (db, by) => createApi(db, { identifier: text(form, 'identifier'), ...apiSettings(form) }, by));

export const updateApiFromForm = (admin: AdminUser, apiId: string, form: FormData) =>
  attempt(admin, 'api_saved', async (db, by) => updateApi(db, (await existingApi(db, apiId)).identifier, apiSettings(form), by));

export const deleteApiFor = (admin: AdminUser, apiId: string) =>
  attempt(admin, 'api_deleted', async (db, by) => deleteApi(db, (await existingApi(db, apiId)).identifier, by));

export const setPermissionFromForm = (admin: AdminUser, apiId: string, form: FormData) =>
  attempt(admin, 'permission_saved', async (db, by) =>
    setApiPermission(db, (await existingApi(db, apiId)).identifier, { name: text(form, 'permission'), description: text(form, 'description') }, by),
  );

export const removePermissionFor = (admin: AdminUser, apiId: string, permission: string) =>
  attempt(admin, 'permission_removed', async (db, by) => removeApiPermission(db, (await existingApi(db, apiId)).identifier, permission, by));

export const createRoleFromForm = (admin: AdminUser, form: FormData) =>
  attempt(admin, 'role_created', (db, by) => createRole(db, { name: text(form, 'name'), description: text(form, 'description') }, by));

export const deleteRoleFor = (admin: AdminUser, role: string) => attempt(admin, 'role_deleted', (db, by) => deleteRole(db, role, by));

export const grantRolePermissionFromForm = (admin: AdminUser, role: string, form: FormData) =>
  attempt(admin, 'role_saved', async (db, by) => {
    const { api, permission } = await chosenPermission(db, text(form, 'permission'));
    return addRolePermission(db, role, api, permission, by);
  });

export const revokeRolePermissionFor = (admin: AdminUser, role: string, apiId: string, permission: string) =>
  attempt(admin, 'role_saved', async (db, by) => removeRolePermission(db, role, (await existingApi(db, apiId)).identifier, permission, by));

/** The role to a person (by username) or a group (by name), whichever the form names. */
export const assignRoleFromForm = (admin: AdminUser, role: string, form: FormData) =>
  attempt(admin, 'role_saved', (db, by) => {
    const group = text(form, 'group');
    return assignRole(db, role, group ? { group } : { user: text(form, 'username') }, by);
  });

export const unassignRoleFor = (admin: AdminUser, role: string, holder: { userId: string } | { group: string }) =>
  attempt(admin, 'role_saved', (db, by) => unassignRole(db, role, 'userId' in holder ? { user: { id: holder.userId } } : holder, by));

export const createGroupFromForm = (admin: AdminUser, form: FormData) =>
  attempt(admin, 'group_created', (db, by) => createGroup(db, { name: text(form, 'name'), description: text(form, 'description') }, by));

export const deleteGroupFor = (admin: AdminUser, group: string) => attempt(admin, 'group_deleted', (db, by) => deleteGroup(db, group, by));

export const addMemberFromForm = (admin: AdminUser, group: string, form: FormData) =>
  attempt(admin, 'group_saved', (db, by) => addToGroup(db, group, text(form, 'username'), by));

export const removeMemberFor = (admin: AdminUser, group: string, userId: string) =>
  attempt(admin, 'group_saved', (db, by) => removeFromGroup(db, group, { id: userId }, by));

export const grantClientPermissionFromForm = (admin: AdminUser, clientId: string, form: FormData) =>
  attempt(admin, 'client_saved', async (db, by) => {
    const { api, permission } = await chosenPermission(db, text(form, 'permission'));
    return grantClientPermission(db, clientId, api, permission, by);
  });

export const revokeClientPermissionFor = (admin: AdminUser, clientId: string, api: string, permission: string) =>
  attempt(admin, 'client_saved', (db, by) => revokeClientPermission(db, clientId, api, permission, by));

// A person's page: their groups and direct roles.

export const joinGroupFromForm = (admin: AdminUser, userId: string, form: FormData) =>
  attempt(admin, 'access_saved', (db, by) => addToGroup(db, text(form, 'group'), { id: userId }, by));

export const leaveGroupFor = (admin: AdminUser, userId: string, group: string) =>
  attempt(admin, 'access_saved', (db, by) => removeFromGroup(db, group, { id: userId }, by));

export const giveRoleFromForm = (admin: AdminUser, userId: string, form: FormData) =>
  attempt(admin, 'access_saved', (db, by) => assignRole(db, text(form, 'role'), { user: { id: userId } }, by));

export const takeRoleFor = (admin: AdminUser, userId: string, role: string) =>
  attempt(admin, 'access_saved', (db, by) => unassignRole(db, role, { user: { id: userId } }, by));
