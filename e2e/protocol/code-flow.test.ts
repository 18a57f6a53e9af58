// runs-on: everywhere
// The whole life of a sign-in, as an openid-client relying party sees it through discovery alone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { authorize, TestBrowser } from '../support/browser.ts';
import { authorizationRequest, baseUrl, discover, makeClient, makeUser, post, redirectUri } from '../support/fixtures.ts';

test('authorize → token → userinfo → refresh → introspect → revoke → logout', async () => {
  const user = await makeUser({ name: 'Ada Lovelace' });
  const client = await makeClient({ name: 'Analytical Engine' });
  const resourceServer = await makeClient({
    name: 'Orders API',
    grantTypes: ['client_credentials'],
    redirectUris: [],
    scopes: ['introspect'],
    resourceServer: true,
  });
  const { config, verifier, state, url } = await authorizationRequest(client);
  const browser = new TestBrowser(baseUrl);

  const loginPage = await (await browser.navigate(url)).response.text();
  assert.match(loginPage, /Analytical Engine/, 'the login page names the client');

  const callback = await authorize(browser, url, user);
  assert.equal(callback.origin + callback.pathname, redirectUri);

  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  assert.equal(tokens.token_type.toLowerCase(), 'bearer');
  assert.equal(typeof tokens.expires_in, 'number');
  assert.ok(tokens.expires_in! > 0 && tokens.expires_in! <= 3600);
  assert.ok(tokens.refresh_token, 'a refresh_token for a client registered for the refresh_token grant');
  assert.ok(tokens.id_token);
  assert.deepEqual(new Set(tokens.scope!.split(' ')), new Set(['openid', 'profile', 'email']));
  const claims = tokens.claims()!;
  assert.equal(claims.sub, user.id);
  assert.equal(claims.iss, baseUrl);
  // The ID token's signature verifies against the published JWKS (OIDC Core §3.1.3.7).
  const jwks = createRemoteJWKSet(new URL('/oauth/jwks', baseUrl));
  const { payload, protectedHeader } = await jwtVerify(tokens.id_token!, jwks, { issuer: baseUrl, audience: client.id });
  assert.equal(payload.sub, user.id);
  assert.equal(protectedHeader.alg, 'ES256', "a new client's ID tokens are ES256 (e2e/protocol/id-token-signing.test.ts has both)");

  const userinfo = await oidc.fetchUserInfo(config, tokens.access_token, user.id);
  assert.equal(userinfo.preferred_username, user.username);
  assert.equal(userinfo.name, 'Ada Lovelace');
  assert.equal(userinfo.email, user.email);

  const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
  assert.notEqual(refreshed.access_token, tokens.access_token);
  assert.ok(refreshed.id_token);

  // Introspection with client authentication, by the client that owns the token.
  const own = await oidc.tokenIntrospection(config, refreshed.access_token);
  assert.equal(own.active, true);
  assert.equal(own.client_id, client.id);
  assert.equal(own.username, user.username);
  assert.equal(own.sub, user.id);
  assert.equal(own.token_type, 'Bearer');
  assert.equal(own.iss, baseUrl);
  assert.match(String(own.scope), /openid/);
  const now = Math.floor(Date.now() / 1000);
  assert.ok(Math.abs(own.iat! - now) < 60 && own.exp! > now, 'iat and exp are seconds since the epoch');

  // Introspection authorised by a resource server's Bearer access token.
  const rsConfig = await discover(resourceServer);
  const rsToken = await oidc.clientCredentialsGrant(rsConfig, { scope: 'introspect' });
  assert.equal(rsToken.scope, 'introspect');
  const byBearer = await post('/oauth/introspect', { token: refreshed.access_token }, { authorization: `Bearer ${rsToken.access_token}` });
  assert.equal(byBearer.status, 200);
  assert.equal(byBearer.headers.get('cache-control'), 'no-store');
  const bearerBody = await byBearer.json();
  const byClient = await oidc.tokenIntrospection(rsConfig, refreshed.access_token);
  assert.deepEqual(bearerBody, JSON.parse(JSON.stringify(byClient)), 'both ways of authorising give the same answer');

  // Revoking the refresh token revokes every token of its grant (RFC 7009 §2.1).
  await oidc.tokenRevocation(config, refreshed.refresh_token ?? tokens.refresh_token!);
  assert.deepEqual(await oidc.tokenIntrospection(config, refreshed.access_token), { active: false });
  await assert.rejects(oidc.fetchUserInfo(config, refreshed.access_token, user.id));

  // RP-initiated logout ends the session: the confirmation, then the registered post_logout_redirect_uri.
  const logout = oidc.buildEndSessionUrl(config, {
    id_token_hint: refreshed.id_token!,
    post_logout_redirect_uri: 'http://127.0.0.1:9/signed-out',
    state: 'bye',
  });
  const confirm = await browser.navigate(logout);
  const confirmHtml = await confirm.response.text();
  assert.match(confirmHtml, /Sign out of Gatehouse/);
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(confirmHtml)?.[1];
  assert.ok(xsrf);
  const action = /<form[^>]*action="([^"]+)"/.exec(confirmHtml)![1];
  const done = await browser.navigate(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ xsrf, logout: 'yes' }).toString(),
  });
  assert.equal(done.location?.toString(), 'http://127.0.0.1:9/signed-out?state=bye');

  // Signed out: the next authorization asks for the password again.
  const again = await browser.navigate((await authorizationRequest(client, { scope: 'openid' })).url);
  assert.match(await again.response.text(), /name="password"/);
});
