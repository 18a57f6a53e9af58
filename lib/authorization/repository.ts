/**
 * The only code that queries the authorization tables (prisma/schema/models.prisma `Api`,
 * `ApiPermission`, `Group`, `Role` and their links): plain objects out, never rows.
 * Use cases (./manage.ts) validate and audit. The provider reads `apiForToken`, `permissionsGranted` and
 * `accessOf` on every token it issues for an API: through the process's read cache (lib/db/read-cache.ts),
 * as a snapshot of the model (APIs, roles, groups and what links them, which change seldom) and each
 * person's or client's own links, so a token costs no query once they are kept. Every write here forgets
 * what it changed in this process; on PostgreSQL the triggers of the migration `authorization_cache` tell
 * the other instances, and on SQLite the cache follows other connections' commits.
 */
import type { Database } from '../db/database.ts';
import type { Prisma } from '../generated/sqlite/client.ts';

export type AccessTokenFormat = 'opaque' | 'jwt';

export interface ApiPermissionRecord {
  name: string;
  description: string;
}

export interface ApiRecord {
  id: string;
  identifier: string;
  name: string;
  tokenFormat: AccessTokenFormat;
  tokenLifetime: number;
  signingAlg: 'RS256' | 'ES256';
  rolesInToken: boolean;
  permissions: ApiPermissionRecord[];
  createdAt: Date;
  updatedAt: Date;
}

export interface GroupRecord {
  id: string;
  name: string;
  description: string;
  createdAt: Date;
}

export interface RoleRecord {
  id: string;
  name: string;
  description: string;
  createdAt: Date;
}

/** A permission named by its API's identifier, as roles and clients hold it. */
export interface GrantedPermission {
  api: string;
  permission: string;
}

const apiSelect = {
  id: true,
  identifier: true,
  name: true,
  tokenFormat: true,
  tokenLifetime: true,
  signingAlg: true,
  rolesInToken: true,
  createdAt: true,
  updatedAt: true,
  permissions: { select: { name: true, description: true }, orderBy: { name: 'asc' } },
} as const;

type ApiRow = Omit<ApiRecord, 'tokenFormat' | 'signingAlg'> & { tokenFormat: string; signingAlg: string };

const asApi = (row: ApiRow): ApiRecord => ({
  ...row,
  tokenFormat: row.tokenFormat === 'opaque' ? 'opaque' : 'jwt',
  signingAlg: row.signingAlg === 'RS256' ? 'RS256' : 'ES256',
});

const groupSelect = { id: true, name: true, description: true, createdAt: true } as const;

/** The read cache's keys (the migration `authorization_cache` notifies the same). */
const MODEL_KEY = 'AccessModel';
const personKey = (userId: string) => `AccessOf:${userId}`;
const clientKey = (clientId: string) => `ClientPermissions:${clientId}`;
/** After a write to APIs, permissions, roles, groups or the links between them (not a person's or a client's). */
const modelChanged = <T>(db: Database, result: T): T => {
  db.cache.forget(MODEL_KEY);
  return result;
};
const personChanged = <T>(db: Database, userId: string, result: T): T => {
  db.cache.forget(personKey(userId));
  return result;
};
/** For a write of a person's groups made elsewhere (the import's batches): what this process keeps of them is stale. */
export const forgetAccessOf = (db: Database, userId: string): void => personChanged(db, userId, undefined);
const clientChanged = <T>(db: Database, clientId: string, result: T): T => {
  db.cache.forget(clientKey(clientId));
  return result;
};

// --- APIs -----------------------------------------------------------------

export async function findApiByIdentifier(db: Database, identifier: string): Promise<ApiRecord | undefined> {
  const row = await db.prisma.api.findUnique({ where: { identifier }, select: apiSelect });
  return row ? asApi(row) : undefined;
}

export async function findApiById(db: Database, id: string): Promise<ApiRecord | undefined> {
  const row = await db.prisma.api.findUnique({ where: { id }, select: apiSelect });
  return row ? asApi(row) : undefined;
}

export async function listApis(db: Database): Promise<ApiRecord[]> {
  const rows = await db.prisma.api.findMany({ select: apiSelect, orderBy: { identifier: 'asc' } });
  return rows.map(asApi);
}

/** Whether any API is registered: none, and tokens are exactly what they were before APIs existed. */
export async function anyApi(db: Database): Promise<boolean> {
  return (await db.prisma.api.count()) > 0;
}

export async function insertApi(db: Database, api: Omit<ApiRecord, 'createdAt' | 'updatedAt'>): Promise<ApiRecord> {
  const { permissions, ...fields } = api;
  const row = await db.prisma.api.create({
    data: { ...fields, permissions: { create: permissions.map((p) => ({ name: p.name, description: p.description })) } },
    select: apiSelect,
  });
  return modelChanged(db, asApi(row));
}

export async function updateApiRow(
  db: Database,
  id: string,
  change: Partial<Pick<ApiRecord, 'name' | 'tokenFormat' | 'tokenLifetime' | 'signingAlg' | 'rolesInToken'>>,
): Promise<ApiRecord> {
  return modelChanged(db, asApi(await db.prisma.api.update({ where: { id }, data: change, select: apiSelect })));
}

export async function deleteApiRow(db: Database, id: string): Promise<void> {
  await db.prisma.api.delete({ where: { id } });
  modelChanged(db, undefined);
}

/** Adds a permission, or changes its description. */
export async function upsertPermission(db: Database, apiId: string, permission: ApiPermissionRecord): Promise<void> {
  await db.prisma.apiPermission.upsert({
    where: { apiId_name: { apiId, name: permission.name } },
    create: { apiId, ...permission },
    update: { description: permission.description },
  });
  modelChanged(db, undefined);
}

/** Removes a permission, and with it every role's and client's grant of it (cascade); whether it existed. */
export async function deletePermission(db: Database, apiId: string, name: string): Promise<boolean> {
  const { count } = await db.prisma.apiPermission.deleteMany({ where: { apiId, name } });
  return modelChanged(db, count > 0);
}

// --- Groups ---------------------------------------------------------------

export async function findGroupByName(db: Database, name: string): Promise<GroupRecord | undefined> {
  return (await db.prisma.group.findUnique({ where: { name }, select: groupSelect })) ?? undefined;
}

export async function listGroups(db: Database, name?: string): Promise<(GroupRecord & { members: number; roles: string[] })[]> {
  const rows = await db.prisma.group.findMany({
    where: name === undefined ? {} : { name },
    select: { ...groupSelect, _count: { select: { members: true } }, roles: { select: { role: { select: { name: true } } } } },
    orderBy: { name: 'asc' },
  });
  return rows.map(({ _count, roles, ...group }) => ({ ...group, members: _count.members, roles: roles.map((r) => r.role.name).sort() }));
}

export async function insertGroup(db: Database, group: Omit<GroupRecord, 'createdAt'>): Promise<GroupRecord> {
  return modelChanged(db, await db.prisma.group.create({ data: group, select: groupSelect }));
}

export async function deleteGroupRow(db: Database, id: string): Promise<void> {
  await db.prisma.group.delete({ where: { id } });
  modelChanged(db, undefined);
}

/** The group's members, by username. */
export async function groupMembers(db: Database, groupId: string): Promise<{ id: string; username: string }[]> {
  const rows = await db.prisma.groupMember.findMany({
    where: { groupId },
    select: { user: { select: { id: true, username: true } } },
    orderBy: { user: { username: 'asc' } },
  });
  return rows.map((r) => r.user);
}

/** Whether the person was not a member before. */
export async function addGroupMember(db: Database, groupId: string, userId: string): Promise<boolean> {
  const existing = await db.prisma.groupMember.findUnique({ where: { groupId_userId: { groupId, userId } } });
  if (existing) return false;
  await db.prisma.groupMember.create({ data: { groupId, userId } });
  return personChanged(db, userId, true);
}

export async function removeGroupMember(db: Database, groupId: string, userId: string): Promise<boolean> {
  const { count } = await db.prisma.groupMember.deleteMany({ where: { groupId, userId } });
  return personChanged(db, userId, count > 0);
}

/** A `where` over groups, as lib/scim/filter.ts translates a SCIM filter into one. */
export type GroupWhere = Prisma.GroupWhereInput;

/** A group as a provisioning client sees it (lib/scim/groups.ts): with its members and when it last changed. */
export interface ProvisionedGroup extends GroupRecord {
  updatedAt: Date;
  /** The provisioning client's own id for the group, or null. */
  externalId: string | null;
  members: { id: string; username: string }[];
}

const provisionedGroupSelect = {
  ...groupSelect,
  updatedAt: true,
  externalId: true,
  members: { select: { user: { select: { id: true, username: true } } }, orderBy: { user: { username: 'asc' } } },
} as const;

type ProvisionedGroupRow = GroupRecord & { updatedAt: Date; externalId: string | null; members: { user: { id: string; username: string } }[] };
const toProvisionedGroup = ({ members, ...group }: ProvisionedGroupRow): ProvisionedGroup => ({ ...group, members: members.map((m) => m.user) });

export async function findProvisionedGroup(db: Database, id: string): Promise<ProvisionedGroup | undefined> {
  const row = await db.prisma.group.findUnique({ where: { id }, select: provisionedGroupSelect });
  return row ? toProvisionedGroup(row) : undefined;
}

/** One page of the groups `where` selects (the id breaks ties), and how many it selects in all. */
export async function findProvisionedGroups(
  db: Database,
  { where, orderBy, skip, take }: { where: GroupWhere; orderBy: Prisma.GroupOrderByWithRelationInput[]; skip: number; take: number },
): Promise<{ groups: ProvisionedGroup[]; total: number }> {
  const [rows, total] = await Promise.all([
    take > 0 ? db.prisma.group.findMany({ where, select: provisionedGroupSelect, orderBy: [...orderBy, { id: 'asc' }], skip, take }) : [],
    db.prisma.group.count({ where }),
  ]);
  return { groups: rows.map(toProvisionedGroup), total };
}

/** The people of these ids that exist, with their usernames. */
export async function peopleByIds(db: Database, ids: string[]): Promise<{ id: string; username: string }[]> {
  return ids.length ? db.prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, username: true } }) : [];
}

/** A group as a provisioning client stores it at once (lib/scim/groups.ts): what it is to be called, and who joins and leaves. */
export interface ProvisionedGroupWrite {
  id: string;
  name: string;
  externalId: string | null;
  add: string[];
  remove: string[];
}

/**
 * Creates the group (`create`) or changes it, and adds and removes its members, in one transaction: all of it or
 * none. `updatedAt`, SCIM's meta.lastModified, moves with any change. Throws Prisma's P2002, having changed
 * nothing, when another group has the name or the external id, and P2003 when a person to add is gone.
 */
export async function writeProvisionedGroup(db: Database, group: ProvisionedGroupWrite, create: boolean): Promise<void> {
  const { id, name, externalId, add, remove } = group;
  await db.prisma.$transaction([
    create
      ? db.prisma.group.create({ data: { id, name, externalId } })
      : db.prisma.group.update({ where: { id }, data: { name, externalId, updatedAt: new Date() } }),
    ...(add.length ? [db.prisma.groupMember.createMany({ data: add.map((userId) => ({ groupId: id, userId })) })] : []),
    ...(remove.length ? [db.prisma.groupMember.deleteMany({ where: { groupId: id, userId: { in: remove } } })] : []),
  ]);
  modelChanged(db, undefined);
  for (const userId of [...add, ...remove]) personChanged(db, userId, undefined);
}

// --- Roles ----------------------------------------------------------------

export async function findRoleByName(db: Database, name: string): Promise<RoleRecord | undefined> {
  return (await db.prisma.role.findUnique({ where: { name }, select: groupSelect })) ?? undefined;
}

export interface RoleDetail extends RoleRecord {
  permissions: GrantedPermission[];
  users: { id: string; username: string }[];
  groups: string[];
}

export async function listRoles(db: Database, name?: string): Promise<RoleDetail[]> {
  const rows = await db.prisma.role.findMany({
    where: name === undefined ? {} : { name },
    select: {
      ...groupSelect,
      permissions: { select: { permission: true, granted: { select: { api: { select: { identifier: true } } } } } },
      users: { select: { user: { select: { id: true, username: true } } } },
      groups: { select: { group: { select: { name: true } } } },
    },
    orderBy: { name: 'asc' },
  });
  return rows.map(({ permissions, users, groups, ...role }) => ({
    ...role,
    permissions: permissions.map((p) => ({ api: p.granted.api.identifier, permission: p.permission })),
    users: users.map((u) => u.user).sort((a, b) => a.username.localeCompare(b.username)),
    groups: groups.map((g) => g.group.name).sort(),
  }));
}

export async function findRoleDetail(db: Database, name: string): Promise<RoleDetail | undefined> {
  return (await listRoles(db, name))[0];
}

export async function insertRole(db: Database, role: Omit<RoleRecord, 'createdAt'>): Promise<RoleRecord> {
  return modelChanged(db, await db.prisma.role.create({ data: role, select: groupSelect }));
}

export async function deleteRoleRow(db: Database, id: string): Promise<void> {
  await db.prisma.role.delete({ where: { id } });
  modelChanged(db, undefined);
}

export async function addRolePermission(db: Database, roleId: string, apiId: string, permission: string): Promise<boolean> {
  const key = { roleId_apiId_permission: { roleId, apiId, permission } };
  if (await db.prisma.rolePermission.findUnique({ where: key })) return false;
  await db.prisma.rolePermission.create({ data: { roleId, apiId, permission } });
  return modelChanged(db, true);
}

export async function removeRolePermission(db: Database, roleId: string, apiId: string, permission: string): Promise<boolean> {
  const { count } = await db.prisma.rolePermission.deleteMany({ where: { roleId, apiId, permission } });
  return modelChanged(db, count > 0);
}

export async function addUserRole(db: Database, userId: string, roleId: string): Promise<boolean> {
  if (await db.prisma.userRole.findUnique({ where: { userId_roleId: { userId, roleId } } })) return false;
  await db.prisma.userRole.create({ data: { userId, roleId } });
  return personChanged(db, userId, true);
}

export async function removeUserRole(db: Database, userId: string, roleId: string): Promise<boolean> {
  const { count } = await db.prisma.userRole.deleteMany({ where: { userId, roleId } });
  return personChanged(db, userId, count > 0);
}

export async function addGroupRole(db: Database, groupId: string, roleId: string): Promise<boolean> {
  if (await db.prisma.groupRole.findUnique({ where: { groupId_roleId: { groupId, roleId } } })) return false;
  await db.prisma.groupRole.create({ data: { groupId, roleId } });
  return modelChanged(db, true);
}

export async function removeGroupRole(db: Database, groupId: string, roleId: string): Promise<boolean> {
  const { count } = await db.prisma.groupRole.deleteMany({ where: { groupId, roleId } });
  return modelChanged(db, count > 0);
}

// --- Clients' grants (client_credentials) ----------------------------------

export async function addClientPermission(db: Database, clientId: string, apiId: string, permission: string): Promise<boolean> {
  const key = { clientId_apiId_permission: { clientId, apiId, permission } };
  if (await db.prisma.clientPermission.findUnique({ where: key })) return false;
  await db.prisma.clientPermission.create({ data: { clientId, apiId, permission } });
  return clientChanged(db, clientId, true);
}

export async function removeClientPermission(db: Database, clientId: string, apiId: string, permission: string): Promise<boolean> {
  const { count } = await db.prisma.clientPermission.deleteMany({ where: { clientId, apiId, permission } });
  return clientChanged(db, clientId, count > 0);
}

export async function clientPermissions(db: Database, clientId: string): Promise<GrantedPermission[]> {
  const rows = await db.prisma.clientPermission.findMany({
    where: { clientId },
    select: { permission: true, granted: { select: { api: { select: { identifier: true } } } } },
    orderBy: [{ apiId: 'asc' }, { permission: 'asc' }],
  });
  return rows.map((r) => ({ api: r.granted.api.identifier, permission: r.permission }));
}

// --- What a token carries -------------------------------------------------

/**
 * What every token for an API reads of the model, kept whole in the read cache: the APIs by identifier, each role's
 * permissions, each group's roles, and the names the claims carry. Small (the APIs, roles and groups an admin made),
 * and changed only by an admin or a provisioning client.
 */
interface AccessModel {
  /** By identifier (the resource indicator), and by id. */
  apis: Map<string, ApiRecord>;
  apisById: Map<string, ApiRecord>;
  /** Role id → its name and its permissions as `<apiId> <permission>`. */
  roles: Map<string, { name: string; permissions: Set<string> }>;
  /** Group id → its name and its roles' ids. */
  groups: Map<string, { name: string; roles: string[] }>;
}

async function accessModel(db: Database): Promise<AccessModel> {
  const model = await db.cache.read(MODEL_KEY, async () => {
    const [apis, roles, groups] = await Promise.all([
      db.prisma.api.findMany({ select: apiSelect }),
      db.prisma.role.findMany({ select: { id: true, name: true, permissions: { select: { apiId: true, permission: true } } } }),
      db.prisma.group.findMany({ select: { id: true, name: true, roles: { select: { roleId: true } } } }),
    ]);
    return {
      apis: new Map(apis.map((row) => [row.identifier, asApi(row)])),
      apisById: new Map(apis.map((row) => [row.id, asApi(row)])),
      roles: new Map(roles.map((role) => [role.id, { name: role.name, permissions: new Set(role.permissions.map((p) => `${p.apiId} ${p.permission}`)) }])),
      groups: new Map(groups.map((group) => [group.id, { name: group.name, roles: group.roles.map((r) => r.roleId) }])),
    } satisfies AccessModel;
  });
  // The cache keeps no undefined: a load always answers a model.
  if (!model) throw new Error('the access model could not be read');
  return model;
}

/** The ids of a person's direct roles and groups, kept per person (empty lists too: most people have none). */
async function linksOf(db: Database, userId: string): Promise<{ roles: string[]; groups: string[] }> {
  const links = await db.cache.read(personKey(userId), async () => {
    const [roles, groups] = await Promise.all([
      db.prisma.userRole.findMany({ where: { userId }, select: { roleId: true } }),
      db.prisma.groupMember.findMany({ where: { userId }, select: { groupId: true } }),
    ]);
    return { roles: roles.map((r) => r.roleId), groups: groups.map((g) => g.groupId) };
  });
  return links ?? { roles: [], groups: [] };
}

/** The role ids a person has, directly or through a group, among the roles and groups that exist now. */
function rolesOf(model: AccessModel, links: { roles: string[]; groups: string[] }): Set<string> {
  const roles = new Set(links.roles.filter((id) => model.roles.has(id)));
  for (const groupId of links.groups) for (const roleId of model.groups.get(groupId)?.roles ?? []) if (model.roles.has(roleId)) roles.add(roleId);
  return roles;
}

/** The API a `resource` names, as every token for it reads it (the read cache's model). */
export async function apiForToken(db: Database, identifier: string): Promise<ApiRecord | undefined> {
  return (await accessModel(db)).apis.get(identifier);
}

/** A person's groups and roles (direct, and through their groups), by name, sorted. */
export async function accessOf(db: Database, userId: string): Promise<{ groups: string[]; roles: string[] }> {
  const [model, links] = await Promise.all([accessModel(db), linksOf(db, userId)]);
  const groups = links.groups.flatMap((id) => model.groups.get(id)?.name ?? []);
  const roles = [...rolesOf(model, links)].map((id) => model.roles.get(id)!.name);
  return { groups: groups.sort(), roles: roles.sort() };
}

/**
 * The permissions of one API that a person's roles (direct or through a group) grant, or, for `{ clientId }`, that an
 * admin granted the client; only those the API still defines. From the read cache's model and links.
 */
export async function permissionsGranted(db: Database, apiId: string, to: { userId: string } | { clientId: string }): Promise<string[]> {
  const model = await accessModel(db);
  const api = model.apisById.get(apiId);
  if (!api) return [];
  const granted = new Set<string>();
  if ('clientId' in to) {
    const rows =
      (await db.cache.read(clientKey(to.clientId), () =>
        db.prisma.clientPermission.findMany({ where: { clientId: to.clientId }, select: { apiId: true, permission: true } }),
      )) ?? [];
    for (const row of rows) if (row.apiId === apiId) granted.add(row.permission);
  } else {
    for (const roleId of rolesOf(model, await linksOf(db, to.userId))) {
      for (const { name } of api.permissions) if (model.roles.get(roleId)!.permissions.has(`${apiId} ${name}`)) granted.add(name);
    }
  }
  return api.permissions
    .map((p) => p.name)
    .filter((name) => granted.has(name))
    .sort();
}

// --- What the portal's editing pages read ----------------------------------

/** Every group's members by username (the portal's group rows), keyed by group name. */
export async function membersByGroup(db: Database): Promise<Map<string, { id: string; username: string }[]>> {
  const rows = await db.prisma.groupMember.findMany({
    select: { group: { select: { name: true } }, user: { select: { id: true, username: true } } },
    orderBy: { user: { username: 'asc' } },
  });
  const byGroup = new Map<string, { id: string; username: string }[]>();
  for (const row of rows) byGroup.set(row.group.name, [...(byGroup.get(row.group.name) ?? []), row.user]);
  return byGroup;
}

/** A person's groups and the roles given to them directly (not through a group), by name: what their page changes. */
export async function directAccessOf(db: Database, userId: string): Promise<{ groups: string[]; roles: string[] }> {
  const user = await db.prisma.user.findUnique({
    where: { id: userId },
    select: { roles: { select: { role: { select: { name: true } } } }, groups: { select: { group: { select: { name: true } } } } },
  });
  if (!user) return { groups: [], roles: [] };
  return { groups: user.groups.map((g) => g.group.name).sort(), roles: user.roles.map((r) => r.role.name).sort() };
}
