/**
 * Who may do what: the admins' use cases over APIs (resource servers, RFC 8707), their
 * permissions, groups, roles, and clients' grants for client_credentials. Every change is
 * validated here with zod and recorded in the audit log `by` whoever made it; the surfaces
 * (CLI, admin API) name things by their unique names (an API by its identifier, a person by
 * username), resolved once here.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { recordAuditBy, type AuditBy } from '../audit/log.ts';
import { Conflict, InvalidRequest, NotFound, parseInput } from '../platform/errors.ts';
import { findClient } from '../clients/repository.ts';
import { existingUser, isUniqueViolation, userIdByUsername } from '../users/manage.ts';
import { SUPPORTED_SCOPES } from '../oidc/scopes.ts';
import { ID_TOKEN_TTL } from '../oidc/signed-lifetimes.ts';
import { AUTHORIZATION_SCOPES } from './claims.ts';
import * as repo from './repository.ts';
import type { ApiRecord, GroupRecord, RoleRecord } from './repository.ts';

/** An https URI without a fragment, or a URN (RFC 8141): what RFC 8707 §2 allows as a resource indicator. */
export const apiIdentifierSchema = z
  .string()
  .max(200)
  .refine((value) => {
    if (/^urn:[a-z0-9][a-z0-9-]{0,31}:[^\s#?]+$/i.test(value)) return true;
    const url = URL.parse(value);
    return url !== null && url.protocol === 'https:' && !value.includes('#') && !url.username && !url.password;
  }, 'an API identifier is an https URI without a fragment, or a URN (urn:example:api)');

const reservedScopes = new Set<string>([...SUPPORTED_SCOPES, ...AUTHORIZATION_SCOPES]);

/** A scope token (RFC 6749 §3.3: printable ASCII but space, " and \), not one of the OpenID Connect scopes. */
export const permissionNameSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[\x21\x23-\x5B\x5D-\x7E]+$/, 'a permission is a scope value: printable ASCII, no spaces, quotes or backslashes')
  .refine((name) => !reservedScopes.has(name), 'that name is an OpenID Connect scope of Gatehouse itself');

/** Names of groups and roles, as they appear in the `groups` and `roles` claims. */
export const principalNameSchema = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/, 'letters, digits, and . _ : - (not first)');

const permissionSchema = z.strictObject({ name: permissionNameSchema, description: z.string().max(300).default('') });

export const newApiSchema = z.strictObject({
  identifier: apiIdentifierSchema,
  name: z.string().trim().min(1).max(100),
  permissions: z.array(permissionSchema).max(100).default([]),
  tokenFormat: z.enum(['opaque', 'jwt']).default('jwt'),
  /**
   * Seconds: 1 minute to an hour; 5 minutes by default, as a JWT cannot be revoked before it expires. At
   * most an ID token's lifetime, which is how long a retired signing key stays published (lib/oidc/signed-lifetimes.ts).
   */
  tokenLifetime: z.number().int().min(60).max(ID_TOKEN_TTL).default(300),
  signingAlg: z.enum(['RS256', 'ES256']).default('ES256'),
  rolesInToken: z.boolean().default(false),
});
export type NewApiInput = z.input<typeof newApiSchema>;

export const apiChangeSchema = newApiSchema.omit({ identifier: true, permissions: true }).partial();
export type ApiChange = z.input<typeof apiChangeSchema>;

const apiTarget = (api: ApiRecord) => ({ type: 'api' as const, id: api.id, label: api.identifier });
const groupTarget = (group: Pick<GroupRecord, 'id' | 'name'>) => ({ type: 'group' as const, id: group.id, label: group.name });
const roleTarget = (role: RoleRecord) => ({ type: 'role' as const, id: role.id, label: role.name });

/** An API by its identifier (the CLI) or its id (the admin API's paths, where a URI does not fit). */
export async function existingApi(db: Database, ref: string): Promise<ApiRecord> {
  const api = (await repo.findApiByIdentifier(db, ref)) ?? (await repo.findApiById(db, ref));
  if (!api) throw new NotFound(`no API ${ref}`);
  return api;
}

/** A person by username (the CLI), or by id (the admin API). */
export type PersonRef = string | { id: string };

async function person(db: Database, ref: PersonRef): Promise<{ id: string; username: string }> {
  if (typeof ref === 'string') return { id: await userIdByUsername(db, ref), username: ref };
  const user = await existingUser(db, ref.id);
  return { id: user.id, username: user.username };
}

export async function existingGroup(db: Database, name: string): Promise<GroupRecord> {
  const group = await repo.findGroupByName(db, name);
  if (!group) throw new NotFound(`no group named ${name}`);
  return group;
}

export async function existingRole(db: Database, name: string): Promise<RoleRecord> {
  const role = await repo.findRoleByName(db, name);
  if (!role) throw new NotFound(`no role named ${name}`);
  return role;
}

function existingPermission(api: ApiRecord, permission: string): string {
  if (!api.permissions.some((p) => p.name === permission)) throw new NotFound(`${api.identifier} has no permission ${permission}`);
  return permission;
}

// --- APIs -----------------------------------------------------------------

export async function createApi(db: Database, input: NewApiInput, by?: AuditBy): Promise<ApiRecord> {
  const data = parseInput(newApiSchema, input);
  const names = data.permissions.map((p) => p.name);
  if (new Set(names).size !== names.length) throw new InvalidRequest('a permission is named twice', { field: 'permissions' });
  if (await repo.findApiByIdentifier(db, data.identifier)) throw new Conflict(`an API ${data.identifier} exists already`, { field: 'identifier' });
  const api = await repo.insertApi(db, { id: randomUUID(), ...data });
  await recordAuditBy(db, by, { action: 'api.created', target: apiTarget(api), details: { name: api.name, tokenFormat: api.tokenFormat, permissions: names } });
  return api;
}

export async function updateApi(db: Database, identifier: string, input: ApiChange, by?: AuditBy): Promise<ApiRecord> {
  const change = parseInput(apiChangeSchema, input);
  const api = await existingApi(db, identifier);
  const changed = (Object.keys(change) as (keyof typeof change)[]).filter((key) => change[key] !== undefined && change[key] !== api[key]);
  if (!changed.length) return api;
  const updated = await repo.updateApiRow(db, api.id, change);
  await recordAuditBy(db, by, { action: 'api.updated', target: apiTarget(api), details: { changed } });
  return updated;
}

export async function deleteApi(db: Database, identifier: string, by?: AuditBy): Promise<void> {
  const api = await existingApi(db, identifier);
  await repo.deleteApiRow(db, api.id);
  await recordAuditBy(db, by, { action: 'api.deleted', target: apiTarget(api), details: {} });
}

/** Adds a permission to an API, or changes the description of one it has. */
export async function setApiPermission(db: Database, identifier: string, input: { name: string; description?: string }, by?: AuditBy): Promise<ApiRecord> {
  const permission = parseInput(permissionSchema, input);
  const api = await existingApi(db, identifier);
  const isNew = !api.permissions.some((p) => p.name === permission.name);
  await repo.upsertPermission(db, api.id, permission);
  await recordAuditBy(db, by, { action: 'api.updated', target: apiTarget(api), details: isNew ? { added: [permission.name] } : { changed: ['description'] } });
  return existingApi(db, api.identifier);
}

/** Removes a permission: every role and client that had it loses it, and the next token for the API goes without it. */
export async function removeApiPermission(db: Database, identifier: string, name: string, by?: AuditBy): Promise<ApiRecord> {
  const api = await existingApi(db, identifier);
  if (!(await repo.deletePermission(db, api.id, existingPermission(api, name)))) throw new NotFound(`${identifier} has no permission ${name}`);
  await recordAuditBy(db, by, { action: 'api.updated', target: apiTarget(api), details: { removed: [name] } });
  return existingApi(db, api.identifier);
}

// --- Groups ---------------------------------------------------------------

const newPrincipalSchema = z.strictObject({ name: principalNameSchema, description: z.string().trim().max(300).default('') });

export async function createGroup(db: Database, input: z.input<typeof newPrincipalSchema>, by?: AuditBy): Promise<GroupRecord> {
  const data = parseInput(newPrincipalSchema, input);
  if (await repo.findGroupByName(db, data.name)) throw new Conflict(`a group named ${data.name} exists already`, { field: 'name' });
  const group = await repo.insertGroup(db, { id: randomUUID(), ...data });
  await recordAuditBy(db, by, { action: 'group.created', target: groupTarget(group), details: { name: group.name } });
  return group;
}

/** What a provisioning client says a group is (lib/scim/groups.ts): its name, its external id, all its members (ids). */
export interface ProvisionedGroupState {
  name: string;
  externalId: string | null;
  members: string[];
}

/**
 * Makes a new group (`group` undefined) or the group `group` what `state` says, as a provisioning client does:
 * checked first, then the name, the external id and everyone joining or leaving written in one transaction, so a
 * request refused halfway (a name or external id another group took meanwhile, a member gone meanwhile) leaves the
 * group as it was. Each change is audited as it is on its own. Returns the group's id.
 */
export async function storeProvisionedGroup(
  db: Database,
  group: repo.ProvisionedGroup | undefined,
  state: ProvisionedGroupState,
  by?: AuditBy,
): Promise<string> {
  const name = parseInput(principalNameSchema, state.name, 'name');
  const holder = await repo.findGroupByName(db, name);
  if (holder && holder.id !== group?.id) throw new Conflict(`a group named ${name} exists already`, { field: 'name' });
  const before = new Map((group?.members ?? []).map((m) => [m.id, m.username]));
  const wanted = new Set(state.members);
  const add = [...wanted].filter((id) => !before.has(id));
  const remove = [...before.keys()].filter((id) => !wanted.has(id));
  const joining = new Map((await repo.peopleByIds(db, add)).map((p) => [p.id, p.username]));
  const gone = add.find((id) => !joining.has(id));
  if (gone) throw new InvalidRequest(`no person has the id ${gone}`, { field: 'members' });
  const renamed = group !== undefined && group.name !== name;
  const externalIdChanged = (group?.externalId ?? null) !== state.externalId;
  const id = group?.id ?? randomUUID();
  if (group && !renamed && !externalIdChanged && !add.length && !remove.length) return id;
  try {
    await repo.writeProvisionedGroup(db, { id, name, externalId: state.externalId, add, remove }, !group);
  } catch (error) {
    const code = (error as { code?: string })?.code;
    if (code === 'P2002' && isUniqueViolation(error, 'external_id')) {
      throw new Conflict(`another group has the externalId ${state.externalId}`, { field: 'externalId' });
    }
    if (code === 'P2002') throw new Conflict(`a group named ${name} exists already`, { field: 'name' });
    if (code === 'P2003') throw new InvalidRequest('a member is no person any more', { field: 'members' });
    throw error;
  }
  const target = groupTarget({ id, name });
  if (!group) await recordAuditBy(db, by, { action: 'group.created', target, details: { name } });
  if (renamed) await recordAuditBy(db, by, { action: 'group.renamed', target, details: { from: group.name } });
  if (externalIdChanged) await recordAuditBy(db, by, { action: 'group.updated', target, details: { changed: ['externalId'] } });
  for (const userId of add) await recordAuditBy(db, by, { action: 'group.member_added', target, details: { userId, username: joining.get(userId)! } });
  for (const userId of remove) await recordAuditBy(db, by, { action: 'group.member_removed', target, details: { userId, username: before.get(userId)! } });
  return id;
}

export async function deleteGroup(db: Database, name: string, by?: AuditBy): Promise<void> {
  const group = await existingGroup(db, name);
  await repo.deleteGroupRow(db, group.id);
  await recordAuditBy(db, by, { action: 'group.deleted', target: groupTarget(group), details: {} });
}

export async function addToGroup(db: Database, groupName: string, who: PersonRef, by?: AuditBy): Promise<boolean> {
  const group = await existingGroup(db, groupName);
  const { id: userId, username } = await person(db, who);
  const added = await repo.addGroupMember(db, group.id, userId);
  if (added) await recordAuditBy(db, by, { action: 'group.member_added', target: groupTarget(group), details: { userId, username } });
  return added;
}

export async function removeFromGroup(db: Database, groupName: string, who: PersonRef, by?: AuditBy): Promise<boolean> {
  const group = await existingGroup(db, groupName);
  const { id: userId, username } = await person(db, who);
  const removed = await repo.removeGroupMember(db, group.id, userId);
  if (!removed) throw new NotFound(`${username} is not a member of ${groupName}`);
  await recordAuditBy(db, by, { action: 'group.member_removed', target: groupTarget(group), details: { userId, username } });
  return removed;
}

// --- Roles ----------------------------------------------------------------

export async function createRole(db: Database, input: z.input<typeof newPrincipalSchema>, by?: AuditBy): Promise<RoleRecord> {
  const data = parseInput(newPrincipalSchema, input);
  if (await repo.findRoleByName(db, data.name)) throw new Conflict(`a role named ${data.name} exists already`, { field: 'name' });
  const role = await repo.insertRole(db, { id: randomUUID(), ...data });
  await recordAuditBy(db, by, { action: 'role.created', target: roleTarget(role), details: { name: role.name } });
  return role;
}

export async function deleteRole(db: Database, name: string, by?: AuditBy): Promise<void> {
  const role = await existingRole(db, name);
  await repo.deleteRoleRow(db, role.id);
  await recordAuditBy(db, by, { action: 'role.deleted', target: roleTarget(role), details: {} });
}

/** The role grants `permission` of the API `identifier` to everyone who has the role. */
export async function addRolePermission(db: Database, roleName: string, identifier: string, permission: string, by?: AuditBy): Promise<boolean> {
  const role = await existingRole(db, roleName);
  const api = await existingApi(db, identifier);
  const added = await repo.addRolePermission(db, role.id, api.id, existingPermission(api, permission));
  if (added) await recordAuditBy(db, by, { action: 'role.permission_added', target: roleTarget(role), details: { api: api.identifier, permission } });
  return added;
}

export async function removeRolePermission(db: Database, roleName: string, identifier: string, permission: string, by?: AuditBy): Promise<void> {
  const role = await existingRole(db, roleName);
  const api = await existingApi(db, identifier);
  if (!(await repo.removeRolePermission(db, role.id, api.id, permission))) throw new NotFound(`${roleName} does not grant ${permission} of ${identifier}`);
  await recordAuditBy(db, by, { action: 'role.permission_removed', target: roleTarget(role), details: { api: api.identifier, permission } });
}

/** Who a role is given to: a person (by username or id), or a group by name. */
export type RoleHolder = { user: PersonRef } | { group: string };

async function holder(db: Database, to: RoleHolder) {
  if ('user' in to) {
    const who = await person(db, to.user);
    return { to: 'user' as const, id: who.id, name: who.username };
  }
  const group = await existingGroup(db, to.group);
  return { to: 'group' as const, id: group.id, name: group.name };
}

export async function assignRole(db: Database, roleName: string, to: RoleHolder, by?: AuditBy): Promise<boolean> {
  const role = await existingRole(db, roleName);
  const who = await holder(db, to);
  const added = who.to === 'user' ? await repo.addUserRole(db, who.id, role.id) : await repo.addGroupRole(db, who.id, role.id);
  if (added) await recordAuditBy(db, by, { action: 'role.assigned', target: roleTarget(role), details: who });
  return added;
}

/** Takes the role away: the next token (a refresh included) goes without what it granted. */
export async function unassignRole(db: Database, roleName: string, from: RoleHolder, by?: AuditBy): Promise<void> {
  const role = await existingRole(db, roleName);
  const who = await holder(db, from);
  const removed = who.to === 'user' ? await repo.removeUserRole(db, who.id, role.id) : await repo.removeGroupRole(db, who.id, role.id);
  if (!removed) throw new NotFound(`${who.name} does not have the role ${roleName}`);
  await recordAuditBy(db, by, { action: 'role.unassigned', target: roleTarget(role), details: who });
}

// --- Clients' grants ------------------------------------------------------

async function existingClientTarget(db: Database, clientId: string) {
  const client = await findClient(db, clientId);
  if (!client) throw new NotFound(`no client ${clientId}`);
  return { type: 'client' as const, id: client.id, label: client.name };
}

/** The client gets `permission` of the API with client_credentials (RFC 6749 §4.4), asked for with `resource`. */
export async function grantClientPermission(db: Database, clientId: string, identifier: string, permission: string, by?: AuditBy): Promise<boolean> {
  const target = await existingClientTarget(db, clientId);
  const api = await existingApi(db, identifier);
  const added = await repo.addClientPermission(db, clientId, api.id, existingPermission(api, permission));
  if (added) await recordAuditBy(db, by, { action: 'client.permission_added', target, details: { api: api.identifier, permission } });
  return added;
}

export async function revokeClientPermission(db: Database, clientId: string, identifier: string, permission: string, by?: AuditBy): Promise<void> {
  const target = await existingClientTarget(db, clientId);
  const api = await existingApi(db, identifier);
  if (!(await repo.removeClientPermission(db, clientId, api.id, permission))) throw new NotFound(`${clientId} does not have ${permission} of ${identifier}`);
  await recordAuditBy(db, by, { action: 'client.permission_removed', target, details: { api: api.identifier, permission } });
}

export async function roleDetail(db: Database, name: string): Promise<repo.RoleDetail> {
  const role = await repo.findRoleDetail(db, name);
  if (!role) throw new NotFound(`no role named ${name}`);
  return role;
}

export async function groupDetail(db: Database, name: string) {
  const [group] = await repo.listGroups(db, name);
  if (!group) throw new NotFound(`no group named ${name}`);
  return { ...group, memberList: await repo.groupMembers(db, group.id) };
}

/** A person's groups and roles (what /account shows them, read-only). */
export async function accessOfUser(db: Database, who: PersonRef) {
  return repo.accessOf(db, (await person(db, who)).id);
}

export { listApis, listGroups, listRoles, clientPermissions, accessOf } from './repository.ts';
