// An admin's password reset ends the person's sessions: the browser that signed in with the old password gets no more codes without the new one.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { baseUrl, discover, makeClient, makeUser, pkce, redirectUri } from '../support/fixtures.ts';

async function authorizationUrl(config: oidc.Configuration, extra: Record<string, string> = {}) {
  const { challenge } = await pkce();
  return oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256', ...extra });
}

test('after PUT /api/admin/users/{id}/password, the old browser session gets neither a code with prompt=none nor one without the login form', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const client = await makeClient();
  const config = await discover(client);
  const user = await makeUser();
  const browser = new TestBrowser(baseUrl);
  const first = await authorize(browser, await authorizationUrl(config), user);
  assert.ok(first.searchParams.get('code'), 'signed in and consented');

  // The session alone gets a code: what the reset has to end.
  const silent = await browser.navigate(await authorizationUrl(config, { prompt: 'none' }));
  assert.ok(silent.location?.searchParams.get('code'), 'before the reset, prompt=none yields a code');

  const reset = await api('PUT', `/api/admin/users/${user.id}/password`, { token, json: {} });
  assert.equal(reset.status, 200);
  assert.equal(reset.body.generated, true);
  assert.equal(reset.body.ended_sessions, 1);

  const afterSilent = await browser.navigate(await authorizationUrl(config, { prompt: 'none' }));
  assert.equal(afterSilent.location?.searchParams.get('code'), null);
  assert.equal(afterSilent.location?.searchParams.get('error'), 'login_required');

  const plain = await browser.navigate(await authorizationUrl(config));
  assert.equal(plain.location, undefined, 'no redirect back to the client');
  assert.match(await plain.response.text(), /\/login"/, 'the login form, not a code');

  const sessions = await api('GET', `/api/admin/users/${user.id}/sessions`, { token });
  assert.deepEqual(sessions.body.data, []);
  const log = await api('GET', `/api/admin/audit-events?target=${user.id}&action=session.ended`, { token });
  assert.deepEqual(
    log.body.data.map((e: { details: unknown }) => e.details),
    [{ count: 1, scope: 'all' }],
  );
  assert.equal(JSON.stringify(log.body).includes(reset.body.password), false);
});

test('sign-in takes the username in any case and signs in that account; the same name in other letters cannot be created', async () => {
  const client = await makeClient();
  const config = await discover(client);
  const user = await makeUser();
  const shouted = user.username.toUpperCase();
  const { verifier, challenge } = await pkce();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' });
  const callback = await authorize(new TestBrowser(baseUrl), url, { username: shouted, password: user.password });
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
  assert.equal(tokens.claims()?.sub, user.id);

  const taken = await api('POST', '/api/admin/users', {
    token: await adminToken(await makeAdminApiClient()),
    json: { username: shouted, password: `pw-${randomBytes(8).toString('hex')}` },
  });
  assert.equal(taken.status, 409);
  assert.equal(taken.body.error, 'conflict');
});
