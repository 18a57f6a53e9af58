/**
 * SCIM filters (RFC 7644 §3.4.2.2) turned into a database query: parsed by scim2-parse-filter (its grammar
 * is the RFC's ABNF: attribute paths with schema URNs, the nine comparison operators, `pr`, `and`/`or`/`not`,
 * parentheses, and `emails[type eq "work"]` value paths), then translated here, attribute by attribute, into
 * a Prisma `where`: values are bound parameters, never SQL text, and an attribute this table does not map is
 * an `invalidFilter` error, never a scan. The attributes provisioning clients look people up by (`userName`,
 * `externalId`, `emails`, `id`) translate to `eq` on indexed columns, so a lookup among 100,000 people is one
 * index probe.
 */
import { parse, type Filter } from 'scim2-parse-filter';
import type { Prisma } from '../generated/sqlite/client.ts';
import { escapeLike } from '../db/text-search.ts';
import { usernameKey } from '../users/repository.ts';
import { invalidFilter } from './errors.ts';

export type { Filter };
export type CompareOp = 'eq' | 'ne' | 'co' | 'sw' | 'ew' | 'gt' | 'lt' | 'ge' | 'le' | 'pr';
export type Value = boolean | null | number | string | undefined;
export type DbKind = 'sqlite' | 'postgresql';

/** Longer filters are refused: no client needs more, and the parser recurses. */
export const MAX_FILTER_LENGTH = 2000;

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';

/** A filter's text as its tree; `invalidFilter` for anything the grammar refuses. */
export function parseFilter(text: string): Filter {
  if (text.length > MAX_FILTER_LENGTH) throw invalidFilter(`a filter is at most ${MAX_FILTER_LENGTH} characters`);
  try {
    return parse(text);
  } catch (error) {
    // The parser's messages quote the position it stopped at; short and about the filter only.
    throw invalidFilter(`the filter is not valid: ${error instanceof Error ? error.message.slice(0, 200) : 'syntax error'}`);
  }
}

/** An attribute path as this table names it: without its schema's URN, in lower case (attribute names ignore case, RFC 7643 §2.1). */
export function attributeName(path: string, schema: string): string {
  const lower = path.toLowerCase();
  const prefix = `${schema.toLowerCase()}:`;
  return lower.startsWith(prefix) ? lower.slice(prefix.length) : lower;
}

/** Matches every row, and none. */
const ALL = {} as const;
const NONE = { id: { in: [] as string[] } } as const;

/** Translates one comparison of a mapped attribute; the resource type's table (below) supplies it. */
export type AttributeWhere<W> = (attribute: string, op: CompareOp, value: Value) => W;

/** The whole filter as a where, with `attributeWhere` for each comparison; a value path `a[f]` compares `a.x` for each `x` in `f`. */
export function toWhere<W extends object>(filter: Filter, attributeWhere: AttributeWhere<W>, schema: string, prefix = ''): W {
  switch (filter.op) {
    case 'and':
      return { AND: filter.filters.map((f) => toWhere(f, attributeWhere, schema, prefix)) } as W;
    case 'or':
      return { OR: filter.filters.map((f) => toWhere(f, attributeWhere, schema, prefix)) } as W;
    case 'not':
      return { NOT: toWhere(filter.filter, attributeWhere, schema, prefix) } as W;
    case '[]':
      if (prefix) throw invalidFilter('value paths do not nest');
      return toWhere(filter.valFilter, attributeWhere, schema, `${attributeName(filter.attrPath, schema)}.`);
    case 'pr':
      return attributeWhere(prefix + attributeName(filter.attrPath, schema), 'pr', undefined);
    default:
      return attributeWhere(prefix + attributeName(filter.attrPath, schema), filter.op, filter.compValue);
  }
}

const unsupported = (attribute: string) => invalidFilter(`filtering by ${attribute} is not supported`);
const badOperator = (attribute: string, op: string) => invalidFilter(`${attribute} cannot be compared with ${op}`);

function text(attribute: string, value: Value): string {
  if (typeof value !== 'string') throw invalidFilter(`${attribute} is compared with a string`);
  return value;
}

/**
 * A text column. `eq` and `ne` compare exactly (an index can serve them); `sw`, `ew`, `co` ignore case, as SCIM's
 * caseExact=false attributes do (LIKE with the wildcards escaped: lib/db/text-search.ts); `gt`…`le` order by the text.
 */
export function textWhere(kind: DbKind, column: string, attribute: string, op: CompareOp, value: Value, nullable = true): Record<string, unknown> {
  const insensitive = kind === 'postgresql' ? { mode: 'insensitive' } : {};
  switch (op) {
    case 'pr':
      return nullable ? { NOT: { [column]: null } } : ALL;
    case 'eq':
      return { [column]: text(attribute, value) };
    case 'ne':
      return nullable ? { OR: [{ [column]: null }, { NOT: { [column]: text(attribute, value) } }] } : { NOT: { [column]: text(attribute, value) } };
    case 'sw':
      return { [column]: { startsWith: escapeLike(text(attribute, value)), ...insensitive } };
    case 'ew':
      return { [column]: { endsWith: escapeLike(text(attribute, value)), ...insensitive } };
    case 'co':
      return { [column]: { contains: escapeLike(text(attribute, value)), ...insensitive } };
    default:
      return { [column]: { [op]: text(attribute, value) } };
  }
}

export function dateWhere(column: string, attribute: string, op: CompareOp, value: Value): Record<string, unknown> {
  if (op === 'pr') return ALL;
  if (!['eq', 'ne', 'gt', 'ge', 'lt', 'le'].includes(op)) throw badOperator(attribute, op);
  const date = typeof value === 'string' ? new Date(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) throw invalidFilter(`${attribute} is compared with a date-time such as 2026-01-31T12:00:00Z`);
  if (op === 'eq') return { [column]: date };
  if (op === 'ne') return { NOT: { [column]: date } };
  return { [column]: { [op.replace('ge', 'gte').replace('le', 'lte')]: date } };
}

function booleanValue(attribute: string, op: CompareOp, value: Value): boolean | undefined {
  if (op === 'pr') return undefined;
  if ((op !== 'eq' && op !== 'ne') || typeof value !== 'boolean') throw invalidFilter(`${attribute} is compared with eq or ne and true or false`);
  return op === 'eq' ? value : !value;
}

/**
 * Users (RFC 7643 §4.1) as Gatehouse keeps people. `userName` compares by the username's key (as sign-in does:
 * ASCII case ignored; indexed); `emails` by the one address, exactly or in lower case (both indexed); `externalId`
 * exactly (caseExact, RFC 7643 §3.1).
 */
export function userAttributeWhere(kind: DbKind): AttributeWhere<Prisma.UserWhereInput> {
  return (attribute, op, value) => {
    switch (attribute) {
      case 'id':
        return textWhere(kind, 'id', attribute, op, value, false) as Prisma.UserWhereInput;
      case 'username':
        if (op === 'eq') return { usernameKey: usernameKey(text(attribute, value)) };
        if (op === 'ne') return { NOT: { usernameKey: usernameKey(text(attribute, value)) } };
        return textWhere(kind, 'username', attribute, op, value, false) as Prisma.UserWhereInput;
      case 'externalid':
        if (op === 'pr') return { imported: { isNot: null } };
        if (op === 'eq') return { imported: { is: { externalId: text(attribute, value) } } };
        if (op === 'ne') return { OR: [{ imported: { is: null } }, { imported: { isNot: { externalId: text(attribute, value) } } }] };
        return { imported: { is: textWhere(kind, 'externalId', attribute, op, value, false) } } as Prisma.UserWhereInput;
      case 'emails':
      case 'emails.value':
        if (op === 'eq') {
          const address = text(attribute, value);
          return { OR: [{ email: address }, { email: address.toLowerCase() }] };
        }
        return textWhere(kind, 'email', attribute, op, value) as Prisma.UserWhereInput;
      case 'emails.type':
        // The one address is the work address (lib/scim/users.ts).
        if (op === 'pr') return { NOT: { email: null } };
        if (op === 'eq') return value === 'work' ? { NOT: { email: null } } : NONE;
        throw badOperator(attribute, op);
      case 'emails.primary': {
        const primary = booleanValue(attribute, op, value);
        return primary === false ? NONE : { NOT: { email: null } };
      }
      case 'displayname':
      case 'name.formatted':
        return textWhere(kind, 'name', attribute, op, value) as Prisma.UserWhereInput;
      case 'name.givenname':
        return textWhere(kind, 'givenName', attribute, op, value) as Prisma.UserWhereInput;
      case 'name.familyname':
        return textWhere(kind, 'familyName', attribute, op, value) as Prisma.UserWhereInput;
      case 'locale':
        return textWhere(kind, 'locale', attribute, op, value) as Prisma.UserWhereInput;
      case 'timezone':
        return textWhere(kind, 'zoneinfo', attribute, op, value) as Prisma.UserWhereInput;
      case 'active': {
        const active = booleanValue(attribute, op, value);
        return active === undefined ? ALL : { disabled: !active };
      }
      case 'meta.created':
        return dateWhere('createdAt', attribute, op, value) as Prisma.UserWhereInput;
      case 'meta.lastmodified':
        return dateWhere('updatedAt', attribute, op, value) as Prisma.UserWhereInput;
      default:
        throw unsupported(attribute);
    }
  };
}

/**
 * Groups (RFC 7643 §4.2): `displayName` is the group's name (the value in the `groups` claim); `externalId` the
 * client's id for it, exactly (caseExact; unique, so `eq` is one index probe); `members` its people by id.
 */
export function groupAttributeWhere(kind: DbKind): AttributeWhere<Prisma.GroupWhereInput> {
  return (attribute, op, value) => {
    switch (attribute) {
      case 'id':
        return textWhere(kind, 'id', attribute, op, value, false) as Prisma.GroupWhereInput;
      case 'displayname':
        return textWhere(kind, 'name', attribute, op, value, false) as Prisma.GroupWhereInput;
      case 'externalid':
        return textWhere(kind, 'externalId', attribute, op, value) as Prisma.GroupWhereInput;
      case 'members':
      case 'members.value':
        if (op === 'pr') return { members: { some: {} } };
        if (op === 'eq') return { members: { some: { userId: text(attribute, value) } } };
        if (op === 'ne') return { members: { none: { userId: text(attribute, value) } } };
        throw badOperator(attribute, op);
      case 'meta.created':
        return dateWhere('createdAt', attribute, op, value) as Prisma.GroupWhereInput;
      case 'meta.lastmodified':
        return dateWhere('updatedAt', attribute, op, value) as Prisma.GroupWhereInput;
      default:
        throw unsupported(attribute);
    }
  };
}

/** The column a list is sorted by (RFC 7644 §3.4.2.3); `invalidValue`-free: an unknown one is a 400 from the caller. */
export const USER_SORTS: Record<string, string> = {
  id: 'id',
  username: 'usernameKey',
  displayname: 'name',
  'name.formatted': 'name',
  'name.givenname': 'givenName',
  'name.familyname': 'familyName',
  emails: 'email',
  'emails.value': 'email',
  'meta.created': 'createdAt',
  'meta.lastmodified': 'updatedAt',
};

export const GROUP_SORTS: Record<string, string> = {
  id: 'id',
  displayname: 'name',
  'meta.created': 'createdAt',
  'meta.lastmodified': 'updatedAt',
};
