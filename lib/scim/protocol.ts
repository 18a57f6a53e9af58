/**
 * The SCIM endpoints (RFC 7644 §3.2) as a table from method and path to the use cases, without HTTP: the
 * surface (lib/surfaces/scim/route.ts) authenticates the provisioning client, reads the body and writes the
 * answer. Paths are relative to /scim/v2; bulk (`/Bulk`) and `/Me` are not served (501, as §3.7 and §3.11 allow).
 */
import { ScimError, scimErrorOf } from './errors.ts';
import { byId, discoveryList, resourceTypes, schemas, serviceProviderConfig } from './discovery.ts';
import { createGroupResource, getGroup, listGroups, patchGroup, removeGroup, replaceGroup } from './groups.ts';
import { listParams, type ScimContext } from './resources.ts';
import { createUser, getUser, listUsers, patchUser, removeUser, replaceUser } from './users.ts';

export interface ScimRequest {
  method: string;
  /** The path's segments after /scim/v2, decoded. */
  segments: string[];
  query: URLSearchParams;
  /** The parsed JSON body, when the method has one. */
  body?: unknown;
  ifMatch?: string | null;
}

export interface ScimAnswer {
  status: number;
  body?: object;
  /** `meta.location` of a created resource, and `meta.version` as the ETag (RFC 7644 §3.1, §3.14). */
  location?: string;
  etag?: string;
}

const notAllowed = (method: string, allowed: string) =>
  new ScimError(405, `${method} is not a method of this path; it has ${allowed}`, undefined, { allow: allowed });

function resourceAnswer(resource: { meta: Record<string, unknown> }, status = 200): ScimAnswer {
  return { status, body: resource, etag: resource.meta.version as string, ...(status === 201 ? { location: resource.meta.location as string } : {}) };
}

type Resource = {
  list: typeof listUsers;
  get: typeof getUser;
  create: typeof createUser;
  replace: typeof replaceUser;
  patch: typeof patchUser;
  remove: typeof removeUser;
};

const RESOURCES: Record<string, Resource> = {
  Users: { list: listUsers, get: getUser, create: createUser, replace: replaceUser, patch: patchUser, remove: removeUser },
  Groups: { list: listGroups, get: getGroup, create: createGroupResource, replace: replaceGroup, patch: patchGroup, remove: removeGroup },
};

/** Serves one request; every refusal, the use cases' own included, is a ScimError (lib/scim/errors.ts scimErrorOf). */
export async function serveScim(ctx: ScimContext, request: ScimRequest): Promise<ScimAnswer> {
  try {
    return await route(ctx, request);
  } catch (error) {
    throw scimErrorOf(error) ?? error;
  }
}

async function route(ctx: ScimContext, request: ScimRequest): Promise<ScimAnswer> {
  const { method, segments } = request;
  const [first, second, ...rest] = segments;
  if (rest.length > 0 || first === undefined) throw new ScimError(404, 'no such SCIM endpoint');

  if (first === 'ServiceProviderConfig' && second === undefined) {
    if (method !== 'GET') throw notAllowed(method, 'GET');
    return { status: 200, body: serviceProviderConfig(ctx.baseUrl) };
  }
  if (first === 'Schemas' || first === 'ResourceTypes') {
    if (method !== 'GET') throw notAllowed(method, 'GET');
    const list = first === 'Schemas' ? schemas(ctx.baseUrl) : resourceTypes(ctx.baseUrl);
    return {
      status: 200,
      body: second === undefined ? discoveryList(list) : byId<{ id: string }>(list, second, first === 'Schemas' ? 'schema' : 'resource type'),
    };
  }
  if (first === 'Bulk' || first === 'Me') throw new ScimError(501, `${first} is not supported`);

  const resource = Object.hasOwn(RESOURCES, first) ? RESOURCES[first] : undefined;
  if (!resource) throw new ScimError(404, 'no such SCIM endpoint');
  if (second === undefined) {
    if (method === 'GET') return { status: 200, body: await resource.list(ctx, listParams(Object.fromEntries(request.query))) };
    if (method === 'POST') return resourceAnswer(await resource.create(ctx, request.body), 201);
    throw notAllowed(method, 'GET, POST');
  }
  if (second === '.search') {
    // RFC 7644 §3.4.3: the query's parameters in a SearchRequest body.
    if (method !== 'POST') throw notAllowed(method, 'POST');
    // `attributes` and `excludedAttributes` are accepted and ignored, as on GET: every attribute is returned.
    const body = (request.body ?? {}) as Record<string, unknown>;
    return { status: 200, body: await resource.list(ctx, listParams(body)) };
  }
  switch (method) {
    case 'GET':
      return resourceAnswer(await resource.get(ctx, second));
    case 'PUT':
      return resourceAnswer(await resource.replace(ctx, second, request.body, request.ifMatch));
    case 'PATCH':
      return resourceAnswer(await resource.patch(ctx, second, request.body, request.ifMatch));
    case 'DELETE':
      await resource.remove(ctx, second, request.ifMatch);
      return { status: 204 };
    default:
      throw notAllowed(method, 'GET, PUT, PATCH, DELETE');
  }
}

/** The methods that carry a body here. */
export const hasBody = (method: string) => method === 'POST' || method === 'PUT' || method === 'PATCH';
