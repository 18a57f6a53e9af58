// runs-on: stores
// Passkeys over HTTP, answered by a software authenticator: the ID token's acr and amr for a passkey alone and as
// the second step, a step-up answered with a passkey, and the answers a browser never sends refused on the page.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { SoftAuthenticator } from '../../lib/factors/soft-authenticator.ts';
import { TestBrowser, credentials } from '../support/browser.ts';
import { database } from '../../lib/db/database.ts';
import { lockAccount } from '../../lib/testing.ts';
import { baseUrl, databaseUrl, discover, makeClient, makeUser, pkce, redirectUri } from '../support/fixtures.ts';
import { enrolPasskey, origin, pageOptions } from '../support/passkeys.ts';

const MFA = 'urn:gatehouse:acr:mfa';
type Client = Awaited<ReturnType<typeof makeClient>>;

async function authorize(browser: TestBrowser, client: Client, params: Record<string, string> = {}) {
  const config = await discover(client);
  const { verifier, challenge } = await pkce();
  const start = await browser.navigate(
    oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256', ...params }),
  );
  return { config, verifier, start };
}

async function claimsAfter(browser: TestBrowser, config: oidc.Configuration, verifier: string, step: { response: Response; location?: URL }) {
  let callback = step.location;
  if (!callback) callback = (await browser.submit(await step.response.text(), '/confirm')).location;
  assert.ok(callback, 'back at the client');
  return (await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier })).claims()!;
}

test('a passkey alone: no password typed, acr mfa and amr pop+mfa; the same answer again is refused', async () => {
  const client = await makeClient({ firstParty: true });
  const user = await makeUser();
  const authenticator = await enrolPasskey(user);
  const browser = new TestBrowser(baseUrl);
  const { config, verifier, start } = await authorize(browser, client);
  const html = await start.response.text();
  assert.match(html, /Sign in with a passkey/);
  assert.match(html, /autoComplete="username webauthn"|autocomplete="username webauthn"/);
  const answer = JSON.stringify(authenticator.get(await pageOptions(start.url), origin));
  const done = await browser.submit(html, '/passkey', { response: answer });
  const claims = await claimsAfter(browser, config, verifier, done);
  assert.equal(claims.sub, user.id);
  assert.equal(claims.acr, MFA);
  assert.deepEqual(claims.amr, ['pop', 'mfa']);

  // Replayed into a new sign-in: its challenge is not that page's.
  const again = new TestBrowser(baseUrl);
  const second = await authorize(again, client);
  const replay = await again.submit(await second.start.response.text(), '/passkey', { response: answer });
  assert.equal(replay.location, undefined, 'not signed in');
  assert.match(await replay.response.text(), /That passkey could not be checked/);
});

test('a passkey signs in while wrong passwords keep new browsers out: password failures never block a passkey', async () => {
  const client = await makeClient({ firstParty: true });
  const user = await makeUser();
  const authenticator = await enrolPasskey(user);
  await lockAccount(database(databaseUrl), user, process.env.REDIS_URL);
  const browser = new TestBrowser(baseUrl);
  // The right password from this new browser is refused while the lock lasts...
  const refused = await authorize(browser, client);
  const afterPassword = await browser.submit(await refused.start.response.text(), '/login', credentials(user));
  assert.match(await afterPassword.response.text(), /Too many attempts; try again in/);
  // ...its passkey is not.
  const { config, verifier, start } = await authorize(browser, client);
  const answer = JSON.stringify(authenticator.get(await pageOptions(start.url), origin));
  const done = await browser.submit(await start.response.text(), '/passkey', { response: answer });
  assert.equal((await claimsAfter(browser, config, verifier, done)).sub, user.id);
});

test('password, then the passkey as the second step: amr pwd+pop+mfa; another account’s passkey is refused on the page', async () => {
  const client = await makeClient({ firstParty: true });
  const user = await makeUser();
  const mine = await enrolPasskey(user);
  const other = await makeUser();
  const theirs = await enrolPasskey(other);
  const browser = new TestBrowser(baseUrl);
  const { config, verifier, start } = await authorize(browser, client);
  const step = await browser.submit(await start.response.text(), '/login', credentials(user));
  assert.equal(step.location, undefined, 'the password alone does not finish the sign-in');
  let html = await step.response.text();
  assert.match(html, /Use your passkey/);
  assert.doesNotMatch(html, /Enter the code from your authenticator app/, 'no app set up: no code field');

  const options = { ...(await pageOptions(step.url)), allowCredentials: [] };
  const refused = await browser.submit(html, '/passkey', { response: JSON.stringify(theirs.get(options, origin)) });
  assert.equal(refused.location, undefined);
  html = await refused.response.text();
  assert.match(html, /That passkey belongs to another account/);

  const done = await browser.submit(html, '/passkey', { response: JSON.stringify(mine.get(await pageOptions(refused.url), origin)) });
  const claims = await claimsAfter(browser, config, verifier, done);
  assert.equal(claims.sub, user.id);
  assert.deepEqual(claims.amr, ['pwd', 'pop', 'mfa']);
  assert.equal(claims.acr, MFA);
});

test('step-up: a password-only session asked for mfa answers with its passkey, without the password again', async () => {
  const client = await makeClient({ firstParty: true });
  const user = await makeUser();
  const browser = new TestBrowser(baseUrl);
  const first = await authorize(browser, client);
  const signedIn = await claimsAfter(
    browser,
    first.config,
    first.verifier,
    await browser.submit(await first.start.response.text(), '/login', credentials(user)),
  );
  assert.deepEqual(signedIn.amr, ['pwd']);
  const authenticator = await enrolPasskey(user);

  const { config, verifier, start } = await authorize(browser, client, { acr_values: MFA });
  const html = await start.response.text();
  assert.doesNotMatch(html, /name="password"/, 'the password is not asked again');
  const done = await browser.submit(html, '/passkey', { response: JSON.stringify(authenticator.get(await pageOptions(start.url), origin)) });
  const claims = await claimsAfter(browser, config, verifier, done);
  assert.equal(claims.acr, MFA);
  assert.deepEqual(claims.amr, ['pwd', 'pop', 'mfa']);
});

test('bad answers get a clear message and sign no one in: malformed, oversized, no user verification, another origin, cross-origin post', async () => {
  const client = await makeClient({ firstParty: true });
  const user = await makeUser();
  const authenticator = await enrolPasskey(user, new SoftAuthenticator());
  const browser = new TestBrowser(baseUrl);
  const { start } = await authorize(browser, client);
  let page = { html: await start.response.text(), url: start.url };
  const post = async (response: string, expected: RegExp) => {
    const step = await browser.submit(page.html, '/passkey', { response });
    assert.equal(step.location, undefined, `not signed in (${expected})`);
    page = { html: await step.response.text(), url: step.url };
    assert.match(page.html, expected);
  };
  await post('', /Your browser did not send a passkey/);
  await post('{"id":', /Your browser did not send a passkey/);
  authenticator.userVerification = false;
  await post(JSON.stringify(authenticator.get(await pageOptions(page.url), origin)), /That passkey could not be checked/);
  authenticator.userVerification = true;
  await post(JSON.stringify(authenticator.get(await pageOptions(page.url), 'https://evil.example')), /That passkey could not be checked/);

  const action = page.html.match(/<form[^>]*action="([^"]+\/passkey)"/)?.[1] ?? '';
  const oversized = await fetch(new URL(action, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin },
    body: new URLSearchParams({ response: 'x'.repeat(20_000) }).toString(),
  });
  assert.equal(oversized.status, 413);
  const crossSite = await fetch(new URL(action, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
    body: 'response=%7B%7D',
  });
  assert.equal(crossSite.status, 403);
});
