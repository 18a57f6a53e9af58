/**
 * What Users and Groups share on the wire: `meta` with its version (RFC 7644 §3.14: a weak ETag computed from
 * the representation, so a change of anything shown, a group membership or an external id included, gives a new
 * one), the If-Match check, list paging and sorting (RFC 7644 §3.4.2.3, §3.4.2.4), and the ListResponse.
 */
import { createHash } from 'node:crypto';
import type { AuditBy } from '../audit/log.ts';
import type { Database } from '../db/database.ts';
import { invalidValue, ScimError } from './errors.ts';
import { attributeName } from './filter.ts';

export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/** The most resources one page holds (ServiceProviderConfig's filter.maxResults). */
export const MAX_RESULTS = 200;

/** What the SCIM use cases run with: the database, who acts (the provisioning client), and where the resources live. */
export interface ScimContext {
  db: Database;
  by: AuditBy;
  /** The service provider's base URL, `<ISSUER>/scim/v2`, for `meta.location` and `$ref`. */
  baseUrl: string;
}

export type Json = Record<string, unknown>;

/** The representation with `meta.version` set: a weak ETag of everything else in it. */
export function withVersion<R extends Json & { meta: Json }>(resource: R): R {
  const digest = createHash('sha256').update(JSON.stringify(resource)).digest('base64url').slice(0, 22);
  return { ...resource, meta: { ...resource.meta, version: `W/"${digest}"` } };
}

/**
 * RFC 7644 §3.14 with RFC 9110 §13.1.1: a write with If-Match proceeds only when one of its tags is the current
 * version (or `*`); 412 otherwise. Weak tags compare by their opaque part, as they were given out.
 */
export function checkIfMatch(ifMatch: string | null | undefined, version: string): void {
  if (!ifMatch) return;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const tags = ifMatch.split(',').map(opaque);
  if (tags.includes('*') || tags.includes(opaque(version))) return;
  throw new ScimError(412, 'the resource has changed since that version: read it again');
}

export interface ListParams {
  filter?: string;
  startIndex?: number;
  count?: number;
  sortBy?: string;
  sortOrder?: string;
}

/** A list's query parameters (or a .search body's fields) as ListParams; garbage is ignored as RFC 7644 §3.4.2.4 says for paging. */
export function listParams(source: Record<string, unknown>): ListParams {
  const get = (name: string) => {
    const key = Object.keys(source).find((k) => k.toLowerCase() === name.toLowerCase());
    return key === undefined ? undefined : source[key];
  };
  const int = (value: unknown) => {
    const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d{1,9}$/.test(value.trim()) ? Number(value) : undefined;
    return n === undefined || !Number.isFinite(n) ? undefined : Math.trunc(n);
  };
  const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    filter: str(get('filter')),
    startIndex: int(get('startIndex')),
    count: int(get('count')),
    sortBy: str(get('sortBy')),
    sortOrder: str(get('sortOrder')),
  };
}

/** 1-based start (less than 1 is 1) and a page size from 0 to MAX_RESULTS (RFC 7644 §3.4.2.4). */
export function paging(params: ListParams): { skip: number; take: number; startIndex: number } {
  const startIndex = Math.max(1, params.startIndex ?? 1);
  const take = Math.min(MAX_RESULTS, Math.max(0, params.count ?? MAX_RESULTS));
  return { skip: startIndex - 1, take, startIndex };
}

/** The order a list is sorted by: the mapped column of `sortBy`, ascending unless `sortOrder` says descending. */
export function sortOrder(params: ListParams, sorts: Record<string, string>, schema: string, fallback: string): Record<string, 'asc' | 'desc'>[] {
  const direction = params.sortOrder?.toLowerCase() === 'descending' ? 'desc' : 'asc';
  if (params.sortOrder && !['ascending', 'descending'].includes(params.sortOrder.toLowerCase())) {
    throw invalidValue('sortOrder is ascending or descending');
  }
  if (!params.sortBy) return [{ [fallback]: 'asc' }];
  const column = sorts[attributeName(params.sortBy, schema)];
  if (!column) throw invalidValue(`sorting by ${params.sortBy} is not supported`);
  return [{ [column]: direction }];
}

export function listResponse(resources: Json[], total: number, startIndex: number) {
  return { schemas: [LIST_SCHEMA], totalResults: total, startIndex, itemsPerPage: resources.length, Resources: resources };
}

/** A body's keys in lower case, at every depth (attribute names ignore case, RFC 7643 §2.1); values as they are. */
export function lowerKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(lowerKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key.toLowerCase(), lowerKeys(inner)]));
}

/** Entra ID sends booleans as "True" and "False" strings. */
export function booleanOf(value: unknown, attribute: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalidValue(`${attribute} is true or false`);
}
