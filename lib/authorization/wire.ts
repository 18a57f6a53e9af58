/**
 * The one serializer of APIs, groups and roles that the CLI's --json and the admin API's DTOs
 * share: snake_case at the wire, dates as ISO strings.
 */
import type { ApiRecord, GroupRecord, RoleDetail } from './repository.ts';

export function apiToWire(api: ApiRecord) {
  return {
    id: api.id,
    identifier: api.identifier,
    name: api.name,
    token_format: api.tokenFormat,
    token_lifetime: api.tokenLifetime,
    signing_alg: api.signingAlg,
    roles_in_token: api.rolesInToken,
    permissions: api.permissions.map((p) => ({ name: p.name, description: p.description })),
    created_at: api.createdAt.toISOString(),
    updated_at: api.updatedAt.toISOString(),
  };
}

export function groupToWire(group: GroupRecord & { members?: number; roles?: string[] }) {
  return {
    name: group.name,
    description: group.description,
    ...(group.members !== undefined ? { members: group.members } : {}),
    ...(group.roles !== undefined ? { roles: group.roles } : {}),
    created_at: group.createdAt.toISOString(),
  };
}

export function roleToWire(role: RoleDetail) {
  return {
    name: role.name,
    description: role.description,
    permissions: role.permissions,
    users: role.users.map((u) => u.username),
    groups: role.groups,
    created_at: role.createdAt.toISOString(),
  };
}
