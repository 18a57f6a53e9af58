// runs-on: everywhere
// Revocation (RFC 7009) and refresh token rotation (RFC 9700 §4.14.2).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { basic, makeClient, post, signIn } from '../support/fixtures.ts';

test('revoking an unknown token answers 200', async () => {
  const client = await makeClient();
  const response = await post('/oauth/revoke', { token: 'never-issued' }, { authorization: basic(client.id, client.clientSecret!) });
  assert.equal(response.status, 200);
});

test('revocation needs client authentication', async () => {
  const response = await post('/oauth/revoke', { token: 'anything' });
  assert.equal(response.status, 401);
  assert.ok(response.headers.get('www-authenticate'));
});

// RFC 7009 §2.1 lets the server revoke the whole grant when one of its tokens
// is revoked; oidc-provider does, so a signed-out app loses its refresh token too.
test('revoking an access token revokes its grant, refresh token included', async () => {
  const client = await makeClient();
  const { config, tokens } = await signIn(client);
  await oidc.tokenRevocation(config, tokens.access_token);
  assert.equal((await oidc.tokenIntrospection(config, tokens.access_token)).active, false);
  assert.equal((await oidc.tokenIntrospection(config, tokens.refresh_token!)).active, false);
  await assert.rejects(oidc.refreshTokenGrant(config, tokens.refresh_token!), { error: 'invalid_grant' });
});

test("a client cannot revoke another client's token", async () => {
  const client = await makeClient();
  const { config, tokens } = await signIn(client);
  const other = await makeClient();
  const response = await post('/oauth/revoke', { token: tokens.access_token }, { authorization: basic(other.id, other.clientSecret!) });
  assert.ok(response.status === 200 || response.status === 400);
  assert.equal((await oidc.tokenIntrospection(config, tokens.access_token)).active, true);
});

test('public clients get rotated refresh tokens; reusing an old one revokes the whole grant', async () => {
  const client = await makeClient({ type: 'public' });
  const { config, tokens } = await signIn(client);
  const first = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
  assert.ok(first.refresh_token);
  assert.notEqual(first.refresh_token, tokens.refresh_token, 'rotated');

  const reuse = await post('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: client.id });
  assert.equal(reuse.status, 400);
  assert.equal((await reuse.json()).error, 'invalid_grant');

  const afterReuse = await post('/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token!, client_id: client.id });
  assert.equal((await afterReuse.json()).error, 'invalid_grant', 'the rotated refresh token died with the grant');
  await assert.rejects(oidc.fetchUserInfo(config, first.access_token, oidc.skipSubjectCheck));
});
