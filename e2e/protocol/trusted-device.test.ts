// runs-on: once
// Consent remembered and trusted devices at the protocol level (issue 23, items 1 and 6): prompt=consent asks again; a trusted
// browser's sign-in is password-only and never satisfies acr_values asking for mfa, nor max_age; a passkey second step trusts it too. Neither the store nor the mount changes it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { totpCode } from '../../lib/factors/totp.ts';
import { TestBrowser, credentials } from '../support/browser.ts';
import { baseUrl, discover, makeClient, makeUser, pkce, redirectUri } from '../support/fixtures.ts';
import { enrolPasskey, origin, pageOptions } from '../support/passkeys.ts';

const MFA = 'urn:gatehouse:acr:mfa';
const PASSWORD = 'urn:gatehouse:acr:password';

type Client = Awaited<ReturnType<typeof makeClient>>;

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
  return { config, verifier, start: await browser.navigate(url) };
}

async function claimsOf(config: oidc.Configuration, callback: URL | undefined, verifier: string) {
  assert.ok(callback, 'back at the client');
  return (await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier })).claims()!;
}

test('consent is asked once per person and app, in any browser; prompt=consent asks again', async () => {
  const client = await makeClient();
  const user = await makeUser();
  const first = new TestBrowser(baseUrl);
  const one = await authorize(first, client, { scope: 'openid profile' });
  const consent = await first.submit(await one.start.response.text(), '/login', credentials(user));
  assert.equal(consent.location, undefined, 'the first time: the consent page');
  const allowed = await first.submit(await consent.response.text(), '/confirm');
  await claimsOf(one.config, allowed.location, one.verifier);

  const second = new TestBrowser(baseUrl);
  const two = await authorize(second, client, { scope: 'openid profile' });
  const signedIn = await second.submit(await two.start.response.text(), '/login', credentials(user));
  assert.equal((await claimsOf(two.config, signedIn.location, two.verifier)).sub, user.id, 'another browser: straight back, no consent');

  const three = await authorize(second, client, { scope: 'openid profile', prompt: 'consent' });
  assert.equal(three.start.location, undefined, 'prompt=consent: asked again');
  const html = await three.start.response.text();
  assert.match(html, /action="[^"]*\/confirm"/);
  assert.match(html, /See your name, username, picture, language and time zone/, 'what the request names, all of it');
});

test('a trusted browser skips the code as a password-only sign-in; acr_values=mfa and max_age still ask for it', async () => {
  const client = await makeClient();
  const user = await makeUser({ secondFactor: true });
  const browser = new TestBrowser(baseUrl);
  const first = await authorize(browser, client);
  const codeStep = await browser.submit(await first.start.response.text(), '/login', credentials(user));
  const html = await codeStep.response.text();
  assert.match(html, /name="trust_device"/, 'offered');
  const consent = await browser.submit(html, '/second-factor', { method: 'totp', code: totpCode(user.totpSecret!, Date.now()), trust_device: 'on' });
  const back = consent.location ? consent : await browser.submit(await consent.response.text(), '/confirm');
  assert.equal((await claimsOf(first.config, back.location, first.verifier)).acr, MFA);

  // The session ends; the browser keeps its device cookie.
  browser.keepOnly(['gatehouse_device']);
  const trusted = await authorize(browser, client);
  const skipped = await browser.submit(await trusted.start.response.text(), '/login', credentials(user));
  const claims = await claimsOf(trusted.config, skipped.location, trusted.verifier);
  assert.deepEqual([claims.acr, claims.amr], [PASSWORD, ['pwd']], 'honest: the password alone');

  for (const params of [{ acr_values: MFA }, { max_age: '0' }] as Record<string, string>[]) {
    browser.keepOnly(['gatehouse_device']);
    const strict = await authorize(browser, client, params);
    const step = await browser.submit(await strict.start.response.text(), '/login', credentials(user));
    assert.equal(step.location, undefined, `${Object.keys(params)[0]}: not answered by the trust`);
    const page = await step.response.text();
    assert.match(page, /Enter the code from your authenticator app/);
    assert.doesNotMatch(page, /name="trust_device"/, 'not offered either');
  }
});

test('a passkey as the second step trusts the browser as a code does', async () => {
  const client = await makeClient();
  const user = await makeUser();
  const authenticator = await enrolPasskey(user);
  const browser = new TestBrowser(baseUrl);
  const first = await authorize(browser, client);
  const step = await browser.submit(await first.start.response.text(), '/login', credentials(user));
  const html = await step.response.text();
  assert.match(html, /name="trust_device"/, 'offered with the passkey');
  const response = JSON.stringify(authenticator.get(await pageOptions(step.url), origin));
  const consent = await browser.submit(html, '/passkey', { response, trust_device: 'on' });
  const back = consent.location ? consent : await browser.submit(await consent.response.text(), '/confirm');
  assert.equal((await claimsOf(first.config, back.location, first.verifier)).acr, MFA);

  browser.keepOnly(['gatehouse_device']);
  const trusted = await authorize(browser, client);
  const skipped = await browser.submit(await trusted.start.response.text(), '/login', credentials(user));
  const claims = await claimsOf(trusted.config, skipped.location, trusted.verifier);
  assert.deepEqual([claims.acr, claims.amr], [PASSWORD, ['pwd']], 'no second step: the password alone');
});
