// runs-on: stores
// Step-up over HTTP (lib/oidc/step-up.ts): acr_values asking for mfa, and clients registered with require_second_factor.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { totpCode } from '../../lib/factors/totp.ts';
import { TestBrowser, credentials } from '../support/browser.ts';
import { baseUrl, enrolTotp, makeClient, makeUser, pkce, discover, redirectUri } from '../support/fixtures.ts';

const MFA = 'urn:gatehouse:acr:mfa';
const PASSWORD = 'urn:gatehouse:acr:password';

type Client = Awaited<ReturnType<typeof makeClient>>;

/** Starts an authorization request in `browser`; the page it lands on, or the redirect back to the client. */
async function authorize(browser: TestBrowser, client: Client, params: Record<string, string> = {}) {
  const config = await discover(client);
  const { verifier, challenge } = await pkce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    ...params,
  });
  const start = await browser.navigate(url);
  return { config, verifier, start };
}

/** Follows consent if asked; the redirect back to the client. */
async function finish(browser: TestBrowser, step: { response: Response; location?: URL }) {
  if (step.location) return step.location;
  const next = await browser.submit(await step.response.text(), '/confirm');
  assert.ok(next.location, 'back at the client after consent');
  return next.location;
}

async function idTokenClaims(config: oidc.Configuration, callback: URL, verifier: string) {
  return (await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier })).claims()!;
}

/** Signs `user` in with the password alone (a client that asks for nothing more, an account without TOTP yet or a plain client). */
async function passwordSession(browser: TestBrowser, client: Client, user: { username: string; password: string }) {
  const { config, verifier, start } = await authorize(browser, client);
  const step = await browser.submit(await start.response.text(), '/login', credentials(user));
  const claims = await idTokenClaims(config, await finish(browser, step), verifier);
  return claims;
}

test('a password-only session asked for mfa with acr_values gets the code step, not the password form, and then an mfa ID token', async () => {
  const client = await makeClient();
  const user = await makeUser();
  const browser = new TestBrowser(baseUrl);
  assert.equal((await passwordSession(browser, client, user)).acr, PASSWORD);

  // TOTP turned on after that sign-in: the session is still password-only.
  const { secret } = await enrolTotp(user);

  const { config, verifier, start } = await authorize(browser, client, { acr_values: MFA });
  assert.equal(start.location, undefined, 'not answered silently from the session');
  const html = await start.response.text();
  assert.match(html, /Enter the code from your authenticator app/);
  assert.doesNotMatch(html, /name="password"/, 'the password is not asked again');
  assert.match(html, new RegExp(user.username));
  const step = await browser.submit(html, '/second-factor', { method: 'totp', code: totpCode(secret, Date.now()) });
  const claims = await idTokenClaims(config, await finish(browser, step), verifier);
  assert.equal(claims.acr, MFA);
  assert.ok((claims.amr as string[]).includes('otp'));
  assert.equal(claims.sub, user.id);

  // The session now has the mfa acr: the next request for it is answered silently.
  const again = await authorize(browser, client, { acr_values: MFA });
  assert.ok(again.start.location, 'answered from the session');
  assert.equal((await idTokenClaims(again.config, again.start.location, again.verifier)).acr, MFA);
});

test('acr_values=mfa for an account without a second factor: unmet_authentication_requirements at the redirect_uri', async () => {
  const client = await makeClient();
  const user = await makeUser();
  const browser = new TestBrowser(baseUrl);
  await passwordSession(browser, client, user);
  const { start } = await authorize(browser, client, { acr_values: MFA });
  assert.ok(start.location, 'back at the client');
  assert.equal(`${start.location.origin}${start.location.pathname}`, redirectUri);
  assert.equal(start.location.searchParams.get('error'), 'unmet_authentication_requirements');
  assert.equal(start.location.searchParams.has('code'), false);

  // A fresh browser: the password is asked, and then the same answer, never a password-acr code.
  const fresh = new TestBrowser(baseUrl);
  const first = await authorize(fresh, client, { acr_values: MFA });
  const step = await fresh.submit(await first.start.response.text(), '/login', credentials(user));
  assert.equal(step.location?.searchParams.get('error'), 'unmet_authentication_requirements');
});

test('prompt=none when a step-up is needed: login_required, no code', async () => {
  const client = await makeClient();
  const user = await makeUser();
  const browser = new TestBrowser(baseUrl);
  await passwordSession(browser, client, user);
  await enrolTotp(user);
  const { start } = await authorize(browser, client, { acr_values: MFA, prompt: 'none' });
  assert.ok(start.location, 'back at the client');
  assert.equal(start.location.searchParams.get('error'), 'login_required');
  assert.equal(start.location.searchParams.has('code'), false);
});

test('a client with require_second_factor: the code step on the first sign-in and the mfa acr, without acr_values', async () => {
  const client = await makeClient({ requireSecondFactor: true });
  const user = await makeUser();
  const { secret } = await enrolTotp(user);
  const browser = new TestBrowser(baseUrl);
  const { config, verifier, start } = await authorize(browser, client);
  const step = await browser.submit(await start.response.text(), '/login', credentials(user));
  assert.equal(step.location, undefined);
  const html = await step.response.text();
  assert.match(html, /Enter the code from your authenticator app/);
  const done = await browser.submit(html, '/second-factor', { method: 'totp', code: totpCode(secret, Date.now()) });
  const claims = await idTokenClaims(config, await finish(browser, done), verifier);
  assert.equal(claims.acr, MFA);

  // A password-only session of a person without a second factor cannot sign in to it.
  const plain = await makeUser();
  const other = new TestBrowser(baseUrl);
  const first = await authorize(other, client);
  const refused = await other.submit(await first.start.response.text(), '/login', credentials(plain));
  assert.equal(refused.location?.searchParams.get('error'), 'unmet_authentication_requirements');
});

test('a client without the setting and no acr_values: unchanged, the password acr', async () => {
  const client = await makeClient();
  const user = await makeUser();
  const claims = await passwordSession(new TestBrowser(baseUrl), client, user);
  assert.equal(claims.acr, PASSWORD);
  assert.deepEqual(claims.amr, ['pwd']);
});
