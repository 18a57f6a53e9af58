/**
 * The admin API's OpenAPI 3.1 document, generated from the operations table
 * and its zod schemas (z.toJSONSchema: JSON Schema 2020-12, which is OpenAPI
 * 3.1's dialect). Request schemas are converted as inputs (defaults optional),
 * responses as outputs. Schemas named with `.meta({ id })` become
 * components/schemas entries; everything else is inlined.
 */
import { PERMISSIONS } from '../../admin-roles/roles.ts';
import { z } from 'zod';
import { ADMIN_SCOPE } from '../../oidc/scopes.ts';
import { ERRORS, type ErrorCode } from '../../platform/errors.ts';
import { errorBodySchema } from './errors.ts';
import { JSON_BODY_LIMIT } from './http.ts';
import { operations, type Operation } from './operations.ts';

type JsonSchema = Record<string, unknown>;

const COMPONENT = '#/components/schemas/';

/** Rewrites z.toJSONSchema's local `#/$defs/X` references to components. */
function relink(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(relink);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, key === '$ref' && typeof item === 'string' ? item.replace('#/$defs/', COMPONENT) : relink(item)]),
  );
}

/** Collects named schemas as components/schemas (also for the protocol's document, ./protocol-openapi.ts). */
export class Components {
  readonly schemas: Record<string, JsonSchema> = {};

  /** The schema as a reference (or inline, when it has no id), its named parts collected. */
  add(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
    const { $schema: _, $defs, ...root } = z.toJSONSchema(schema, { io, target: 'draft-2020-12' }) as JsonSchema & { $defs?: Record<string, JsonSchema> };
    for (const [id, def] of Object.entries($defs ?? {})) {
      const linked = relink(def) as JsonSchema;
      const known = this.schemas[id];
      if (known && JSON.stringify(known) !== JSON.stringify(linked)) throw new Error(`two different schemas are named ${id}`);
      this.schemas[id] = linked;
    }
    return relink(root) as JsonSchema;
  }
}

const errorDescriptions: Record<ErrorCode, string> = {
  invalid_request:
    'The path, query or body is not valid (the description says which field and why), or the body is not a JSON object of at most ' +
    `${JSON_BODY_LIMIT / 1024} kB sent as application/json.`,
  unauthorized: 'No valid credentials: sign in to the portal, or send a valid access token. Carries a WWW-Authenticate Bearer challenge.',
  forbidden:
    'Not allowed: not an administrator, a token without the admin scope of an admin-API client, a cookie-authenticated change from another origin, or a change the rules refuse.',
  not_found: 'No such resource.',
  conflict: 'The change conflicts with what exists (a taken username or email, a client type change, a public client has no secret).',
  method_not_allowed: 'The path exists, not with this method; the Allow header lists those it has.',
  server_error: 'Something unexpected went wrong; the description holds only the request id, which is also in X-Request-Id and the server log.',
};

function parameters(schema: z.ZodObject | undefined, where: 'path' | 'query', components: Components) {
  if (!schema) return [];
  const json = components.add(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return { name, in: where, required: where === 'path' || (json.required ?? []).includes(name), ...(description ? { description } : {}), schema: rest };
  });
}

function errorCodes(operation: Operation): ErrorCode[] {
  const input = operation.params || operation.query || operation.body || operation.upload;
  const codes = new Set<ErrorCode>([...(input ? ['invalid_request' as const] : []), 'unauthorized', 'forbidden', ...(operation.errors ?? []), 'server_error']);
  return (Object.keys(ERRORS) as ErrorCode[]).filter((code) => codes.has(code));
}

/** A body or answer that is text in other media types (an import file, an export). */
const text = ({ types, description }: { types: readonly string[]; description: string }) =>
  Object.fromEntries(types.map((type) => [type, { schema: { type: 'string', description } }]));

function describe(operation: Operation, components: Components, errorRef: JsonSchema) {
  const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
  const responses: Record<string, unknown> = {
    [operation.status]: operation.produces
      ? { description: 'OK', content: text(operation.produces) }
      : operation.response
        ? { description: operation.status === 201 ? 'Created' : 'OK', content: json(components.add(operation.response, 'output')) }
        : { description: 'No Content' },
  };
  for (const code of errorCodes(operation)) {
    responses[ERRORS[code].status] = {
      description: `${code}: ${errorDescriptions[code]}`,
      ...(code === 'unauthorized' ? { headers: { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'RFC 6750 §3 Bearer challenge.' } } } : {}),
      content: json(errorRef),
    };
  }
  return {
    operationId: Object.entries(operations).find(([, o]) => o === operation)?.[0],
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    // Which admin roles may call it (lib/admin-roles/roles.ts): the caller's role without it answers 403.
    'x-gatehouse-permission': operation.permission,
    'x-gatehouse-roles': [...PERMISSIONS[operation.permission]],
    parameters: [...parameters(operation.params, 'path', components), ...parameters(operation.query, 'query', components)],
    ...(operation.body ? { requestBody: { required: true, content: json(components.add(operation.body, 'input')) } } : {}),
    ...(operation.upload ? { requestBody: { required: true, content: text(operation.upload) } } : {}),
    responses,
  };
}

export function openApiDocument(issuer: string) {
  const components = new Components();
  const errorRef = components.add(errorBodySchema, 'output');
  const paths: Record<string, Record<string, unknown>> = {};
  for (const operation of Object.values(operations) as Operation[]) {
    (paths[operation.path] ??= {})[operation.method.toLowerCase()] = describe(operation, components, errorRef);
  }
  return {
    openapi: '3.1.1',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Gatehouse admin API',
      version: '1',
      description:
        'What the admin portal does, for automation. Authorised by an access token (client_credentials, scope ' +
        `"${ADMIN_SCOPE}", of a client flagged admin_api) or by an admin's portal session. Every answer is Cache-Control: no-store; ` +
        'every error is {"error", "error_description"} with the codes below. Names are snake_case; times are RFC 3339 UTC.',
    },
    servers: [{ url: issuer }],
    security: [{ bearerToken: [ADMIN_SCOPE] }, { portalSession: [] }],
    tags: [
      { name: 'clients', description: 'Registered clients (relying parties and APIs).' },
      { name: 'registration', description: 'Dynamic client registration: the initial access tokens clients register themselves with.' },
      { name: 'provisioning', description: 'SCIM 2.0 provisioning (/scim/v2): the tokens provisioning clients authenticate with.' },
      { name: 'users', description: 'People, their sessions and the apps they granted access to.' },
      { name: 'audit', description: 'The audit log.' },
      { name: 'connections', description: 'Identity providers people may sign in with (never their client secrets).' },
      { name: 'keys', description: 'The token signing keys and their rotation (never key material: the public keys are at /oauth/jwks).' },
      { name: 'authorization', description: "Who may do what: APIs (resource servers) and their permissions, groups, roles, and machine clients' grants." },
      { name: 'webhooks', description: 'Endpoints that get signed events (Standard Webhooks), and their deliveries.' },
      { name: 'meta', description: 'This document.' },
    ],
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        bearerToken: {
          type: 'http',
          scheme: 'bearer',
          description: `An access token from ${issuer}/oauth/token with grant_type=client_credentials and scope=${ADMIN_SCOPE}, for a client registered with admin_api (\`gatehouse client create --admin-api\`).`,
        },
        portalSession: {
          type: 'apiKey',
          in: 'cookie',
          name: `${issuer.startsWith('https:') ? '__Secure-' : ''}next-auth.session-token`,
          description: `An administrator's admin portal session. POST, PUT, PATCH and DELETE must then carry Origin: ${issuer}.`,
        },
      },
    },
  };
}
