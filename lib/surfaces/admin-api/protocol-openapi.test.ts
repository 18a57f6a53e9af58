// The protocol's OpenAPI document follows the instance's settings, as discovery does; the running server's
// answers are checked against it in e2e/protocol/protocol-openapi.test.ts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NO_PROTOCOL_FEATURES, type ProtocolFeatures } from '../../oidc/protocol-features.ts';
import { protocolOpenApiDocument } from './protocol-openapi.ts';

const ALL_ON: ProtocolFeatures = {
  deviceFlow: true,
  pushedAuthorizationRequests: true,
  requestObjects: true,
  dPoP: true,
  pairwiseSubjects: true,
  claimsParameter: true,
};
// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document, read by the paths the assertions name
type Json = Record<string, any>;
const parameterNames = (document: Json) => document.paths['/oauth/authorize'].get.parameters.map((p: { name: string }) => p.name);

test('off: no device, PAR or registration paths, no DPoP scheme, no request, request_uri or claims parameters', () => {
  const document = protocolOpenApiDocument({ issuer: 'https://id.example.com', features: NO_PROTOCOL_FEATURES, registration: 'off' }) as Json;
  for (const path of ['/oauth/device', '/oauth/device/auth', '/oauth/par', '/oauth/register', '/oauth/register/{client_id}'])
    assert.equal(document.paths[path], undefined, path);
  assert.equal(document.components.securitySchemes.dpop, undefined);
  for (const name of ['request', 'request_uri', 'claims', 'dpop_jkt']) assert.ok(!parameterNames(document).includes(name), name);
  assert.deepEqual(document.components.schemas.TokenResponse.properties.token_type.enum, ['Bearer']);
});

test('on: each feature brings its paths, parameters and schemes', () => {
  const document = protocolOpenApiDocument({ issuer: 'https://id.example.com', features: ALL_ON, registration: 'token' }) as Json;
  for (const path of ['/oauth/device', '/oauth/device/auth', '/oauth/par', '/oauth/register', '/oauth/register/{client_id}'])
    assert.ok(document.paths[path], path);
  assert.deepEqual(Object.keys(document.paths['/oauth/register/{client_id}']).sort(), ['delete', 'get', 'put']);
  assert.ok(document.components.securitySchemes.dpop);
  for (const name of ['request', 'request_uri', 'claims', 'dpop_jkt']) assert.ok(parameterNames(document).includes(name), name);
  assert.deepEqual(document.components.schemas.TokenResponse.properties.token_type.enum, ['Bearer', 'DPoP']);
  assert.deepEqual(document.paths['/oauth/register'].post.security, [{ bearer: [] }], 'an initial access token is required');
  const open = protocolOpenApiDocument({ issuer: 'https://id.example.com', features: ALL_ON, registration: 'open' }) as Json;
  assert.deepEqual(open.paths['/oauth/register'].post.security, [{ bearer: [] }, {}], 'open: the token is optional');
});

test('a form POST to the authorization endpoint: answered over https, sent on as a GET over http', () => {
  const https = protocolOpenApiDocument({ issuer: 'https://id.example.com', features: NO_PROTOCOL_FEATURES, registration: 'off' }) as Json;
  assert.deepEqual(Object.keys(https.paths['/oauth/authorize'].post.responses), ['303', '400']);
  const http = protocolOpenApiDocument({ issuer: 'http://localhost:3000', features: NO_PROTOCOL_FEATURES, registration: 'off' }) as Json;
  assert.deepEqual(Object.keys(http.paths['/oauth/authorize'].post.responses), ['303']);
  assert.equal(http.servers[0].url, 'http://localhost:3000');
});
