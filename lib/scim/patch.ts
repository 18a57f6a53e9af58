/**
 * PATCH (RFC 7644 §3.5.2) applied to a resource's SCIM representation, in memory: the use cases then store the
 * result as a PUT would (lib/scim/users.ts, groups.ts), so a PATCH and a PUT of the same outcome change exactly
 * the same things. Operations are `add`, `replace` and `remove` (any case: Entra ID sends `Replace`); a path
 * is `attr`, `attr.sub`, `attr[filter]` or `attr[filter].sub`, optionally prefixed with its schema's URN;
 * without a path, `add` and `replace` take an object of attributes (whose keys may themselves be paths, as
 * Entra ID sends `name.givenName`). Attribute names ignore case (RFC 7643 §2.1).
 */
import { z } from 'zod';
import { filter as matches, parse, type Filter } from 'scim2-parse-filter';
import { invalidPath, invalidSyntax, invalidValue, mutability, noTarget } from './errors.ts';
import { MAX_FILTER_LENGTH } from './filter.ts';

export const PATCH_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

const operationSchema = z.object({
  op: z
    .string()
    .transform((op) => op.toLowerCase())
    .pipe(z.enum(['add', 'replace', 'remove'])),
  path: z.string().min(1).max(MAX_FILTER_LENGTH).optional(),
  value: z.unknown().optional(),
});

export const patchRequestSchema = z.object({
  schemas: z.array(z.string()).refine((schemas) => schemas.includes(PATCH_SCHEMA), `schemas must name ${PATCH_SCHEMA}`),
  Operations: z.array(operationSchema).min(1).max(1000),
});

export type PatchOperation = z.output<typeof operationSchema>;
type Json = Record<string, unknown>;

/** The request's operations; `invalidSyntax` when it is no PatchOp message, `invalidValue` for an unknown op. */
export function patchOperations(body: unknown): PatchOperation[] {
  const result = patchRequestSchema.safeParse(body);
  if (result.success) return result.data.Operations;
  const issue = result.error.issues[0];
  if (issue?.path.includes('op')) throw invalidValue('op must be add, replace or remove');
  throw invalidSyntax(`not a PatchOp request: ${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
}

export interface ParsedPath {
  attribute: string;
  filter?: Filter;
  sub?: string;
}

/** `attr`, `attr.sub`, `attr[filter]`, `attr[filter].sub`, each with or without its schema's URN; lower-cased names. */
export function parsePath(path: string, schemas: readonly string[]): ParsedPath {
  let rest = path.trim();
  for (const schema of schemas) {
    if (rest.toLowerCase().startsWith(`${schema.toLowerCase()}:`)) rest = rest.slice(schema.length + 1);
  }
  const match = /^([A-Za-z][\w$-]*)(?:\[(.+)\])?(?:\.([A-Za-z][\w$-]*))?$/s.exec(rest);
  if (!match) throw invalidPath(`${path} is not an attribute path`);
  const [, attribute, filterText, sub] = match;
  let filter: Filter | undefined;
  if (filterText !== undefined) {
    try {
      filter = parse(filterText);
    } catch {
      throw invalidPath(`the filter in ${path} is not valid`);
    }
  }
  return { attribute: attribute.toLowerCase(), filter, sub: sub?.toLowerCase() };
}

/** The key of `object` that names `name` ignoring case, or `name` itself when there is none. */
function keyOf(object: Json, name: string): string {
  return Object.keys(object).find((key) => key.toLowerCase() === name) ?? name;
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export interface PatchRules {
  /** The resource's schema URNs, which a path may start with. */
  schemas: readonly string[];
  /** Lower-cased attributes a client may not change (`id`, `meta`, `groups` of a user): `mutability`. */
  readOnly: readonly string[];
  /** Lower-cased multi-valued attributes (`emails`, `members`): `add` appends to them. */
  multiValued: readonly string[];
  /** The canonical spelling of each lower-cased top-level attribute, used when the resource lacks it. */
  names: Record<string, string>;
}

/** Which elements of a multi-valued attribute a filter selects; compares their keys ignoring case, as the paths do. */
function selected(elements: unknown[], filter: Filter): number[] {
  const test = matches(lowerAttributes(filter));
  const lowered = (element: unknown) => (isObject(element) ? Object.fromEntries(Object.entries(element).map(([k, v]) => [k.toLowerCase(), v])) : element);
  return elements.flatMap((element, index) => (test(lowered(element)) ? [index] : []));
}

function lowerAttributes(filter: Filter): Filter {
  switch (filter.op) {
    case 'and':
    case 'or':
      return { ...filter, filters: filter.filters.map(lowerAttributes) };
    case 'not':
      return { ...filter, filter: lowerAttributes(filter.filter) };
    case '[]':
      return { ...filter, attrPath: filter.attrPath.toLowerCase(), valFilter: lowerAttributes(filter.valFilter) };
    default:
      return { ...filter, attrPath: filter.attrPath.toLowerCase() };
  }
}

/** `type eq "work" and primary eq true` as {type: 'work', primary: true}; undefined for any other filter. */
function equalities(filter: Filter): Json | undefined {
  if (filter.op === 'eq') return { [filter.attrPath]: filter.compValue };
  if (filter.op !== 'and') return undefined;
  const parts = filter.filters.map(equalities);
  return parts.every(Boolean) ? Object.assign({}, ...parts) : undefined;
}

/** Two elements of a multi-valued attribute are one when their `value`s are (members, emails). */
function sameValue(a: unknown, b: unknown): boolean {
  if (isObject(a) && isObject(b)) return a[keyOf(a, 'value')] !== undefined && a[keyOf(a, 'value')] === b[keyOf(b, 'value')];
  return a === b;
}

function addValues(existing: unknown, values: unknown): unknown[] {
  const list = Array.isArray(existing) ? [...existing] : [];
  for (const value of Array.isArray(values) ? values : [values]) {
    if (!list.some((element) => sameValue(element, value))) list.push(value);
  }
  return list;
}

/** Applies the operations, in order, to a copy of `resource`; all or nothing (a failing one throws). */
export function applyPatch(resource: Json, operations: readonly PatchOperation[], rules: PatchRules): Json {
  const result = structuredClone(resource);
  for (const operation of operations) apply(result, operation, rules);
  return result;
}

function apply(resource: Json, { op, path, value }: PatchOperation, rules: PatchRules): void {
  if (path === undefined) {
    if (op === 'remove') throw noTarget('remove needs a path');
    if (!isObject(value)) throw invalidValue(`${op} without a path takes an object of attributes`);
    for (const [key, each] of Object.entries(value)) {
      // The schema URN of an extension as a key holds that extension's attributes (RFC 7644 §3.5.2.1's example).
      if (rules.schemas.some((schema) => schema.toLowerCase() === key.toLowerCase()) && isObject(each)) {
        for (const [inner, innerValue] of Object.entries(each)) apply(resource, { op, path: inner, value: innerValue }, rules);
        continue;
      }
      apply(resource, { op, path: key, value: each }, rules);
    }
    return;
  }
  const target = parsePath(path, rules.schemas);
  if (rules.readOnly.includes(target.attribute)) throw mutability(`${target.attribute} is read-only`);
  const key = keyOf(resource, target.attribute) in resource ? keyOf(resource, target.attribute) : (rules.names[target.attribute] ?? target.attribute);
  const multi = rules.multiValued.includes(target.attribute);

  if (target.filter) {
    if (!multi) throw invalidPath(`${target.attribute} is not multi-valued: it has no value filter`);
    const list = Array.isArray(resource[key]) ? (resource[key] as unknown[]) : [];
    const indexes = selected(list, target.filter);
    if (op === 'remove') {
      if (target.sub) {
        for (const i of indexes) if (isObject(list[i])) delete (list[i] as Json)[keyOf(list[i] as Json, target.sub)];
      } else resource[key] = list.filter((_, i) => !indexes.includes(i));
      return;
    }
    if (indexes.length === 0 && op === 'add' && target.sub) {
      // Entra ID adds a first address as {"op": "Add", "path": "emails[type eq \"work\"].value"}: a new element
      // with what the filter's equalities say and the value, when the filter is only such equalities.
      const element = equalities(target.filter);
      if (!element) throw noTarget(`no value of ${target.attribute} matches ${path}`);
      resource[key] = [...list, { ...element, [target.sub]: value }];
      return;
    }
    if (indexes.length === 0) throw noTarget(`no value of ${target.attribute} matches ${path}`);
    for (const i of indexes) {
      if (target.sub) {
        if (!isObject(list[i])) throw invalidPath(`${target.attribute} has no sub-attributes`);
        const element = list[i] as Json;
        element[keyOf(element, target.sub)] = value;
      } else {
        if (!isObject(value) || !isObject(list[i])) throw invalidValue(`the value for ${path} is an object`);
        list[i] = op === 'add' ? { ...(list[i] as Json), ...value } : value;
      }
    }
    return;
  }

  if (target.sub) {
    const parent = resource[key];
    if (multi) {
      // `emails.value` without a filter: every element's (RFC 7644 §3.5.2.3, for replace).
      if (!Array.isArray(parent)) {
        if (op === 'remove') return;
        resource[key] = [{ [target.sub]: value }];
        return;
      }
      for (const element of parent) {
        if (!isObject(element)) continue;
        if (op === 'remove') delete element[keyOf(element, target.sub)];
        else element[keyOf(element, target.sub)] = value;
      }
      return;
    }
    const object = isObject(parent) ? parent : {};
    if (op === 'remove') delete object[keyOf(object, target.sub)];
    else object[keyOf(object, target.sub)] = value;
    resource[key] = object;
    return;
  }

  if (op === 'remove') {
    if (multi && value !== undefined && resource[key] !== undefined) {
      // Entra ID removes members by value: {"op": "Remove", "path": "members", "value": [{"value": "<id>"}]}.
      const gone = Array.isArray(value) ? value : [value];
      resource[key] = (Array.isArray(resource[key]) ? (resource[key] as unknown[]) : []).filter((e) => !gone.some((g) => sameValue(e, g)));
      return;
    }
    delete resource[key];
    return;
  }
  if (multi) {
    resource[key] = op === 'add' ? addValues(resource[key], value) : Array.isArray(value) ? value : [value];
    return;
  }
  if (op === 'add' && isObject(value) && isObject(resource[key])) {
    resource[key] = { ...(resource[key] as Json), ...value };
    return;
  }
  resource[key] = value;
}
