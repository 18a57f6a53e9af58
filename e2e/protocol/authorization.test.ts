// runs-on: everywhere
// The authorization endpoint and the login and consent pages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { authorize, credentials, TestBrowser } from '../support/browser.ts';
import { baseUrl, discover, makeClient, makeUser, pkce, redirectUri } from '../support/fixtures.ts';

async function authorizationUrl(clientId: string, overrides: Record<string, string> = {}) {
  const { challenge } = await pkce();
  const url = new URL('/oauth/authorize', baseUrl);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid profile',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...overrides,
  }).toString();
  return url;
}

test('an unknown client gets an error page and no redirect', async () => {
  const response = await fetch(await authorizationUrl('no-such-client'), { redirect: 'manual' });
  assert.equal(response.status, 400);
  assert.equal(response.headers.get('location'), null);
  assert.match(response.headers.get('content-type')!, /text\/html/);
  assert.match(await response.text(), /invalid_client/);
});

test('an unregistered redirect_uri gets an error page and never redirects', async () => {
  const client = await makeClient();
  for (const uri of ['http://127.0.0.1:9/callback/', 'http://127.0.0.1:9/callback?x=1', 'https://evil.example/callback']) {
    const response = await fetch(await authorizationUrl(client.id, { redirect_uri: uri }), { redirect: 'manual' });
    assert.equal(response.status, 400, uri);
    assert.equal(response.headers.get('location'), null, uri);
    assert.match(await response.text(), /redirect_uri/, uri);
  }
});

test('denying consent sends access_denied back to the client', async () => {
  const user = await makeUser();
  const client = await makeClient();
  const callback = await authorize(new TestBrowser(baseUrl), await authorizationUrl(client.id, { state: 'st' }), user, { consent: 'deny' });
  assert.equal(callback.searchParams.get('error'), 'access_denied');
  assert.equal(callback.searchParams.get('state'), 'st');
  assert.equal(callback.searchParams.get('code'), null);
});

test('a first-party client skips the consent screen', async () => {
  const user = await makeUser();
  const client = await makeClient({ firstParty: true });
  const browser = new TestBrowser(baseUrl);
  const login = await browser.navigate(await authorizationUrl(client.id));
  const done = await browser.submit(await login.response.text(), '/login', credentials(user));
  assert.ok(done.location, 'straight back to the client after login');
  assert.ok(done.location.searchParams.get('code'));
});

test('consent is remembered: a second request from the same browser needs neither login nor consent', async () => {
  const user = await makeUser();
  const client = await makeClient();
  const browser = new TestBrowser(baseUrl);
  await authorize(browser, await authorizationUrl(client.id), user);
  const second = await browser.navigate(await authorizationUrl(client.id));
  assert.ok(second.location?.searchParams.get('code'));
});

test('a wrong password and an unknown username get the same answer', async () => {
  const user = await makeUser();
  const client = await makeClient();
  const answers: string[] = [];
  for (const credentials of [
    { username: user.username, password: 'wrong-password' },
    { username: 'nobody-by-this-name', password: 'wrong-password' },
  ]) {
    const browser = new TestBrowser(baseUrl);
    const login = await browser.navigate(await authorizationUrl(client.id));
    const after = await browser.submit(await login.response.text(), '/login', credentials);
    assert.equal(after.location, undefined);
    const html = await after.response.text();
    assert.match(html, /username or password is not right/);
    assert.doesNotMatch(html, /wrong-password/, 'the password is never echoed');
    answers.push(after.url.search);
  }
  assert.equal(answers[0], answers[1]);
});

test('a disabled user cannot sign in: told so after the right password, the generic answer after a wrong one', async () => {
  const { disableUser } = await import('../../lib/users/manage.ts');
  const { database } = await import('../../lib/db/database.ts');
  const { databaseUrl } = await import('../support/fixtures.ts');
  const user = await makeUser();
  await disableUser(database(databaseUrl), user.id);
  const client = await makeClient();
  const attempt = async (password: string) => {
    const browser = new TestBrowser(baseUrl);
    const login = await browser.navigate(await authorizationUrl(client.id));
    const after = await browser.submit(await login.response.text(), '/login', { username: user.username, password });
    assert.equal(after.location, undefined, 'never back to the client with a code');
    return { url: after.url, html: await after.response.text() };
  };
  const right = await attempt(user.password);
  assert.equal(right.url.searchParams.get('error'), 'account_disabled');
  assert.match(right.html, /This account is disabled\. Contact your administrator/);
  assert.doesNotMatch(right.html, /username or password is not right/);
  const wrong = await attempt('wrong-password');
  assert.equal(wrong.url.searchParams.get('error'), 'invalid_credentials');
  assert.match(wrong.html, /username or password is not right/);
  assert.doesNotMatch(wrong.html, /account is disabled/);
  // The audit log tells admins which it was, as before.
  const { listAuditEvents } = await import('../../lib/audit/repository.ts');
  const { events } = await listAuditEvents(database(databaseUrl), { actions: ['sign_in.failed'], targetId: user.id }, { skip: 0, take: 10 });
  assert.deepEqual(events.map((e) => (e.details as { reason?: string }).reason).sort(), ['disabled', 'wrong_password']);
});

test('an interaction page without its cookie says the request expired', async () => {
  const client = await makeClient();
  const browser = new TestBrowser(baseUrl);
  const login = await browser.navigate(await authorizationUrl(client.id));
  const stranger = await fetch(login.url);
  assert.match(await stranger.text(), /expired/);
  const post = await fetch(new URL(`${login.url.pathname}/login`, baseUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(baseUrl).origin },
    body: 'username=a&password=b',
  });
  assert.equal(post.status, 303);
  assert.match(post.headers.get('location')!, /error=expired/);
});

test('a cross-origin form post to the login step is refused', async () => {
  const client = await makeClient();
  const browser = new TestBrowser(baseUrl);
  const login = await browser.navigate(await authorizationUrl(client.id));
  const response = await browser.request(`${login.url.pathname}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    body: 'username=a&password=b',
  });
  assert.equal(response.status, 403);
});

test('the authorization request also works as a form POST (OIDC Core §3.1.2.1)', async () => {
  const user = await makeUser();
  const client = await makeClient();
  const config = await discover(client);
  const url = await authorizationUrl(client.id, { state: 'posted' });
  const browser = new TestBrowser(baseUrl);
  const posted = await browser.navigate('/oauth/authorize', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: url.searchParams.toString(),
  });
  const page = await posted.response.text();
  assert.match(page, /name="password"/);
  const after = await browser.submit(page, '/login', credentials(user));
  const callback = await authorize(browser, after.url, user);
  assert.equal(callback.searchParams.get('state'), 'posted');
  assert.ok(config);
});

test('scopes outside the client registration are refused with invalid_scope', async () => {
  const client = await makeClient({ scopes: ['openid'] });
  const response = await fetch(await authorizationUrl(client.id, { scope: 'openid email' }), { redirect: 'manual' });
  const location = new URL(response.headers.get('location')!);
  assert.equal(location.searchParams.get('error'), 'invalid_scope');
});

test('an authorization code comes back with the iss parameter (RFC 9207)', async () => {
  const user = await makeUser();
  const client = await makeClient();
  const config = await discover(client);
  const { challenge } = await pkce();
  const callback = await authorize(
    new TestBrowser(baseUrl),
    oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' }),
    user,
  );
  assert.equal(callback.searchParams.get('iss'), baseUrl);
});

test('an oversized form POST to the authorization endpoint is refused, not turned into a huge redirect', async () => {
  const response = await fetch(new URL('/oauth/authorize', baseUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `client_id=x&state=${'a'.repeat(100_000)}`,
  });
  assert.equal(response.status, 413); // RFC 9110 §15.5.14, as every oversized body (request-limits.test.ts)
  assert.equal(response.headers.get('location'), null);
  assert.equal((await response.json()).error, 'invalid_request');
});
