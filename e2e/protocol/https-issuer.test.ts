// runs-on: mounts
// With an https issuer (production), POST /oauth/authorize is the provider's own, and the
// session cookie is SameSite=None; Secure so a cross-site form post still carries it.
// TLS itself ends at the proxy in front of Gatehouse, so the test talks plain HTTP to it.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { credentials, TestBrowser } from '../support/browser.ts';
import { authorizeQuery, databaseUrl, makeClient, makeUser, pkce } from '../support/fixtures.ts';
import { freePort, startInstance } from '../support/server.ts';

let url: string;
let issuer: string;
let stop: () => void;

before(async () => {
  const port = await freePort();
  issuer = `https://localhost:${port}`;
  ({ url, stop } = await startInstance({ DATABASE_URL: databaseUrl, ISSUER: issuer }, port));
});

after(() => stop?.());

test('discovery names https URLs from the configured issuer', async () => {
  const d = await (await fetch(`${url}/.well-known/openid-configuration`)).json();
  assert.equal(d.issuer, issuer);
  assert.equal(d.authorization_endpoint, `${issuer}/oauth/authorize`);
});

test('POST /oauth/authorize goes to the provider and signs in with SameSite=None; Secure cookies', async () => {
  const user = await makeUser();
  const client = await makeClient();
  const { challenge } = await pkce();
  const browser = new TestBrowser(url);
  const params = authorizeQuery(client, challenge, { state: 'p' });
  const response = await browser.request('/oauth/authorize', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: params.toString(),
  });
  assert.equal(response.status, 303);
  const interaction = new URL(response.headers.get('location')!, issuer);
  assert.equal(interaction.origin, issuer, 'redirects stay on the issuer');
  assert.match(interaction.pathname, /^\/interaction\//);

  const login = await browser.request(interaction.pathname);
  const page = await login.text();
  const action = /action="([^"]*\/login)"/.exec(page)![1];
  const afterLogin = await browser.request(action, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: issuer },
    body: new URLSearchParams(credentials(user)).toString(),
  });
  assert.equal(afterLogin.status, 303);
  const resume = await browser.request(new URL(afterLogin.headers.get('location')!, issuer).pathname);
  const sessionCookie = resume.headers.getSetCookie().find((c) => c.startsWith('_session='));
  assert.ok(sessionCookie, 'the provider sets its session cookie when the login completes');
  assert.match(sessionCookie, /samesite=none/i);
  assert.match(sessionCookie, /;\s*secure/i);
});
