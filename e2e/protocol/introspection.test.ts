// runs-on: everywhere
// Token introspection (RFC 7662): who may ask, and what inactive looks like.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { basic, codeFlow, discover, makeClient, post, signIn, storedClient } from '../support/fixtures.ts';

async function userTokens() {
  const client = await makeClient();
  return { client, ...(await signIn(client)) };
}

async function resourceServerToken() {
  const rs = await makeClient({ grantTypes: ['client_credentials'], redirectUris: [], scopes: ['introspect'], resourceServer: true });
  const token = await oidc.clientCredentialsGrant(await discover(rs), { scope: 'introspect' });
  return { rs, token: token.access_token };
}

test('without any authorisation: 401 with WWW-Authenticate', async () => {
  const response = await post('/oauth/introspect', { token: 'whatever' });
  assert.equal(response.status, 401);
  assert.ok(response.headers.get('www-authenticate'));
  const body = await response.json();
  assert.equal(typeof body.error, 'string');
  assert.equal(typeof body.error_description, 'string');
});

test('an invalid Bearer token: 401 invalid_token with a Bearer challenge', async () => {
  const response = await post('/oauth/introspect', { token: 'whatever' }, { authorization: 'Bearer not-a-token' });
  assert.equal(response.status, 401);
  assert.match(response.headers.get('www-authenticate')!, /^Bearer .*error="invalid_token"/);
  assert.equal((await response.json()).error, 'invalid_token');
});

test("a user's access token (no introspect scope) may not introspect", async () => {
  const { tokens } = await userTokens();
  const response = await post('/oauth/introspect', { token: tokens.access_token }, { authorization: `Bearer ${tokens.access_token}` });
  assert.equal(response.status, 403);
  assert.match(response.headers.get('www-authenticate')!, /insufficient_scope/);
});

test('a resource server Bearer token introspects any access and refresh token', async () => {
  const { user, client, tokens } = await userTokens();
  const { rs, token } = await resourceServerToken();
  const access = await (await post('/oauth/introspect', { token: tokens.access_token }, { authorization: `Bearer ${token}` })).json();
  assert.equal(access.active, true);
  assert.equal(access.client_id, client.id);
  assert.equal(access.username, user.username);
  assert.equal(access.token_type, 'Bearer');
  // token_type_hint is only a hint (RFC 7662 §2.1): a wrong one still finds the token.
  const refresh = await (
    await post('/oauth/introspect', { token: tokens.refresh_token!, token_type_hint: 'access_token' }, { authorization: `Bearer ${token}` })
  ).json();
  assert.equal(refresh.active, true);
  assert.equal(refresh.token_type, undefined);
  assert.equal(refresh.sub, user.id);
  // The same resource server authenticated with its secret (client authentication, RFC 7662 §2.1).
  const bySecret = await (await post('/oauth/introspect', { token: tokens.access_token }, { authorization: basic(rs.id, rs.clientSecret!) })).json();
  assert.equal(bySecret.active, true);
  assert.equal(bySecret.client_id, client.id);
});

// RFC 7662 §2.1 and §4: the endpoint must authorise its caller. A public client
// sends only a client_id (token_endpoint_auth_method none), which anyone can send:
// whatever its stored row says, it is no resource server, and another client's
// token is, to it, one it "is not allowed to introspect" (§2.2): {"active":false}.
test("a public client flagged as a resource server (a row from before the rule) learns nothing of another client's tokens", async () => {
  const { tokens } = await userTokens();
  const rs = await storedClient({ confidential: false, resourceServer: true, grantTypes: ['authorization_code'], scope: 'openid introspect' });
  for (const [token, hint] of [
    [tokens.access_token, 'access_token'],
    [tokens.refresh_token!, 'refresh_token'],
  ]) {
    const response = await post('/oauth/introspect', { token, token_type_hint: hint, client_id: rs.id });
    assert.equal(response.status, 200, hint);
    assert.deepEqual(await response.json(), { active: false }, hint);
  }
});

test("a person's token never carries the introspect scope, even from a stored registration that offers it", async () => {
  const rs = await storedClient({
    confidential: true,
    resourceServer: true,
    grantTypes: ['authorization_code', 'client_credentials'],
    scope: 'openid introspect',
  });
  const { callback } = await codeFlow(rs, 'openid introspect');
  // RFC 6749 §4.1.2.1: the scope is not one this client may request.
  assert.equal(callback.searchParams.get('error'), 'invalid_scope', `expected invalid_scope, got ${callback}`);
  assert.equal(callback.searchParams.get('code'), null);
  // Nor does the client get it for itself while it also signs people in (the grant is its alone only with client_credentials alone).
  const response = await post('/oauth/token', { grant_type: 'client_credentials', scope: 'introspect' }, { authorization: basic(rs.id, rs.clientSecret!) });
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error, 'invalid_scope');
});

test('unknown, revoked and malformed tokens answer exactly {"active":false}', async () => {
  const { client, config, tokens } = await userTokens();
  const auth = { authorization: basic(client.id, client.clientSecret!) };
  for (const token of ['', 'x', 'a'.repeat(43), 'ey.ey.sig', '%00%ff']) {
    const response = await post('/oauth/introspect', { token: token || 'missing' }, auth);
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { active: false });
  }
  await oidc.tokenRevocation(config, tokens.access_token);
  assert.deepEqual(await (await post('/oauth/introspect', { token: tokens.access_token }, auth)).json(), { active: false });
});

test("a client that is not a resource server cannot introspect another client's tokens", async () => {
  const { tokens } = await userTokens();
  const other = await makeClient();
  const body = await (await post('/oauth/introspect', { token: tokens.access_token }, { authorization: basic(other.id, other.clientSecret!) })).json();
  assert.deepEqual(body, { active: false });
});

test('a missing token parameter is invalid_request', async () => {
  const { token } = await resourceServerToken();
  const response = await post('/oauth/introspect', {}, { authorization: `Bearer ${token}` });
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error, 'invalid_request');
});
