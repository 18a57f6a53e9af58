// The OpenAPI document against the route files on disk: every route is documented, and nothing documented is missing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openApiDocument } from './openapi.ts';
import { operations, type Operation } from './operations.ts';
import { adminRouteExports } from './testing.ts';

const document = openApiDocument('https://id.example.com');
const exported = adminRouteExports();

test('every route file under app/api/admin is an operation, documented under its own path and method', () => {
  assert.ok(exported.length >= 20, `found ${exported.length} route exports`);
  for (const route of exported) {
    const where = `${route.method} ${route.path} (${route.file})`;
    assert.ok(route.operationId, `${where}: not wrapped in adminRoute(<operation>)`);
    const operation = (operations as Record<string, Operation>)[route.operationId!];
    assert.ok(operation, `${where}: no operation ${route.operationId}`);
    assert.equal(operation.method, route.method, `${where}: ${route.operationId} is a ${operation.method}`);
    assert.equal(operation.path, route.path, `${where}: ${route.operationId} is documented at ${operation.path}`);
    const documented = (document.paths[route.path] as Record<string, { operationId: string }> | undefined)?.[route.method.toLowerCase()];
    assert.ok(documented, `${where}: missing from the OpenAPI document`);
    assert.equal(documented.operationId, route.operationId);
  }
});

test('every documented operation has its route file', () => {
  const served = new Set(exported.map((r) => `${r.method} ${r.path}`));
  for (const [id, operation] of Object.entries(operations))
    assert.ok(served.has(`${operation.method} ${operation.path}`), `${id}: no route file serves ${operation.method} ${operation.path}`);
});

test('the document: OpenAPI 3.1, both kinds of authorisation, every $ref resolvable, errors in the one model', () => {
  const text = JSON.stringify(document);
  const parsed = JSON.parse(text) as typeof document;
  assert.match(parsed.openapi, /^3\.1\./);
  assert.deepEqual(parsed.security, [{ bearerToken: ['admin'] }, { portalSession: [] }]);
  assert.equal(parsed.components.securitySchemes.bearerToken.scheme, 'bearer');
  assert.equal(parsed.components.securitySchemes.portalSession.in, 'cookie');
  for (const ref of text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) assert.ok(parsed.components.schemas[ref[1]], `dangling $ref ${ref[1]}`);
  assert.doesNotMatch(text, /#\/\$defs\//);
  for (const [path, methods] of Object.entries(parsed.paths)) {
    for (const [method, op] of Object.entries(
      methods as Record<string, { responses: Record<string, unknown>; parameters: Array<{ name: string; in: string }> }>,
    )) {
      for (const status of ['401', '403', '500']) assert.ok(op.responses[status], `${method} ${path} documents ${status}`);
      for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
        assert.ok(
          op.parameters.some((p) => p.in === 'path' && p.name === name),
          `${method} ${path} documents its path parameter ${name}`,
        );
      }
    }
  }
});

test('request bodies are documented as inputs, responses as outputs, never with a secret hash', () => {
  const schemas = document.components.schemas as Record<string, { required?: string[]; properties?: Record<string, unknown> }>;
  assert.deepEqual(schemas.NewClient.required, ['client_name'], 'defaults make the rest optional');
  assert.ok(schemas.Client.required?.includes('admin_api'));
  assert.ok(!('client_secret' in (schemas.Client.properties ?? {})));
  assert.ok('client_secret' in (schemas.CreatedClient.properties ?? {}));
  assert.doesNotMatch(JSON.stringify(document), /secret_hash|password_hash|secretHash|passwordHash/);
  const create = (document.paths['/api/admin/clients'] as Record<string, { requestBody: { content: Record<string, { schema: unknown }> } }>).post;
  assert.deepEqual(create.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/NewClient' });
});

test('id_token_signed_response_alg is documented as the closed list ES256 | RS256 wherever a client goes in or out', () => {
  const schemas = (document.components?.schemas ?? {}) as Record<string, { properties: Record<string, { enum?: string[] }>; required?: string[] }>;
  for (const name of ['Client', 'NewClient', 'ClientPatch']) {
    assert.deepEqual(schemas[name].properties.id_token_signed_response_alg.enum, ['ES256', 'RS256'], name);
  }
  assert.ok(!schemas.NewClient.required?.includes('id_token_signed_response_alg'), 'optional: ES256 by default');
});
