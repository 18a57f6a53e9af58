/**
 * The SCIM endpoints (RFC 7644 §3.2) as a table from method and path to the use cases, without HTTP: the
 * surface (lib/surfaces/scim/route.ts) authenticates the provisioning client, reads the body and writes the
 * answer. Paths are relative to /scim/v2; bulk (`/Bulk`) and `/Me` are not served (501, as §3.7 and §3.11 allow).
 */
import { attributeSelection, selectAttributes, type AttributeSelection } from './attributes.ts';
import { ScimError, scimErrorOf } from './errors.ts';
import { byId, discoveryList, resourceTypes, schemas, serviceProviderConfig } from './discovery.ts';
import { createGroupResource, getGroup, GROUP_SCHEMA, listGroups, patchGroup, removeGroup, replaceGroup } from './groups.ts';
import { listParams, type Json, type ScimContext } from './resources.ts';
import { createUser, getUser, listUsers, patchUser, removeUser, replaceUser, USER_SCHEMA } from './users.ts';

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

/**
 * A resource's answer: the representation as `selection` asks (RFC 7644 §3.9: on every operation that returns
 * one), with the whole resource's version as its ETag and, when created, its location.
 */
function resourceAnswer(resource: Json & { meta: Json }, schema: string, selection: AttributeSelection, status = 200): ScimAnswer {
  return {
    status,
    body: selectAttributes(resource, selection, schema),
    etag: resource.meta.version as string,
    ...(status === 201 ? { location: resource.meta.location as string } : {}),
  };
}

/** A ListResponse with each of its Resources as `selection` asks. */
function listAnswer(list: { Resources: Json[] }, schema: string, selection: AttributeSelection): ScimAnswer {
  return { status: 200, body: { ...list, Resources: list.Resources.map((resource) => selectAttributes(resource, selection, schema)) } };
}

type Resource = {
  schema: string;
  list: typeof listUsers;
  get: typeof getUser;
  create: typeof createUser;
  replace: typeof replaceUser;
  patch: typeof patchUser;
  remove: typeof removeUser;
};

const RESOURCES: Record<string, Resource> = {
  Users: { schema: USER_SCHEMA, list: listUsers, get: getUser, create: createUser, replace: replaceUser, patch: patchUser, remove: removeUser },
  Groups: { schema: GROUP_SCHEMA, list: listGroups, get: getGroup, create: createGroupResource, replace: replaceGroup, patch: patchGroup, remove: removeGroup },
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
  // RFC 7644 §3.7: bulk is optional (ServiceProviderConfig says bulk.supported false); §3.11: /Me names the
  // User the token authenticates, and a provisioning client's token is no User's.
  if (first === 'Bulk') throw new ScimError(501, 'bulk operations are not supported: see ServiceProviderConfig bulk.supported');
  if (first === 'Me') throw new ScimError(501, '/Me is not supported: a provisioning token is no User');

  const resource = Object.hasOwn(RESOURCES, first) ? RESOURCES[first] : undefined;
  if (!resource) throw new ScimError(404, 'no such SCIM endpoint');
  const query = Object.fromEntries(request.query);
  const selection = attributeSelection(query);
  const answer = (promise: Promise<Json & { meta: Json }>, status = 200) => promise.then((r) => resourceAnswer(r, resource.schema, selection, status));
  if (second === undefined) {
    if (method === 'GET') return listAnswer(await resource.list(ctx, listParams(query)), resource.schema, selection);
    if (method === 'POST') return answer(resource.create(ctx, request.body), 201);
    throw notAllowed(method, 'GET, POST');
  }
  if (second === '.search') {
    // RFC 7644 §3.4.3: the query's parameters in a SearchRequest body.
    if (method !== 'POST') throw notAllowed(method, 'POST');
    const body = (request.body ?? {}) as Record<string, unknown>;
    return listAnswer(await resource.list(ctx, listParams(body)), resource.schema, attributeSelection(body));
  }
  switch (method) {
    case 'GET':
      return answer(resource.get(ctx, second));
    case 'PUT':
      return answer(resource.replace(ctx, second, request.body, request.ifMatch));
    case 'PATCH':
      return answer(resource.patch(ctx, second, request.body, request.ifMatch));
    case 'DELETE':
      await resource.remove(ctx, second, request.ifMatch);
      return { status: 204 };
    default:
      throw notAllowed(method, 'GET, PUT, PATCH, DELETE');
  }
}

/** The methods that carry a body here. */
export const hasBody = (method: string) => method === 'POST' || method === 'PUT' || method === 'PATCH';
