/**
 * Partial representations (RFC 7644 §3.4.2.5, §3.9): `attributes` names the only attributes to return,
 * `excludedAttributes` the ones to leave out, each a comma-separated list of attribute paths (`userName`,
 * `name.givenName`, `emails.value`, with or without the schema's URN) in a query, or a list of strings in a
 * .search body (§3.4.3). `id`, `schemas` and `meta` are returned whatever is asked (RFC 7643 §3.1, §7:
 * `returned: always`); names the resource does not have are ignored, as the RFC says for unknown attributes.
 * The answer's ETag stays the whole resource's version (`meta.version`): it names the resource, not the view.
 */
import { attributeName } from './filter.ts';
import type { Json } from './resources.ts';

/** The attributes a resource always carries, whatever `attributes` and `excludedAttributes` say. */
const ALWAYS = new Set(['id', 'schemas', 'meta']);

/** Longer lists are not needed by any client: a guard against work sized by the request. */
const MAX_NAMES = 100;

export interface AttributeSelection {
  /** Lower-cased paths (`username`, `name.givenname`); undefined: every attribute. */
  attributes?: string[];
  excludedAttributes?: string[];
}

/** A selection's names from a query value (comma-separated) or a .search body's list; anything else is no selection. */
function names(value: unknown): string[] | undefined {
  const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
  const trimmed = list
    ?.map((name) => name.trim())
    .filter(Boolean)
    .slice(0, MAX_NAMES);
  return trimmed?.length ? trimmed : undefined;
}

/** `attributes` and `excludedAttributes` of a query or a .search body (their names ignore case). */
export function attributeSelection(source: Record<string, unknown>): AttributeSelection {
  const get = (name: string) => {
    const key = Object.keys(source).find((k) => k.toLowerCase() === name.toLowerCase());
    return key === undefined ? undefined : source[key];
  };
  return { attributes: names(get('attributes')), excludedAttributes: names(get('excludedAttributes')) };
}

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The paths as [attribute, sub-attribute?] pairs, without the schema's URN. */
function paths(list: string[], schema: string): [string, string | undefined][] {
  return list.map((path) => {
    const [attribute, sub] = attributeName(path, schema).split('.', 2);
    return [attribute, sub];
  });
}

/** `value` with only the sub-attributes `subs` (each element's, for a multi-valued one); undefined when nothing is left. */
function keepSubs(value: unknown, subs: Set<string>): unknown {
  const pick = (object: Json) => {
    const kept = Object.fromEntries(Object.entries(object).filter(([key]) => subs.has(key.toLowerCase())));
    return Object.keys(kept).length ? kept : undefined;
  };
  if (Array.isArray(value)) {
    const kept = value.flatMap((element) => (isObject(element) ? [pick(element)].filter(Boolean) : []));
    return kept.length ? kept : undefined;
  }
  return isObject(value) ? pick(value) : undefined;
}

/** `value` without the sub-attributes `subs`; undefined when nothing is left. */
function dropSubs(value: unknown, subs: Set<string>): unknown {
  const drop = (object: Json) => {
    const kept = Object.fromEntries(Object.entries(object).filter(([key]) => !subs.has(key.toLowerCase())));
    return Object.keys(kept).length ? kept : undefined;
  };
  if (Array.isArray(value)) {
    const kept = value.flatMap((element) => (isObject(element) ? [drop(element)].filter(Boolean) : [element]));
    return kept.length ? kept : undefined;
  }
  return isObject(value) ? drop(value) : value;
}

/**
 * The resource as the selection asks: first only `attributes` (a whole attribute, or the named sub-attributes of
 * it), then without `excludedAttributes`; `id`, `schemas` and `meta` always stay.
 */
export function selectAttributes<R extends Json>(resource: R, selection: AttributeSelection, schema: string): R {
  let result: Json = resource;
  if (selection.attributes) {
    const whole = new Set<string>();
    const subs = new Map<string, Set<string>>();
    for (const [attribute, sub] of paths(selection.attributes, schema)) {
      if (sub === undefined) whole.add(attribute);
      else subs.set(attribute, (subs.get(attribute) ?? new Set()).add(sub));
    }
    result = {};
    for (const [key, value] of Object.entries(resource)) {
      const name = key.toLowerCase();
      if (ALWAYS.has(name) || whole.has(name)) result[key] = value;
      else if (subs.has(name)) {
        const kept = keepSubs(value, subs.get(name)!);
        if (kept !== undefined) result[key] = kept;
      }
    }
  }
  if (selection.excludedAttributes) {
    const whole = new Set<string>();
    const subs = new Map<string, Set<string>>();
    for (const [attribute, sub] of paths(selection.excludedAttributes, schema)) {
      if (ALWAYS.has(attribute)) continue;
      if (sub === undefined) whole.add(attribute);
      else subs.set(attribute, (subs.get(attribute) ?? new Set()).add(sub));
    }
    const source = result;
    result = {};
    for (const [key, value] of Object.entries(source)) {
      const name = key.toLowerCase();
      if (whole.has(name)) continue;
      const kept = subs.has(name) ? dropSubs(value, subs.get(name)!) : value;
      if (kept !== undefined) result[key] = kept;
    }
  }
  return result as R;
}
