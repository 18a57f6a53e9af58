/**
 * The admin API's authorization operations: the use cases of lib/authorization/manage.ts (the
 * ones the CLI uses), each change recorded in the audit log by the use case, as done by the caller.
 */
import 'server-only';
import * as manage from '../../authorization/manage.ts';
import { apiToWire, groupToWire, roleToWire } from '../../authorization/wire.ts';
import type { Database } from '../../db/database.ts';
import { NotFound } from '../../platform/errors.ts';
import { findClient } from '../../clients/repository.ts';
import { operations } from './operations.ts';
import { endpoint } from './route.ts';

const roleOut = async (db: Database, name: string) => roleToWire(await manage.roleDetail(db, name));

async function groupOut(db: Database, name: string) {
  const group = await manage.groupDetail(db, name);
  return { ...groupToWire(group), member_list: group.memberList };
}

export const listApis = endpoint(operations.listApis, async ({ db }) => ({ data: (await manage.listApis(db)).map(apiToWire) }));

export const createApi = endpoint(operations.createApi, async ({ db, body, by }) =>
  apiToWire(
    await manage.createApi(
      db,
      {
        identifier: body.identifier,
        name: body.name,
        tokenFormat: body.token_format,
        tokenLifetime: body.token_lifetime,
        signingAlg: body.signing_alg,
        rolesInToken: body.roles_in_token,
        permissions: body.permissions?.map((p) => ({ name: p.name, description: p.description ?? '' })),
      },
      by,
    ),
  ),
);

export const getApi = endpoint(operations.getApi, async ({ db, params }) => apiToWire(await manage.existingApi(db, params.id)));

export const updateApi = endpoint(operations.updateApi, async ({ db, params, body, by }) =>
  apiToWire(
    await manage.updateApi(
      db,
      params.id,
      { name: body.name, tokenFormat: body.token_format, tokenLifetime: body.token_lifetime, signingAlg: body.signing_alg, rolesInToken: body.roles_in_token },
      by,
    ),
  ),
);

export const deleteApi = endpoint(operations.deleteApi, async ({ db, params, by }) => {
  await manage.deleteApi(db, params.id, by);
});

export const setApiPermission = endpoint(operations.setApiPermission, async ({ db, params, body, by }) =>
  apiToWire(await manage.setApiPermission(db, params.id, { name: params.name, description: body.description }, by)),
);

export const removeApiPermission = endpoint(operations.removeApiPermission, async ({ db, params, by }) =>
  apiToWire(await manage.removeApiPermission(db, params.id, params.name, by)),
);

export const listGroups = endpoint(operations.listGroups, async ({ db }) => ({ data: (await manage.listGroups(db)).map(groupToWire) }));

export const createGroup = endpoint(operations.createGroup, async ({ db, body, by }) => {
  const group = await manage.createGroup(db, body, by);
  return groupOut(db, group.name);
});

export const getGroup = endpoint(operations.getGroup, async ({ db, params }) => groupOut(db, params.name));

export const deleteGroup = endpoint(operations.deleteGroup, async ({ db, params, by }) => {
  await manage.deleteGroup(db, params.name, by);
});

export const addGroupMember = endpoint(operations.addGroupMember, async ({ db, params, by }) => {
  await manage.addToGroup(db, params.name, { id: params.user_id }, by);
  return groupOut(db, params.name);
});

export const removeGroupMember = endpoint(operations.removeGroupMember, async ({ db, params, by }) => {
  await manage.removeFromGroup(db, params.name, { id: params.user_id }, by);
  return groupOut(db, params.name);
});

export const listRoles = endpoint(operations.listRoles, async ({ db }) => ({ data: (await manage.listRoles(db)).map(roleToWire) }));

export const createRole = endpoint(operations.createRole, async ({ db, body, by }) => {
  const role = await manage.createRole(db, body, by);
  return roleOut(db, role.name);
});

export const getRole = endpoint(operations.getRole, async ({ db, params }) => roleOut(db, params.name));

export const deleteRole = endpoint(operations.deleteRole, async ({ db, params, by }) => {
  await manage.deleteRole(db, params.name, by);
});

export const addRolePermission = endpoint(operations.addRolePermission, async ({ db, params, by }) => {
  await manage.addRolePermission(db, params.name, params.api_id, params.permission, by);
  return roleOut(db, params.name);
});

export const removeRolePermission = endpoint(operations.removeRolePermission, async ({ db, params, by }) => {
  await manage.removeRolePermission(db, params.name, params.api_id, params.permission, by);
  return roleOut(db, params.name);
});

export const assignRoleToUser = endpoint(operations.assignRoleToUser, async ({ db, params, by }) => {
  await manage.assignRole(db, params.name, { user: { id: params.user_id } }, by);
  return roleOut(db, params.name);
});

export const unassignRoleFromUser = endpoint(operations.unassignRoleFromUser, async ({ db, params, by }) => {
  await manage.unassignRole(db, params.name, { user: { id: params.user_id } }, by);
  return roleOut(db, params.name);
});

export const assignRoleToGroup = endpoint(operations.assignRoleToGroup, async ({ db, params, by }) => {
  await manage.assignRole(db, params.name, { group: params.group }, by);
  return roleOut(db, params.name);
});

export const unassignRoleFromGroup = endpoint(operations.unassignRoleFromGroup, async ({ db, params, by }) => {
  await manage.unassignRole(db, params.name, { group: params.group }, by);
  return roleOut(db, params.name);
});

async function clientPermissionsOut(db: Database, clientId: string) {
  if (!(await findClient(db, clientId))) throw new NotFound(`no client ${clientId}`);
  return { data: await manage.clientPermissions(db, clientId) };
}

export const listClientPermissions = endpoint(operations.listClientPermissions, async ({ db, params }) => clientPermissionsOut(db, params.id));

export const grantClientPermission = endpoint(operations.grantClientPermission, async ({ db, params, by }) => {
  await manage.grantClientPermission(db, params.id, params.api_id, params.permission, by);
  return clientPermissionsOut(db, params.id);
});

export const revokeClientPermission = endpoint(operations.revokeClientPermission, async ({ db, params, by }) => {
  await manage.revokeClientPermission(db, params.id, params.api_id, params.permission, by);
  return clientPermissionsOut(db, params.id);
});
