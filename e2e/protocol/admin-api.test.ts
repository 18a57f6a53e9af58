// runs-on: databases
// The admin JSON API over HTTP: who may call it (admin-API client tokens, the portal session), what it does, how it fails.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import * as oidc from 'openid-client';
import { insertClient } from '../../lib/clients/repository.ts';
import { database } from '../../lib/db/database.ts';
import { hashClientSecret } from '../../lib/oidc/client-secret.ts';
import { registerClient } from '../../lib/clients/manage.ts';
import { adminRouteExports } from '../../lib/surfaces/admin-api/testing.ts';
import { adminToken, api, clientCredentials, makeAdminApiClient, portalAdmin, portalSignIn } from '../support/admin-api.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { baseUrl, basic, databaseUrl, discover, makeClient, makeUser, pkce, post, redirectUri, signIn } from '../support/fixtures.ts';

const loopback = /^(127\.0\.0\.1|::1)$/;
const unique = () => randomBytes(5).toString('hex');

test('an admin-API client gets the admin scope with client_credentials; a client not flagged for it gets invalid_scope', async () => {
  const automation = await makeAdminApiClient();
  const token = await adminToken(automation);
  assert.equal((await api('GET', '/api/admin/users', { token })).status, 200);

  const resourceServer = await makeClient({ grantTypes: ['client_credentials'], redirectUris: [], scopes: ['introspect'], resourceServer: true });
  const refused = await clientCredentials(resourceServer, 'admin');
  assert.equal(refused.status, 400);
  assert.equal(refused.body.error, 'invalid_scope');
  assert.equal(refused.body.access_token, undefined);
});

test("a person's token never carries the admin scope: refused at authorization, refused by the registration rules, refused by the API", async () => {
  // A code-flow client asks for it: the provider refuses the request (it is not among the client's scopes).
  const web = await makeClient();
  const config = await discover(web);
  const { challenge } = await pkce();
  const asked = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid admin',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const { location } = await new TestBrowser(baseUrl).navigate(asked);
  assert.equal(location?.searchParams.get('error'), 'invalid_scope');
  assert.equal(location?.searchParams.get('code'), null);

  // An admin-API client may not have the code grant beside the admin scope.
  await assert.rejects(
    registerClient(database(databaseUrl), {
      name: 'Both',
      grantTypes: ['authorization_code', 'client_credentials'],
      redirectUris: [redirectUri],
      scopes: ['openid', 'admin'],
      adminApi: true,
    }),
    /client_credentials grant only/,
  );

  // Written around those rules, straight into the table: the provider refuses the client altogether.
  const id = `sneaky-${unique()}`;
  const secret = randomBytes(32).toString('base64url');
  await insertClient(database(databaseUrl), {
    id,
    name: 'Sneaky',
    secretHash: hashClientSecret(secret),
    redirectUris: [redirectUri],
    postLogoutRedirectUris: [],
    grantTypes: ['authorization_code', 'client_credentials'],
    scope: 'openid admin',
    tokenEndpointAuthMethod: 'client_secret_basic',
    applicationType: 'web',
    logoUri: null,
    firstParty: true,
    resourceServer: false,
    adminApi: true,
    idTokenSignedResponseAlg: 'ES256',
  });
  const sneaky = new URL('/oauth/authorize', baseUrl);
  sneaky.search = new URLSearchParams({
    client_id: id,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid admin',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  }).toString();
  const answer = await new TestBrowser(baseUrl).navigate(sneaky);
  assert.equal(answer.location, undefined, 'no code goes back to the client');
  assert.match(await answer.response.text(), /invalid_client_metadata/);
  assert.equal((await clientCredentials({ id, clientSecret: secret }, 'admin')).body.error, 'invalid_client_metadata');

  // A person's access token, whatever it carries, is not an admin API credential.
  const { tokens } = await signIn(web, 'openid profile');
  const response = await api('GET', '/api/admin/users', { token: tokens.access_token });
  assert.equal(response.status, 403);
  assert.match(response.headers.get('www-authenticate')!, /error="insufficient_scope"/);
});

test('over the API: a client is created and its secret, shown once, works at /oauth/token; rotated, the old one stops; disabled, then deleted', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const created = await api('POST', '/api/admin/clients', {
    token,
    json: { client_name: 'Reports job', grant_types: ['client_credentials'], scope: 'openid' },
  });
  assert.equal(created.status, 201);
  assert.equal(created.headers.get('cache-control'), 'no-store');
  const { client_id: id, client_secret: secret } = created.body;
  assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(created.body.client_type, 'confidential');
  assert.equal((await clientCredentials({ id, clientSecret: secret })).status, 200, 'the new secret works');

  const shown = await api('GET', `/api/admin/clients/${id}`, { token });
  assert.equal(shown.status, 200);
  assert.equal(shown.body.client_secret, undefined, 'never shown again');
  assert.doesNotMatch(JSON.stringify(shown.body), /hash/i);
  const listed = await api('GET', `/api/admin/clients?q=${encodeURIComponent(id)}&per_page=5`, { token });
  assert.deepEqual(
    listed.body.data.map((c: { client_id: string }) => c.client_id),
    [id],
  );
  assert.equal(listed.body.total, 1);

  const renamed = await api('PATCH', `/api/admin/clients/${id}`, { token, json: { client_name: 'Nightly reports' } });
  assert.equal(renamed.body.client_name, 'Nightly reports');
  assert.deepEqual(renamed.body.grant_types, ['client_credentials'], 'the rest stays');
  assert.equal((await api('PATCH', `/api/admin/clients/${id}`, { token, json: { client_type: 'public' } })).status, 409);

  const rotated = await api('POST', `/api/admin/clients/${id}/secret`, { token });
  assert.equal(rotated.status, 200);
  assert.notEqual(rotated.body.client_secret, secret);
  assert.equal((await clientCredentials({ id, clientSecret: secret })).body.error, 'invalid_client', 'the old secret stops at once');
  assert.equal((await clientCredentials({ id, clientSecret: rotated.body.client_secret })).status, 200);

  assert.equal((await api('POST', `/api/admin/clients/${id}/disable`, { token })).body.enabled, false);
  assert.equal((await clientCredentials({ id, clientSecret: rotated.body.client_secret })).body.error, 'invalid_client');
  assert.equal((await api('POST', `/api/admin/clients/${id}/enable`, { token })).body.enabled, true);
  const deleted = await api('DELETE', `/api/admin/clients/${id}`, { token });
  assert.equal(deleted.status, 204);
  assert.equal((await api('GET', `/api/admin/clients/${id}`, { token })).status, 404);
});

test('over the API: id_token_signed_response_alg is ES256 for a new client unless RS256 is asked for; a PATCH switches it and the next ID token follows; anything else is 400', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const body = { client_name: 'Signed', redirect_uris: [redirectUri] };
  const fresh = await api('POST', '/api/admin/clients', { token, json: body });
  assert.equal(fresh.status, 201);
  assert.equal(fresh.body.id_token_signed_response_alg, 'ES256');
  const legacy = await api('POST', '/api/admin/clients', { token, json: { ...body, id_token_signed_response_alg: 'RS256' } });
  assert.equal(legacy.body.id_token_signed_response_alg, 'RS256');
  const renamed = await api('PATCH', `/api/admin/clients/${legacy.body.client_id}`, { token, json: { client_name: 'Signed, renamed' } });
  assert.equal(renamed.body.id_token_signed_response_alg, 'RS256', 'a PATCH without it keeps it');

  const client = { id: legacy.body.client_id as string, clientSecret: legacy.body.client_secret as string, tokenEndpointAuthMethod: 'client_secret_basic' };
  const algOf = async () => decodeProtectedHeader((await signIn(client as Parameters<typeof signIn>[0])).tokens.id_token!).alg;
  assert.equal(await algOf(), 'RS256');
  const switched = await api('PATCH', `/api/admin/clients/${client.id}`, { token, json: { id_token_signed_response_alg: 'ES256' } });
  assert.equal(switched.status, 200);
  assert.equal(switched.body.id_token_signed_response_alg, 'ES256');
  assert.equal(await algOf(), 'ES256');

  for (const bad of ['HS256', 'none', 'es256', 256]) {
    const refused = await api('POST', '/api/admin/clients', { token, json: { ...body, id_token_signed_response_alg: bad } });
    assert.equal(refused.status, 400, String(bad));
    assert.equal(refused.body.error, 'invalid_request');
    assert.match(refused.body.error_description, /id_token_signed_response_alg/);
    assert.equal((await api('PATCH', `/api/admin/clients/${client.id}`, { token, json: { id_token_signed_response_alg: bad } })).status, 400);
  }
  assert.equal((await api('GET', `/api/admin/clients/${client.id}`, { token })).body.id_token_signed_response_alg, 'ES256', 'a refused PATCH changes nothing');

  const openapi = await api('GET', '/api/admin/openapi.json', { token });
  const schemas = openapi.body.components.schemas;
  for (const name of ['Client', 'NewClient', 'ClientPatch']) {
    assert.deepEqual(new Set(schemas[name].properties.id_token_signed_response_alg.enum), new Set(['ES256', 'RS256']), name);
  }
  for (const id of [fresh.body.client_id, client.id]) assert.equal((await api('DELETE', `/api/admin/clients/${id}`, { token })).status, 204);
});

test('over the API: a public resource server and the introspect scope beside a person-facing grant are 400, by POST and by PATCH', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const publicRs = await api('POST', '/api/admin/clients', {
    token,
    json: { client_name: 'Orders', client_type: 'public', redirect_uris: [redirectUri], scope: 'openid introspect', resource_server: true },
  });
  assert.equal(publicRs.status, 400);
  assert.equal(publicRs.body.error, 'invalid_request');
  assert.match(publicRs.body.error_description, /body\.resource_server: Only confidential clients can be resource servers/);
  assert.match(publicRs.body.error_description, /body\.grant_types: A client with the introspect scope uses the client_credentials grant only/);

  const spa = await api('POST', '/api/admin/clients', {
    token,
    json: { client_name: 'SPA', client_type: 'public', redirect_uris: [redirectUri], scope: 'openid' },
  });
  assert.equal(spa.status, 201);
  const flagged = await api('PATCH', `/api/admin/clients/${spa.body.client_id}`, { token, json: { resource_server: true } });
  assert.equal(flagged.status, 400);
  assert.match(flagged.body.error_description, /resource_server: Only confidential clients/);

  const web = await api('POST', '/api/admin/clients', { token, json: { client_name: 'Web', redirect_uris: [redirectUri], resource_server: true } });
  assert.equal(web.status, 201, 'a confidential resource server that also signs people in');
  const widened = await api('PATCH', `/api/admin/clients/${web.body.client_id}`, { token, json: { scope: 'openid introspect' } });
  assert.equal(widened.status, 400);
  assert.match(widened.body.error_description, /grant_types: A client with the introspect scope uses the client_credentials grant only/);
  assert.equal(
    (await api('GET', `/api/admin/clients/${web.body.client_id}`, { token })).body.scope,
    'openid profile email offline_access',
    'a refused PATCH changes nothing',
  );
  for (const id of [spa.body.client_id, web.body.client_id]) assert.equal((await api('DELETE', `/api/admin/clients/${id}`, { token })).status, 204);
});

test("over the API: a user is created with a generated password that signs them in; their sessions and grants are listed; disabled, they end; it's all in the audit log", async () => {
  const automation = await makeAdminApiClient();
  const token = await adminToken(automation);
  const username = `api-${unique()}`;
  const created = await api('POST', '/api/admin/users', { token, json: { username, email: `${username}@example.test`, name: 'Api Person' } });
  assert.equal(created.status, 201);
  assert.match(created.body.password, /^[A-Za-z0-9_-]{24}$/, 'generated, shown once');
  const { id } = created.body;

  const app = await makeClient();
  const config = await discover(app);
  const { challenge } = await pkce();
  await authorize(
    new TestBrowser(baseUrl),
    oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' }),
    { username, password: created.body.password },
  );
  const sessions = await api('GET', `/api/admin/users/${id}/sessions`, { token });
  assert.equal(sessions.body.data.length, 1);
  assert.deepEqual(sessions.body.data[0].apps, [app.name]);
  const grants = await api('GET', `/api/admin/users/${id}/grants`, { token });
  assert.deepEqual(
    grants.body.data.map((g: { client_id: string; scope: string }) => [g.client_id, g.scope]),
    [[app.id, 'openid']],
  );

  const profile = await api('PATCH', `/api/admin/users/${id}`, { token, json: { name: 'Renamed Person' } });
  assert.equal(profile.body.name, 'Renamed Person');
  assert.equal(profile.body.email, `${username}@example.test`, 'the email stays');
  const password = await api('PUT', `/api/admin/users/${id}/password`, { token, json: { password: 'a typed password' } });
  assert.deepEqual(password.body, { generated: false, ended_sessions: 1 }, 'the session signed in with the old password ends');
  assert.deepEqual((await api('GET', `/api/admin/users/${id}/sessions`, { token })).body.data, []);

  const disabled = await api('POST', `/api/admin/users/${id}/disable`, { token });
  assert.equal(disabled.status, 200);
  assert.equal(disabled.body.disabled, true);
  assert.deepEqual((await api('GET', `/api/admin/users/${id}/sessions`, { token })).body.data, []);
  assert.deepEqual((await api('GET', `/api/admin/users/${id}/grants`, { token })).body.data, []);

  const log = await api('GET', `/api/admin/audit-events?actor=${encodeURIComponent(`client:${automation.id}`)}&per_page=10`, { token });
  assert.equal(log.status, 200);
  assert.deepEqual(log.body.data.map((e: { action: string }) => e.action).sort(), [
    'session.ended',
    'user.created',
    'user.disabled',
    'user.password_changed',
    'user.updated',
  ]);
  for (const event of log.body.data) {
    assert.deepEqual(event.actor, { id: null, username: `client:${automation.id}`, role: 'admin' });
    assert.deepEqual(event.target, { type: 'user', id, label: username });
    assert.match(event.ip, loopback);
  }
  assert.deepEqual(log.body.data.find((e: { action: string }) => e.action === 'user.created').details, {
    role: 'user',
    email: `${username}@example.test`,
    generated: true,
  });
  assert.doesNotMatch(JSON.stringify(log.body), new RegExp(created.body.password));
  const byAction = await api('GET', `/api/admin/audit-events?action=user.disabled&target=${id}`, { token });
  assert.deepEqual(
    byAction.body.data.map((e: { action: string }) => e.action),
    ['user.disabled'],
  );
});

test('over the API: deleting a user ends their tokens and grants, leaves a pseudonymous audit entry, and a second DELETE is 404', async () => {
  const automation = await makeAdminApiClient();
  const token = await adminToken(automation);
  const app = await makeClient();
  const { user, tokens } = await signIn(app);
  const introspect = async () => (await post('/oauth/introspect', { token: tokens.access_token }, { authorization: basic(app.id, app.clientSecret!) })).json();
  assert.equal((await introspect()).active, true);

  const deleted = await api('DELETE', `/api/admin/users/${user.id}`, { token });
  assert.equal(deleted.status, 204);
  assert.deepEqual(await introspect(), { active: false }, 'the access token ended with the account');
  assert.equal((await api('GET', `/api/admin/users/${user.id}`, { token })).status, 404);
  assert.equal((await api('DELETE', `/api/admin/users/${user.id}`, { token })).status, 404);
  const log = await api('GET', `/api/admin/audit-events?action=user.deleted&target=${user.id}`, { token });
  assert.deepEqual(
    log.body.data.map((e: { actor: { username: string }; target: { label: string | null } }) => [e.actor.username, e.target.label]),
    [[`client:${automation.id}`, null]],
    'the admin named, the person by id only',
  );
});

test('no credentials: 401 with a Bearer challenge; a bad token: 401 invalid_token; every error in the one shape', async () => {
  for (const [method, path] of [
    ['GET', '/api/admin/clients'],
    ['POST', '/api/admin/users'],
    ['DELETE', '/api/admin/clients/x'],
    ['GET', '/api/admin/no-such-thing'],
  ]) {
    const response = await api(method, path);
    assert.equal(response.status, 401, `${method} ${path}`);
    assert.match(response.headers.get('www-authenticate')!, /^Bearer realm="/);
    assert.equal(response.body.error, 'unauthorized');
    assert.equal(typeof response.body.error_description, 'string');
    assert.equal(response.headers.get('cache-control'), 'no-store');
  }
  const bad = await api('GET', '/api/admin/users', { token: 'not-a-token' });
  assert.equal(bad.status, 401);
  assert.match(bad.headers.get('www-authenticate')!, /error="invalid_token"/);
});

test('a token without the admin scope: 403 insufficient_scope', async () => {
  const resourceServer = await makeClient({ grantTypes: ['client_credentials'], redirectUris: [], scopes: ['introspect'], resourceServer: true });
  const { body } = await clientCredentials(resourceServer, 'introspect');
  const response = await api('GET', '/api/admin/clients', { token: body.access_token });
  assert.equal(response.status, 403);
  assert.equal(response.body.error, 'forbidden');
  assert.match(response.headers.get('www-authenticate')!, /error="insufficient_scope".*scope="admin"/);
});

test('malformed JSON and the wrong content type: 400; unknown ids: 404; a taken username: 409', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const malformed = await api('POST', '/api/admin/users', { token, raw: '{"username": "x", "password": "hunter2hunter2"' });
  assert.equal(malformed.status, 400);
  assert.deepEqual(malformed.body, { error: 'invalid_request', error_description: 'the request body is not valid JSON' });
  assert.equal((await api('POST', '/api/admin/users', { token, raw: '{}', headers: { 'content-type': 'text/plain' } })).body.error, 'invalid_request');
  const invalid = await api('POST', '/api/admin/clients', { token, json: { client_name: 'x', redirect_uris: ['http://example.com/cb'] } });
  assert.equal(invalid.status, 400);
  assert.match(invalid.body.error_description, /redirect_uris\.0: .*must use https/);
  assert.equal((await api('POST', '/api/admin/users', { token, json: { username: 'x', pasword: 'typo in a field name' } })).status, 400);

  for (const path of [
    '/api/admin',
    '/api/admin/clients/no-such-client',
    '/api/admin/users/no-such-user',
    '/api/admin/users/no-such-user/sessions',
    '/api/admin/no-such-thing',
  ]) {
    const response = await api('GET', path, { token });
    assert.equal(response.status, 404, path);
    assert.equal(response.body.error, 'not_found');
  }
  const user = await makeUser();
  assert.equal((await api('DELETE', `/api/admin/users/${user.id}/grants/no-such-client`, { token })).status, 404);

  const taken = await api('POST', '/api/admin/users', { token, json: { username: user.username, password: 'a fine password' } });
  assert.equal(taken.status, 409);
  assert.equal(taken.body.error, 'conflict');
});

test("the portal session: an admin reads and changes from the portal's own origin; another origin, or none, is refused; a non-admin is 403", async () => {
  const { admin, browser } = await portalAdmin();
  assert.equal((await api('GET', '/api/admin/users?per_page=1', { browser })).status, 200);
  const username = `cookie-${unique()}`;
  for (const headers of [{}, { origin: 'http://evil.example' }, { origin: 'null' }] as Record<string, string>[]) {
    const refused = await api('POST', '/api/admin/users', { browser, headers, json: { username } });
    assert.equal(refused.status, 403, JSON.stringify(headers));
    assert.equal(refused.body.error, 'forbidden');
  }
  const created = await api('POST', '/api/admin/users', { browser, headers: { origin: baseUrl }, json: { username } });
  assert.equal(created.status, 201);
  const [event] = (await api('GET', `/api/admin/audit-events?action=user.created&target=${username}`, { browser })).body.data;
  assert.deepEqual(event.actor, { id: admin.id, username: admin.username, role: 'admin' });
  const self = await api('POST', `/api/admin/users/${admin.id}/disable`, { browser, headers: { origin: baseUrl } });
  assert.equal(self.status, 403, 'not oneself');

  const { browser: someone, landing } = await portalSignIn(await makeUser());
  assert.equal(landing, 403);
  assert.equal((await api('GET', '/api/admin/users', { browser: someone })).status, 403);
});

test('the OpenAPI document parses and documents every route file', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const response = await fetch(new URL('/api/admin/openapi.json', baseUrl), { headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.status, 200);
  const document = JSON.parse(await response.text());
  assert.match(document.openapi, /^3\.1\./);
  assert.equal(document.servers[0].url, baseUrl);
  assert.ok(document.components.securitySchemes.bearerToken && document.components.securitySchemes.portalSession);
  const routes = adminRouteExports();
  assert.ok(routes.length >= 20);
  for (const route of routes)
    assert.ok(document.paths[route.path]?.[route.method.toLowerCase()], `${route.method} ${route.path} (${route.file}) is documented`);
  assert.equal((await fetch(new URL('/api/admin/openapi.json', baseUrl))).status, 401);
});
