/**
 * SCIM Users (RFC 7643 §4.1) as Gatehouse's people. The mapping: `userName` is the username, `name.givenName`
 * and `name.familyName` the profile claims, `displayName` the `name` claim, `emails` the one address (shown as
 * the primary work address; a new one is unverified until the person proves it, as when an admin changes it),
 * `phoneNumbers`, `locale` and `timezone` the claims, `active` the opposite of disabled, `externalId` the
 * external id an import keeps too, `groups` (read-only) the groups the person is in, `password` (write-only) a
 * new password. Every change goes through the people's own use cases (lib/users), so it is validated, audited
 * as made by the provisioning client, and has the same effects as in the portal: `active: false` disables the
 * person, which ends their sessions and tokens (back-channel logout included); DELETE deletes them.
 */
import type { Database } from '../db/database.ts';
import { recordAuditBy } from '../audit/log.ts';
import { mayActOn } from '../admin-roles/roles.ts';
import { parseInput } from '../platform/errors.ts';
import { hashPassword } from '../platform/passwords.ts';
import {
  changePassword,
  deleteUser,
  disableUser,
  enableUser,
  insertNewUser,
  isUniqueViolation,
  newUserSchema,
  passwordSchema,
  profileSchema,
  usernameSchema,
} from '../users/manage.ts';
import { profileClaimsSchema } from '../users/profile-claims.ts';
import {
  findProvisionedUser,
  findProvisionedUsers,
  updateProvisionedUser,
  type ProvisionedChange,
  type ProvisionedUser,
  type UserWhere,
} from '../users/repository.ts';
import { invalidValue, mutability, notFound, ScimError } from './errors.ts';
import { parseFilter, toWhere, USER_SCHEMA, USER_SORTS, userAttributeWhere } from './filter.ts';
import { applyPatch, patchOperations, type PatchRules } from './patch.ts';
import { booleanOf, checkIfMatch, listResponse, lowerKeys, paging, sortOrder, withVersion, type Json, type ListParams, type ScimContext } from './resources.ts';
import { scimActor } from './tokens.ts';

export { USER_SCHEMA };

const location = (ctx: Pick<ScimContext, 'baseUrl'>, id: string) => `${ctx.baseUrl}/Users/${id}`;

/** A person as a SCIM User, with its version. */
export function userResource(ctx: Pick<ScimContext, 'baseUrl'>, user: ProvisionedUser): Json & { meta: Json } {
  const name = Object.fromEntries(
    Object.entries({ formatted: user.name, givenName: user.givenName, familyName: user.familyName }).filter(([, v]) => v !== null),
  );
  return withVersion({
    schemas: [USER_SCHEMA],
    id: user.id,
    ...(user.externalId === null ? {} : { externalId: user.externalId }),
    userName: user.username,
    ...(Object.keys(name).length ? { name } : {}),
    ...(user.name === null ? {} : { displayName: user.name }),
    ...(user.email === null ? {} : { emails: [{ value: user.email, type: 'work', primary: true }] }),
    ...(user.phoneNumber === null ? {} : { phoneNumbers: [{ value: user.phoneNumber, type: 'work', primary: true }] }),
    ...(user.locale === null ? {} : { locale: user.locale }),
    ...(user.zoneinfo === null ? {} : { timezone: user.zoneinfo }),
    active: !user.disabled,
    groups: user.groups.map((g) => ({ value: g.id, display: g.name, $ref: `${ctx.baseUrl}/Groups/${g.id}`, type: 'direct' })),
    meta: { resourceType: 'User', created: user.createdAt.toISOString(), lastModified: user.updatedAt.toISOString(), location: location(ctx, user.id) },
  });
}

/** What a User representation asks Gatehouse to store. */
interface UserState {
  username: string;
  externalId: string | null;
  name: string | null;
  givenName: string | null;
  familyName: string | null;
  email: string | null;
  phoneNumber: string | null;
  locale: string | null;
  zoneinfo: string | null;
  active: boolean;
  password?: string;
}

const str = (value: unknown, attribute: string): string | null => {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string') throw invalidValue(`${attribute} is a string`);
  return value;
};

/** The element of a multi-valued attribute that counts: the primary one, else a work one, else the first. */
function primaryValue(value: unknown, attribute: string): string | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value)) throw invalidValue(`${attribute} is a list`);
  const elements = value.filter((e): e is Json => typeof e === 'object' && e !== null);
  const chosen = elements.find((e) => booleanOf(e.primary, `${attribute}.primary`) === true) ?? elements.find((e) => e.type === 'work') ?? elements[0];
  return chosen ? str(chosen.value, `${attribute}.value`) : null;
}

/** A User representation (POST, PUT, or the result of a PATCH) as the state to store; attributes Gatehouse has no place for are ignored. */
export function userState(body: unknown): UserState {
  const b = lowerKeys(body) as Json;
  if (typeof b !== 'object' || b === null || Array.isArray(b)) throw invalidValue('a User is a JSON object');
  const name = (typeof b.name === 'object' && b.name !== null ? b.name : {}) as Json;
  const username = str(b.username, 'userName');
  if (!username) throw invalidValue('userName is required');
  const givenName = str(name.givenname, 'name.givenName');
  const familyName = str(name.familyname, 'name.familyName');
  const display = str(b.displayname, 'displayName') ?? str(name.formatted, 'name.formatted');
  const externalId = str(b.externalid, 'externalId');
  if (externalId !== null && externalId.length > 200) throw invalidValue('externalId is at most 200 characters');
  const password = str(b.password, 'password');
  return {
    username,
    externalId,
    name: display ?? ([givenName, familyName].filter(Boolean).join(' ') || null),
    givenName,
    familyName,
    email: primaryValue(b.emails, 'emails'),
    phoneNumber: primaryValue(b.phonenumbers, 'phoneNumbers'),
    locale: str(b.locale, 'locale') ?? str(b.preferredlanguage, 'preferredLanguage'),
    zoneinfo: str(b.timezone, 'timezone'),
    active: booleanOf(b.active, 'active') ?? true,
    ...(password === null ? {} : { password }),
  };
}

/** A provisioning client acts as a user manager (lib/scim/tokens.ts scimActor): never on an admin's or owner's account. */
function checkMayChange(user: ProvisionedUser): void {
  if (!mayActOn(scimActor({ name: '' }).role, user.role)) {
    throw new ScimError(403, `${user.username} holds an admin role: change their account in Gatehouse, not by provisioning`);
  }
}

async function existing(db: Database, id: string): Promise<ProvisionedUser> {
  const user = await findProvisionedUser(db, id);
  if (!user) throw notFound(`no User ${id}`);
  return user;
}

export async function getUser(ctx: ScimContext, id: string): Promise<Json & { meta: Json }> {
  return userResource(ctx, await existing(ctx.db, id));
}

export async function listUsers(ctx: ScimContext, params: ListParams) {
  const where: UserWhere = params.filter ? toWhere(parseFilter(params.filter), userAttributeWhere(ctx.db.sql.kind), USER_SCHEMA) : {};
  const { skip, take, startIndex } = paging(params);
  const orderBy = sortOrder(params, USER_SORTS, USER_SCHEMA, 'createdAt');
  const { users, total } = await findProvisionedUsers(ctx.db, { where, orderBy, skip, take });
  return listResponse(
    users.map((u) => userResource(ctx, u)),
    total,
    startIndex,
  );
}

const claimsOf = (state: UserState) => ({
  givenName: state.givenName,
  familyName: state.familyName,
  locale: state.locale,
  zoneinfo: state.zoneinfo,
  phoneNumber: state.phoneNumber,
});

/** The claims (validated) and external id a state gives a person, absent ones null. */
const provisionedFields = (state: UserState, claims: ReturnType<typeof profileClaimsSchema.parse>) => ({
  givenName: claims.givenName ?? null,
  familyName: claims.familyName ?? null,
  locale: claims.locale ?? null,
  zoneinfo: claims.zoneinfo ?? null,
  phoneNumber: claims.phoneNumber ?? null,
  externalId: state.externalId,
});

async function checkExternalIdFree(db: Database, externalId: string | null, userId?: string): Promise<void> {
  if (externalId === null) return;
  const { users } = await findProvisionedUsers(db, { where: { imported: { is: { externalId } } }, orderBy: [], skip: 0, take: 1 });
  if (users[0] && users[0].id !== userId) throw new ScimError(409, `another User has the externalId ${externalId}`, 'uniqueness');
}

/** POST /Users: a new person without an admin role; without a password they sign in once one is set (an invitation, or federation). */
export async function createUser(ctx: ScimContext, body: unknown): Promise<Json & { meta: Json }> {
  const state = userState(body);
  // Everything is checked before the person is stored, so a refused request leaves nothing half-made.
  const data = parseInput(newUserSchema.omit({ password: true }), { username: state.username, email: state.email, name: state.name, role: 'user' });
  const claims = parseInput(profileClaimsSchema, claimsOf(state));
  const passwordHash = state.password === undefined ? null : await hashPassword(parseInput(passwordSchema, state.password, 'password'));
  await checkExternalIdFree(ctx.db, state.externalId);
  // One transaction: the person, their claims, external id and state, so a refusal leaves no one behind.
  const user = await insertNewUser(ctx.db, data, passwordHash, ctx.by, {}, { ...provisionedFields(state, claims), disabled: !state.active });
  // Created disabled: no session or token to end, recorded as disabling is.
  if (!state.active) await recordAuditBy(ctx.db, ctx.by, { action: 'user.disabled', target: { type: 'user', id: user.id, label: user.username }, details: {} });
  return userResource(ctx, await existing(ctx.db, user.id));
}

/** The fields one PUT or PATCH stores together, in the audit entry's words. */
const CHANGED_FIELDS = ['username', 'name', 'email', 'givenName', 'familyName', 'locale', 'zoneinfo', 'phoneNumber', 'externalId'] as const;

/** A unique column another person holds, as SCIM's `uniqueness` (the transaction changed nothing). */
function uniquenessOf(error: unknown, change: ProvisionedChange): ScimError | undefined {
  if ((error as { code?: string })?.code !== 'P2002') return undefined;
  if (isUniqueViolation(error, 'external_id')) return new ScimError(409, `another User has the externalId ${change.externalId}`, 'uniqueness');
  if (isUniqueViolation(error, 'email')) return new ScimError(409, `another User has the email ${change.email}`, 'uniqueness');
  if (isUniqueViolation(error, 'username')) return new ScimError(409, `another User has the userName ${change.username}`, 'uniqueness');
  return new ScimError(409, 'another User has one of these values', 'uniqueness');
}

/**
 * Stores `state` over the person as they are, all or nothing: every value is validated first, then the username,
 * name, email, profile claims and external id are written in one transaction (lib/users/repository.ts
 * updateProvisionedUser), so a value another person holds (a taken userName) leaves every other change of the
 * request unmade too. Then, each with its effects, a new password (the person's sessions end) and `active`
 * (disabling ends their sessions and tokens): validated beforehand, these cannot be refused any more.
 */
async function store(ctx: ScimContext, user: ProvisionedUser, state: UserState): Promise<Json & { meta: Json }> {
  checkMayChange(user);
  const username = parseInput(usernameSchema, state.username, 'username');
  const profile = parseInput(profileSchema, { name: state.name, email: state.email });
  const claims = parseInput(profileClaimsSchema, claimsOf(state));
  if (state.password !== undefined) parseInput(passwordSchema, state.password, 'password');
  await checkExternalIdFree(ctx.db, state.externalId, user.id);
  const change: ProvisionedChange = {
    username,
    name: profile.name,
    email: profile.email,
    ...provisionedFields(state, claims),
  };
  const changed = CHANGED_FIELDS.filter((field) => change[field] !== user[field]);
  if (changed.length > 0) {
    try {
      if (!(await updateProvisionedUser(ctx.db, user.id, change))) throw notFound(`no User ${user.id}`);
    } catch (error) {
      throw uniquenessOf(error, change) ?? error;
    }
    await recordAuditBy(ctx.db, ctx.by, { action: 'user.updated', target: { type: 'user', id: user.id, label: username }, details: { changed } });
  }
  if (state.password !== undefined) await changePassword(ctx.db, user.id, state.password, ctx.by);
  if (state.active && user.disabled) await enableUser(ctx.db, user.id, ctx.by);
  if (!state.active && !user.disabled) await disableUser(ctx.db, user.id, ctx.by);
  return userResource(ctx, await existing(ctx.db, user.id));
}

/** PUT /Users/{id}: the representation replaces the person's (RFC 7644 §3.5.1); `id`, `meta` and `groups` are read-only and ignored. */
export async function replaceUser(ctx: ScimContext, id: string, body: unknown, ifMatch?: string | null): Promise<Json & { meta: Json }> {
  const user = await existing(ctx.db, id);
  checkIfMatch(ifMatch, userResource(ctx, user).meta.version as string);
  const b = lowerKeys(body) as Json;
  if (typeof b.id === 'string' && b.id !== user.id) throw mutability('id cannot be changed');
  return store(ctx, user, userState(body));
}

const USER_PATCH_RULES: PatchRules = {
  schemas: [USER_SCHEMA],
  readOnly: ['id', 'meta', 'groups', 'schemas'],
  multiValued: ['emails', 'phonenumbers', 'ims', 'photos', 'addresses', 'entitlements', 'roles', 'x509certificates'],
  names: {
    username: 'userName',
    externalid: 'externalId',
    displayname: 'displayName',
    name: 'name',
    emails: 'emails',
    phonenumbers: 'phoneNumbers',
    locale: 'locale',
    timezone: 'timezone',
    active: 'active',
    password: 'password',
  },
};

/** PATCH /Users/{id}: the operations applied to the representation, then stored as a PUT of the result. */
export async function patchUser(ctx: ScimContext, id: string, body: unknown, ifMatch?: string | null): Promise<Json & { meta: Json }> {
  const operations = patchOperations(body);
  const user = await existing(ctx.db, id);
  const resource = userResource(ctx, user);
  checkIfMatch(ifMatch, resource.meta.version as string);
  return store(ctx, user, userState(applyPatch(resource, operations, USER_PATCH_RULES)));
}

/** DELETE /Users/{id}: the person's sessions and tokens end (back-channel logout included), then the account goes. */
export async function removeUser(ctx: ScimContext, id: string, ifMatch?: string | null): Promise<void> {
  const user = await existing(ctx.db, id);
  checkIfMatch(ifMatch, userResource(ctx, user).meta.version as string);
  checkMayChange(user);
  if (!(await deleteUser(ctx.db, user.id, ctx.by))) throw notFound(`no User ${id}`);
}
