// runs-on: stores
// APIs behind Gatehouse (issue 25): openid-client asks for an API with `resource` (RFC 8707) on authorize and
// token; the API checks the JWT access token (RFC 9068) with jose from the JWKS alone; a token for API A is
// refused by API B; the person gets only the permissions their roles grant (the consent page shows no other),
// a role taken away is gone from the next token, a refresh keeps the audience, client_credentials gets what
// an admin granted the client, and an unknown resource is invalid_target. With GROUPS_ROLES_CLAIMS=on (an
// instance of its own) the groups and roles scopes put both in the ID token, userinfo and the API's token.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { createRemoteJWKSet, decodeProtectedHeader, errors as joseErrors, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { registerClient } from '../../lib/clients/manage.ts';
import { createUser } from '../../lib/users/manage.ts';
import {
  addRolePermission,
  addToGroup,
  assignRole,
  createApi,
  createGroup,
  createRole,
  grantClientPermission,
  unassignRole,
} from '../../lib/authorization/manage.ts';
import { TestBrowser } from '../support/browser.ts';
import { authorizationRequest, baseUrl, basic, databaseUrl, discover, makeClient, makeUser, post } from '../support/fixtures.ts';
import { isolatedDatabase, startInstance } from '../support/server.ts';

const unique = () => randomBytes(5).toString('hex');

/** Two APIs of this test's own: orders (JWT, 2-minute tokens, read and write) and billing (JWT). */
async function apis(db = database(databaseUrl), rolesInToken = false) {
  const id = unique();
  const orders = await createApi(db, {
    identifier: `https://orders-${id}.example.test/`,
    name: `Orders ${id}`,
    tokenLifetime: 120,
    rolesInToken,
    permissions: [
      { name: 'orders:read', description: `Read your orders ${id}` },
      { name: 'orders:write', description: `Place and cancel orders ${id}` },
    ],
  });
  const billing = await createApi(db, { identifier: `urn:billing-${id}:api`, name: `Billing ${id}`, permissions: [{ name: 'invoices:read' }] });
  const reader = await createRole(db, { name: `order-reader-${id}` });
  await addRolePermission(db, reader.name, orders.identifier, 'orders:read');
  return { orders, billing, reader };
}

/** Signs `user` in through the real forms; the consent page's HTML, and the callback. */
async function signInThrough(origin: string, url: URL, user: { username: string; password: string }) {
  const browser = new TestBrowser(origin);
  let step = await browser.navigate(url);
  let consent: string | undefined;
  for (let i = 0; i < 5 && !step.location; i++) {
    const html = await step.response.text();
    assert.equal(step.response.status, 200, html.slice(0, 300));
    if (html.includes('/login"')) step = await browser.submit(html, '/login', { username: user.username, password: user.password });
    else if (html.includes('/confirm"')) {
      consent = html;
      step = await browser.submit(html, '/confirm');
    } else assert.fail(`neither login nor consent: ${html.slice(0, 300)}`);
  }
  assert.ok(step.location, 'the flow did not return to the client');
  return { callback: step.location, consent };
}

/** openid-client's code flow for `resource`, the token asked for the same resource. */
async function codeFlowFor(client: Awaited<ReturnType<typeof makeClient>>, user: { username: string; password: string }, resource: string, scope: string) {
  const flow = await authorizationRequest(client, { scope, resource });
  const { callback, consent } = await signInThrough(baseUrl, flow.url, user);
  const tokens = await oidc.authorizationCodeGrant(flow.config, callback, { pkceCodeVerifier: flow.verifier, expectedState: flow.state }, { resource });
  return { config: flow.config, tokens, consent };
}

const jwksOf = async (origin: string) => createRemoteJWKSet(new URL('/oauth/jwks', origin));

test('a person gets a JWT access token for the API they named, with only what their roles grant, verifiable from the JWKS', async () => {
  const db = database(databaseUrl);
  const { orders, billing, reader } = await apis();
  const user = await makeUser();
  await assignRole(db, reader.name, { user: user.username });
  const client = await makeClient();

  const { tokens, consent, config } = await codeFlowFor(client, user, orders.identifier, 'openid orders:read orders:write');
  // The consent page shows the permission the role grants, in the admin's words, and not the other.
  assert.ok(consent, 'a consent page');
  assert.ok(consent.includes(orders.permissions.find((p) => p.name === 'orders:read')!.description), 'orders:read described');
  assert.ok(!consent.includes('orders:write'), 'orders:write not offered');

  const accessToken = tokens.access_token;
  assert.equal(decodeProtectedHeader(accessToken).typ, 'at+jwt');
  const jwks = await jwksOf(baseUrl);
  const { payload, protectedHeader } = await jwtVerify(accessToken, jwks, { issuer: baseUrl, audience: orders.identifier, typ: 'at+jwt' });
  assert.equal(protectedHeader.alg, 'ES256');
  assert.equal(payload.sub, user.id);
  assert.equal(payload.client_id, client.id);
  assert.equal(payload.scope, 'orders:read');
  assert.equal(typeof payload.jti, 'string');
  assert.equal(payload.exp! - payload.iat!, 120, "the API's lifetime");
  assert.equal(typeof payload.auth_time, 'number');
  assert.equal(typeof payload.acr, 'string');
  assert.deepEqual(payload.amr, ['pwd']);
  assert.equal(tokens.scope?.split(' ').includes('orders:write'), false);

  // API B's audience check refuses API A's token.
  await assert.rejects(jwtVerify(accessToken, jwks, { issuer: baseUrl, audience: billing.identifier }), joseErrors.JWTClaimValidationFailed);
  // And once it has expired, so does A's.
  await assert.rejects(
    jwtVerify(accessToken, jwks, { issuer: baseUrl, audience: orders.identifier, currentDate: new Date((payload.exp! + 60) * 1000) }),
    joseErrors.JWTExpired,
  );

  // Introspection answers the same claims (RFC 7662 §2.2).
  const introspected = await (await post('/oauth/introspect', { token: accessToken }, { authorization: basic(client.id, client.clientSecret!) })).json();
  assert.equal(introspected.active, true);
  assert.equal(introspected.aud, orders.identifier);
  assert.equal(introspected.scope, 'orders:read');
  assert.equal(introspected.sub, user.id);
  assert.equal(introspected.auth_time, payload.auth_time);

  // A refresh without `resource` keeps the audience (RFC 8707 §2.2) ...
  const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
  const again = await jwtVerify(refreshed.access_token, jwks, { issuer: baseUrl, audience: orders.identifier, typ: 'at+jwt' });
  assert.equal(again.payload.scope, 'orders:read');
  // ... and once the role is taken away, the next token goes without what it granted.
  // The change is made from this process: the server hears of it by PostgreSQL's notification or SQLite's commit
  // counter (docs/authorization.md), a few milliseconds later, so the refreshes go on until one goes without (a
  // refresh sent in between may still carry it), within a second.
  await unassignRole(db, reader.name, { user: user.username });
  let refreshToken = refreshed.refresh_token!;
  let scope: unknown = 'orders:read';
  for (const deadline = Date.now() + 1_000; scope !== undefined && Date.now() < deadline; ) {
    const after = await oidc.refreshTokenGrant(config, refreshToken);
    refreshToken = after.refresh_token!;
    scope = (await jwtVerify(after.access_token, jwks, { issuer: baseUrl, audience: orders.identifier })).payload.scope;
    if (scope !== undefined) await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.equal(scope, undefined, 'a refresh after the change goes without the permission');
});

test('a person without the role is not granted the permission, and the consent page does not offer it', async () => {
  const { orders } = await apis();
  const user = await makeUser();
  const { tokens, consent } = await codeFlowFor(await makeClient(), user, orders.identifier, 'openid orders:read orders:write');
  assert.ok(consent);
  assert.ok(!consent.includes('orders:read') && !consent.includes('orders:write'), 'no permission offered');
  const { payload } = await jwtVerify(tokens.access_token, await jwksOf(baseUrl), { issuer: baseUrl, audience: orders.identifier });
  assert.equal(payload.scope, undefined);
});

test("a consent to an API's permission is remembered for the next sign-in, as far as the person's roles still grant it", async () => {
  const db = database(databaseUrl);
  const { orders, reader } = await apis();
  const user = await makeUser();
  await assignRole(db, reader.name, { user: user.username });
  const client = await makeClient();
  const first = await codeFlowFor(client, user, orders.identifier, 'openid orders:read');
  assert.ok(first.consent, 'asked the first time');
  // Another browser, another session: not asked again, and granted.
  const second = await codeFlowFor(client, user, orders.identifier, 'openid orders:read');
  assert.equal(second.consent, undefined, 'not asked again');
  const jwks = await jwksOf(baseUrl);
  assert.equal((await jwtVerify(second.tokens.access_token, jwks, { issuer: baseUrl, audience: orders.identifier })).payload.scope, 'orders:read');
  // The role gone, the remembered consent grants nothing of it.
  await unassignRole(db, reader.name, { user: user.username });
  const third = await codeFlowFor(client, user, orders.identifier, 'openid orders:read');
  assert.equal((await jwtVerify(third.tokens.access_token, jwks, { issuer: baseUrl, audience: orders.identifier })).payload.scope, undefined);
});

test('a role through a group grants its permissions too', async () => {
  const db = database(databaseUrl);
  const { orders, reader } = await apis();
  const group = await createGroup(db, { name: `staff-${unique()}` });
  await assignRole(db, reader.name, { group: group.name });
  const user = await makeUser();
  await addToGroup(db, group.name, user.username);
  const { tokens } = await codeFlowFor(await makeClient(), user, orders.identifier, 'openid orders:read');
  const { payload } = await jwtVerify(tokens.access_token, await jwksOf(baseUrl), { issuer: baseUrl, audience: orders.identifier });
  assert.equal(payload.scope, 'orders:read');
});

test('an unknown resource is invalid_target, at authorize and at the token endpoint', async () => {
  const client = await makeClient();
  const flow = await authorizationRequest(client, { resource: `https://unknown-${unique()}.example.test/` });
  const response = await fetch(flow.url, { redirect: 'manual' });
  const location = new URL(response.headers.get('location')!);
  assert.equal(location.searchParams.get('error'), 'invalid_target');

  const machine = await makeClient({ grantTypes: ['client_credentials'], redirectUris: [], scopes: ['openid'] });
  const token = await post(
    '/oauth/token',
    { grant_type: 'client_credentials', resource: 'urn:unknown:api' },
    { authorization: basic(machine.id, machine.clientSecret!) },
  );
  assert.equal(token.status, 400);
  assert.equal((await token.json()).error, 'invalid_target');
});

test('client_credentials gets the permissions an admin granted the client, and nothing for an API it was granted none of', async () => {
  const db = database(databaseUrl);
  const { orders, billing } = await apis();
  const machine = await makeClient({ grantTypes: ['client_credentials'], redirectUris: [], scopes: ['openid'] });
  await grantClientPermission(db, machine.id, orders.identifier, 'orders:read');
  const config = await discover(machine);
  const token = await oidc.clientCredentialsGrant(config, { scope: 'orders:read orders:write', resource: orders.identifier });
  const { payload } = await jwtVerify(token.access_token, await jwksOf(baseUrl), { issuer: baseUrl, audience: orders.identifier, typ: 'at+jwt' });
  assert.equal(payload.scope, 'orders:read');
  assert.equal(payload.sub, machine.id);
  assert.equal(payload.client_id, machine.id);

  const refused = await post(
    '/oauth/token',
    { grant_type: 'client_credentials', scope: 'invoices:read', resource: billing.identifier },
    { authorization: basic(machine.id, machine.clientSecret!) },
  );
  assert.equal(refused.status, 400);
  assert.equal((await refused.json()).error, 'invalid_target');
});

test('a JWT access token is introspected by its value, and once revoked (RFC 7009) introspection says inactive', async () => {
  const db = database(databaseUrl);
  const { orders } = await apis();
  const machine = await makeClient({ grantTypes: ['client_credentials'], redirectUris: [], scopes: ['openid'] });
  await grantClientPermission(db, machine.id, orders.identifier, 'orders:read');
  const token = (await oidc.clientCredentialsGrant(await discover(machine), { scope: 'orders:read', resource: orders.identifier })).access_token;
  const auth = { authorization: basic(machine.id, machine.clientSecret!) };
  const active = await (await post('/oauth/introspect', { token }, auth)).json();
  assert.equal(active.active, true, JSON.stringify(active));
  assert.equal(active.aud, orders.identifier);
  assert.equal(active.scope, 'orders:read');
  // A JWT of the right shape that Gatehouse did not sign finds nothing.
  const [header, payload] = token.split('.');
  assert.deepEqual(await (await post('/oauth/introspect', { token: `${header}.${payload}.AAAA` }, auth)).json(), { active: false });
  assert.equal((await post('/oauth/revoke', { token }, auth)).status, 200);
  assert.deepEqual(await (await post('/oauth/introspect', { token }, auth)).json(), { active: false });
});

test('an opaque-format API gets an opaque token bound to its audience, which introspection describes', async () => {
  const db = database(databaseUrl);
  const id = unique();
  const api = await createApi(db, {
    identifier: `https://opaque-${id}.example.test`,
    name: 'Opaque',
    tokenFormat: 'opaque',
    permissions: [{ name: 'things:read' }],
  });
  const machine = await makeClient({ grantTypes: ['client_credentials'], redirectUris: [], scopes: ['openid'] });
  await grantClientPermission(db, machine.id, api.identifier, 'things:read');
  const token = await oidc.clientCredentialsGrant(await discover(machine), { scope: 'things:read', resource: api.identifier });
  assert.equal(token.access_token.split('.').length, 1, 'not a JWT');
  const introspected = await (
    await post('/oauth/introspect', { token: token.access_token }, { authorization: basic(machine.id, machine.clientSecret!) })
  ).json();
  assert.equal(introspected.active, true);
  assert.equal(introspected.aud, api.identifier);
  assert.equal(introspected.scope, 'things:read');
});

test('without GROUPS_ROLES_CLAIMS discovery lists neither scope nor claim', async () => {
  const d = await (await fetch(new URL('/.well-known/openid-configuration', baseUrl))).json();
  for (const name of ['groups', 'roles']) {
    assert.ok(!d.scopes_supported.includes(name), `scopes_supported has ${name}`);
    assert.ok(!d.claims_supported.includes(name), `claims_supported has ${name}`);
  }
});

test('GROUPS_ROLES_CLAIMS=on: the groups and roles scopes put them in the ID token, userinfo, and the token of an API that asks', async () => {
  // A database of the run's kind: on SQLite, the PostgreSQL runs repeated the SQLite run's facts.
  const { url, drop } = isolatedDatabase('groups_claims');
  const instance = await startInstance({ DATABASE_URL: url, GROUPS_ROLES_CLAIMS: 'on' });
  try {
    const db = database(url);
    const d = await (await fetch(new URL('/.well-known/openid-configuration', instance.url))).json();
    for (const name of ['groups', 'roles']) {
      assert.ok(d.scopes_supported.includes(name), `scopes_supported has ${name}`);
      assert.ok(d.claims_supported.includes(name), `claims_supported has ${name}`);
    }
    const { orders, reader } = await apis(db, true);
    const group = await createGroup(db, { name: `ops-${unique()}` });
    const password = `pw-${unique()}-${unique()}`;
    const user = await createUser(db, { username: `gr-${unique()}`, password, email: null, name: 'Group Person', role: 'user' });
    await addToGroup(db, group.name, user.username);
    await assignRole(db, reader.name, { group: group.name });
    const { client, clientSecret } = await registerClient(db, {
      name: 'Groups app',
      redirectUris: ['http://127.0.0.1:9/callback'],
      scopes: ['openid', 'profile', 'groups', 'roles', 'offline_access'],
    });
    const flow = await authorizationRequest(
      { ...client, clientSecret },
      { scope: 'openid groups roles orders:read', resource: orders.identifier },
      instance.url,
    );
    const { callback } = await signInThrough(instance.url, flow.url, { username: user.username, password });
    const tokens = await oidc.authorizationCodeGrant(
      flow.config,
      callback,
      { pkceCodeVerifier: flow.verifier, expectedState: flow.state },
      { resource: orders.identifier },
    );
    const idToken = tokens.claims()!;
    assert.deepEqual(idToken.groups, [group.name]);
    assert.deepEqual(idToken.roles, [reader.name]);
    const { payload } = await jwtVerify(tokens.access_token, await jwksOf(instance.url), { issuer: instance.url, audience: orders.identifier });
    assert.deepEqual(payload.groups, [group.name]);
    assert.deepEqual(payload.roles, [reader.name]);

    // Userinfo, with a token for it (no resource).
    const plain = await authorizationRequest({ ...client, clientSecret }, { scope: 'openid groups' }, instance.url);
    const second = await signInThrough(instance.url, plain.url, { username: user.username, password });
    const userTokens = await oidc.authorizationCodeGrant(plain.config, second.callback, { pkceCodeVerifier: plain.verifier, expectedState: plain.state });
    const info = await oidc.fetchUserInfo(plain.config, userTokens.access_token, user.id);
    assert.deepEqual(info.groups, [group.name]);
    assert.equal(info.roles, undefined, 'roles only with the roles scope');
  } finally {
    await instance.stop();
    await closeDatabase(url);
    await drop();
  }
});
