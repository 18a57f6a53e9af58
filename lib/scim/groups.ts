/**
 * SCIM Groups (RFC 7643 §4.2) as Gatehouse's groups (lib/authorization, docs/authorization.md): `displayName`
 * is the group's name, the value the `groups` claim carries (so it follows the names' rule: letters, digits
 * and `. _ : -`); `members` are people (`value` their id). Groups of groups are not kept: a member that is no
 * User is an `invalidValue`. `externalId` is the client's own id for the group, kept and unique among groups (a
 * client finds the group it made with `externalId eq`). A create, PUT or PATCH is written in one transaction
 * (lib/authorization/manage.ts storeProvisionedGroup), audited as made by the provisioning client.
 */
import { deleteGroup, storeProvisionedGroup, type ProvisionedGroupState } from '../authorization/manage.ts';
import { findProvisionedGroup, findProvisionedGroups, type GroupWhere, type ProvisionedGroup } from '../authorization/repository.ts';
import { findUserById } from '../users/repository.ts';
import { invalidValue, mutability, notFound, ScimError } from './errors.ts';
import { GROUP_SCHEMA, GROUP_SORTS, groupAttributeWhere, parseFilter, toWhere } from './filter.ts';
import { applyPatch, patchOperations, type PatchRules } from './patch.ts';
import { checkIfMatch, listResponse, lowerKeys, paging, sortOrder, withVersion, type Json, type ListParams, type ScimContext } from './resources.ts';

export { GROUP_SCHEMA };

/** A group as a SCIM Group, with its version. */
export function groupResource(ctx: Pick<ScimContext, 'baseUrl'>, group: ProvisionedGroup): Json & { meta: Json } {
  return withVersion({
    schemas: [GROUP_SCHEMA],
    id: group.id,
    ...(group.externalId === null ? {} : { externalId: group.externalId }),
    displayName: group.name,
    members: group.members.map((m) => ({ value: m.id, display: m.username, $ref: `${ctx.baseUrl}/Users/${m.id}`, type: 'User' })),
    meta: {
      resourceType: 'Group',
      created: group.createdAt.toISOString(),
      lastModified: group.updatedAt.toISOString(),
      location: `${ctx.baseUrl}/Groups/${group.id}`,
    },
  });
}

async function existing(ctx: ScimContext, id: string): Promise<ProvisionedGroup> {
  const group = await findProvisionedGroup(ctx.db, id);
  if (!group) throw notFound(`no Group ${id}`);
  return group;
}

export async function getGroup(ctx: ScimContext, id: string) {
  return groupResource(ctx, await existing(ctx, id));
}

export async function listGroups(ctx: ScimContext, params: ListParams) {
  const where: GroupWhere = params.filter ? toWhere(parseFilter(params.filter), groupAttributeWhere(ctx.db.sql.kind), GROUP_SCHEMA) : {};
  const { skip, take, startIndex } = paging(params);
  const orderBy = sortOrder(params, GROUP_SORTS, GROUP_SCHEMA, 'createdAt');
  const { groups, total } = await findProvisionedGroups(ctx.db, { where, orderBy, skip, take });
  return listResponse(
    groups.map((g) => groupResource(ctx, g)),
    total,
    startIndex,
  );
}

/** The members' ids: a POST without `members` has none, a PUT without them empties the group. */
type GroupState = ProvisionedGroupState;

/** A Group representation as the state to store; members must be Users that exist. */
async function groupState(ctx: ScimContext, body: unknown): Promise<GroupState> {
  const b = lowerKeys(body) as Json;
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw invalidValue('a Group is a JSON object');
  if (typeof b.displayname !== 'string' || !b.displayname) throw invalidValue('displayName is required');
  const externalId = b.externalid === undefined || b.externalid === null || b.externalid === '' ? null : b.externalid;
  if (externalId !== null && (typeof externalId !== 'string' || externalId.length > 200)) {
    throw invalidValue('externalId is a string of at most 200 characters');
  }
  const list = b.members ?? [];
  if (!Array.isArray(list)) throw invalidValue('members is a list');
  if (list.length > 10_000) throw invalidValue('at most 10000 members at once');
  const members: string[] = [];
  for (const member of list) {
    const value = typeof member === 'object' && member !== null ? (member as Json).value : undefined;
    if (typeof value !== 'string') throw invalidValue('each member has a value: the id of a User');
    if (!members.includes(value)) members.push(value);
  }
  for (const id of members) {
    if (!(await findUserById(ctx.db, id))) throw invalidValue(`member ${id} is no User here (groups of groups are not kept)`);
  }
  return { name: b.displayname, externalId, members };
}

/** A taken externalId is refused before anything is written, so a refused request leaves nothing half-made. */
async function checkExternalIdFree(ctx: ScimContext, externalId: string | null, groupId?: string): Promise<void> {
  if (externalId === null) return;
  const { groups } = await findProvisionedGroups(ctx.db, { where: { externalId }, orderBy: [], skip: 0, take: 1 });
  if (groups[0] && groups[0].id !== groupId) throw new ScimError(409, `another Group has the externalId ${externalId}`, 'uniqueness');
}

export async function createGroupResource(ctx: ScimContext, body: unknown) {
  const state = await groupState(ctx, body);
  await checkExternalIdFree(ctx, state.externalId);
  return groupResource(ctx, await existing(ctx, await storeProvisionedGroup(ctx.db, undefined, state, ctx.by)));
}

/** The group becomes `state`, all of it or nothing (lib/authorization/manage.ts storeProvisionedGroup). */
async function store(ctx: ScimContext, group: ProvisionedGroup, state: GroupState) {
  await checkExternalIdFree(ctx, state.externalId, group.id);
  await storeProvisionedGroup(ctx.db, group, state, ctx.by);
  return groupResource(ctx, await existing(ctx, group.id));
}

export async function replaceGroup(ctx: ScimContext, id: string, body: unknown, ifMatch?: string | null) {
  const group = await existing(ctx, id);
  checkIfMatch(ifMatch, groupResource(ctx, group).meta.version as string);
  const b = lowerKeys(body) as Json;
  if (typeof b.id === 'string' && b.id !== group.id) throw mutability('id cannot be changed');
  return store(ctx, group, await groupState(ctx, body));
}

const GROUP_PATCH_RULES: PatchRules = {
  schemas: [GROUP_SCHEMA],
  readOnly: ['id', 'meta', 'schemas'],
  multiValued: ['members'],
  names: { displayname: 'displayName', members: 'members', externalid: 'externalId' },
};

export async function patchGroup(ctx: ScimContext, id: string, body: unknown, ifMatch?: string | null) {
  const operations = patchOperations(body);
  const group = await existing(ctx, id);
  const resource = groupResource(ctx, group);
  checkIfMatch(ifMatch, resource.meta.version as string);
  return store(ctx, group, await groupState(ctx, applyPatch(resource, operations, GROUP_PATCH_RULES)));
}

export async function removeGroup(ctx: ScimContext, id: string, ifMatch?: string | null): Promise<void> {
  const group = await existing(ctx, id);
  checkIfMatch(ifMatch, groupResource(ctx, group).meta.version as string);
  await deleteGroup(ctx.db, group.name, ctx.by);
}
