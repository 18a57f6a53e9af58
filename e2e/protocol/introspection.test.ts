// Token introspection (RFC 7662): who may ask, and what inactive looks like.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { basic, discover, makeClient, post, signIn } from '../support/fixtures.ts';

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
  const { token } = await resourceServerToken();
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
