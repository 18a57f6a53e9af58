// runs-on: everywhere
// The server's log after a whole sign-in and every token endpoint: a line per request, and not one credential in it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { authorize, credentials, TestBrowser } from '../support/browser.ts';
import { authorizationRequest, basic, baseUrl, makeClient, makeUser, post } from '../support/fixtures.ts';

const logFile = process.env.GATEHOUSE_TEST_LOG_FILE;
const skip = logFile ? false : 'GATEHOUSE_TEST_LOG_FILE is not set (scripts/test.ts sets it with the server it starts)';
const underNpmStart = process.env.GATEHOUSE_TEST_MOUNT !== 'next';

type Line = Record<string, unknown>;

/** The log's JSON lines (Next's own output, under `next start`, is not JSON and is left out of `lines` only). */
function readLog(): { text: string; lines: Line[] } {
  const text = readFileSync(logFile!, 'utf8');
  const lines = text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);
  return { text, lines };
}

/** The log once the request with this X-Request-Id has its line: the server writes it when the answer is sent. */
async function logWith(requestId: string): Promise<{ text: string; lines: Line[] }> {
  for (let i = 0; i < 50; i++) {
    const log = readLog();
    if (log.lines.some((line) => line.request_id === requestId && line.msg === 'request')) return log;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.fail(`no request line for ${requestId} in ${logFile}`);
}

test('a sign-in with a wrong password, then code, refresh, userinfo, introspection and revocation: request lines, and none of their secrets in the log', {
  skip,
}, async () => {
  const user = await makeUser();
  const client = await makeClient({ name: 'Log Reader' });
  assert.ok(client.clientSecret);
  const secrets: Record<string, string> = { password: user.password, 'client secret': client.clientSecret };
  const { config, verifier, state, url } = await authorizationRequest(client);
  secrets['PKCE verifier'] = verifier;
  secrets.state = state;
  const browser = new TestBrowser(baseUrl);

  // A wrong password first, typed into the real form.
  const wrongPassword = `wrong-${user.password.slice(3)}`;
  secrets['wrong password'] = wrongPassword;
  const loginPage = await browser.navigate(url);
  const refused = await browser.submit(await loginPage.response.text(), '/login', { ...credentials(user), password: wrongPassword });
  assert.equal(refused.location, undefined, 'the wrong password signs no one in');

  // Then the password, consent, and the code.
  const callback = await authorize(browser, url, user);
  const code = callback.searchParams.get('code');
  assert.ok(code);
  secrets['authorization code'] = code;
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
  assert.ok(tokens.refresh_token && tokens.id_token);
  Object.assign(secrets, { 'access token': tokens.access_token, 'refresh token': tokens.refresh_token, 'ID token': tokens.id_token });

  await oidc.fetchUserInfo(config, tokens.access_token, user.id);
  // A refresh by hand, to read the X-Request-Id the client gets.
  const refresh = await post(
    '/oauth/token',
    { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
    { authorization: basic(client.id, client.clientSecret) },
  );
  assert.equal(refresh.status, 200);
  const refreshId = refresh.headers.get('x-request-id');
  assert.match(refreshId ?? '', /^[0-9a-f-]{36}$/);
  const refreshed = (await refresh.json()) as { access_token: string; refresh_token?: string; id_token: string };
  Object.assign(secrets, { 'refreshed access token': refreshed.access_token, 'refreshed ID token': refreshed.id_token });
  if (refreshed.refresh_token) secrets['refreshed refresh token'] = refreshed.refresh_token;

  // Introspection with the secret in the form (client_secret_post's place), then revocation with Basic.
  const introspection = await post('/oauth/introspect', { token: refreshed.access_token, client_id: client.id, client_secret: client.clientSecret });
  assert.equal(introspection.status, 200);
  assert.equal(((await introspection.json()) as { active: boolean }).active, true);
  await oidc.tokenRevocation(config, refreshed.refresh_token ?? tokens.refresh_token);
  const last = await post('/oauth/introspect', { token: refreshed.access_token }, { authorization: basic(client.id, client.clientSecret) });
  assert.equal(((await last.json()) as { active: boolean }).active, false);
  const cookies = browser.cookieValues().filter((value) => value.length >= 8);
  assert.ok(cookies.length >= 2, 'the session and interaction cookies were set');
  cookies.forEach((value, i) => {
    secrets[`cookie value ${i}`] = value;
  });
  secrets['Basic credentials'] = basic(client.id, client.clientSecret).slice('Basic '.length);

  const { text, lines } = await logWith(last.headers.get('x-request-id')!);
  for (const [what, value] of Object.entries(secrets)) {
    assert.equal(text.includes(value), false, `the ${what} is in the log`);
    assert.equal(text.includes(encodeURIComponent(value)), false, `the ${what}, percent-encoded, is in the log`);
  }

  const requests = lines.filter((line) => line.msg === 'request');
  const refreshLine = requests.find((line) => line.request_id === refreshId);
  assert.ok(refreshLine, 'the refresh has its line, under the X-Request-Id the client got');
  assert.equal(refreshLine.method, 'POST');
  assert.equal(refreshLine.route, 'token');
  assert.equal(refreshLine.status, 200);
  assert.equal(refreshLine.client_id, client.id);
  assert.equal(typeof refreshLine.duration_ms, 'number');
  assert.equal(refreshLine.level, 30, 'at info');
  const forClient = requests.filter((line) => line.client_id === client.id);
  for (const route of ['authorization', 'token', 'userinfo', 'introspection', 'revocation']) {
    assert.ok(
      forClient.some((line) => line.route === route),
      `a ${route} line names the client`,
    );
  }
  for (const line of requests) {
    assert.match(String(line.request_id), /^[0-9a-f-]{36}$/);
    assert.doesNotMatch(String(line.route), /[?=]/, 'a route never carries a query');
  }
  if (underNpmStart) {
    // Next's pages have their lines too, under a route without the interaction's uid.
    assert.ok(requests.some((line) => line.method === 'POST' && line.route === '/interaction/:id/login' && typeof line.status === 'number'));
    assert.equal(
      requests.some((line) => line.route === '/healthz' || line.route === '/readyz'),
      false,
      'the probes only at debug',
    );
  }
});
