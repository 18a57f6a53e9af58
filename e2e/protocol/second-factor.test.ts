// runs-on: stores
// Signing in with TOTP and recovery codes over HTTP: the code step of /interaction/{uid}, the ID token's acr and amr, discovery.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { destroyArtifact } from '../../lib/db/artifacts.ts';
import { listAuditEvents } from '../../lib/audit/repository.ts';
import { database } from '../../lib/db/database.ts';
import { openRedisArtifacts } from '../../lib/db/redis-artifacts.ts';
import { redisNamespace } from '../../lib/db/redis-namespace.ts';
import { totpCode } from '../../lib/factors/totp.ts';
import { TestBrowser, credentials } from '../support/browser.ts';
import { baseUrl, databaseUrl, enrolTotp, makeClient, makeUser, pkce, discover, redirectUri } from '../support/fixtures.ts';

/** A user with TOTP turned on (fixtures.ts `enrolTotp`). */
async function enrolledUser() {
  const user = await makeUser();
  return { user, ...(await enrolTotp(user)) };
}

/** Starts a sign-in and posts the password; returns the browser on the code step. */
async function passwordStep(client: Awaited<ReturnType<typeof makeClient>>, user: { username: string; password: string }) {
  const config = await discover(client);
  const { verifier, challenge } = await pkce();
  const browser = new TestBrowser(baseUrl);
  const start = await browser.navigate(
    oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' }),
  );
  const step = await browser.submit(await start.response.text(), '/login', credentials(user));
  assert.equal(step.location, undefined, 'the password alone does not finish the sign-in');
  const html = await step.response.text();
  assert.match(html, /Enter the code from your authenticator app/);
  return { browser, config, verifier, html, url: step.url };
}

/** Posts a code on the code step, then consent if asked; the page's text when it stays, or the callback. */
async function codeStep(browser: TestBrowser, html: string, fields: Record<string, string>) {
  let step = await browser.submit(html, '/second-factor', fields);
  for (let i = 0; i < 3 && !step.location; i++) {
    const page = await step.response.text();
    if (page.includes('/confirm"')) step = await browser.submit(page, '/confirm');
    else if (page.includes('Recovery code accepted')) {
      const continueTo = page.match(/href="([^"]*\/oauth\/authorize\/[^"]+)"/)?.[1];
      assert.ok(continueTo, 'a Continue link');
      step = await browser.navigate(continueTo.replace(/&amp;/g, '&'));
    } else return { page };
  }
  return { callback: step.location };
}

const idTokenClaims = async (config: oidc.Configuration, callback: URL, verifier: string) => {
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
  return tokens.claims()!;
};

test('discovery lists the acr values', async () => {
  const metadata = (await (await fetch(new URL('/.well-known/openid-configuration', baseUrl))).json()) as Record<string, unknown>;
  assert.deepEqual(metadata.acr_values_supported, ['urn:gatehouse:acr:password', 'urn:gatehouse:acr:mfa']);
});

test('without a second factor: signed in by password, amr ["pwd"] and the password acr', async () => {
  const client = await makeClient();
  const user = await makeUser();
  const config = await discover(client);
  const { verifier, challenge } = await pkce();
  const browser = new TestBrowser(baseUrl);
  const start = await browser.navigate(
    oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' }),
  );
  let step = await browser.submit(await start.response.text(), '/login', credentials(user));
  if (!step.location) step = await browser.submit(await step.response.text(), '/confirm');
  const claims = await idTokenClaims(config, step.location!, verifier);
  assert.deepEqual(claims.amr, ['pwd']);
  assert.equal(claims.acr, 'urn:gatehouse:acr:password');
});

test('password, then a wrong code (refused on the page), then the right code: tokens with amr pwd+otp+mfa; the same code again is refused', async () => {
  const client = await makeClient();
  const { user, secret } = await enrolledUser();
  const first = await passwordStep(client, user);
  const code = totpCode(secret, Date.now());
  const wrong = await codeStep(first.browser, first.html, { method: 'totp', code: code === '000000' ? '111111' : '000000' });
  assert.match(wrong.page ?? '', /That code is not right/);
  const letters = await codeStep(first.browser, wrong.page!, { method: 'totp', code: 'abcdef' });
  assert.match(letters.page ?? '', /The code is 6 digits, with no letters/);
  const sevenDigits = await codeStep(first.browser, letters.page!, { method: 'totp', code: '1234567' });
  assert.match(sevenDigits.page ?? '', /The code is exactly 6 digits/);
  const right = await codeStep(first.browser, sevenDigits.page!, { method: 'totp', code });
  assert.ok(right.callback, 'back at the client');
  const claims = await idTokenClaims(first.config, right.callback!, first.verifier);
  assert.deepEqual(claims.amr, ['pwd', 'otp', 'mfa']);
  assert.equal(claims.acr, 'urn:gatehouse:acr:mfa');
  assert.equal(claims.sub, user.id);

  const second = await passwordStep(client, user);
  const replay = await codeStep(second.browser, second.html, { method: 'totp', code });
  assert.match(replay.page ?? '', /That code was used already/);
});

test('a recovery code signs in once, says how many are left, and gives amr pwd+mfa', async () => {
  const client = await makeClient();
  const { user, recoveryCodes } = await enrolledUser();
  const first = await passwordStep(client, user);
  const recoveryPage = await first.browser.navigate(new URL(`${first.url.pathname}?method=recovery_code`, baseUrl));
  const recoveryHtml = await recoveryPage.response.text();
  assert.match(recoveryHtml, /Recovery code/);
  const used = await first.browser.submit(recoveryHtml, '/second-factor', { method: 'recovery_code', code: recoveryCodes[0] });
  const notice = await used.response.text();
  assert.match(notice, /You have 9 recovery codes left/);
  const continueTo = notice.match(/href="([^"]*\/oauth\/authorize\/[^"]+)"/)![1].replace(/&amp;/g, '&');
  let step = await first.browser.navigate(continueTo);
  if (!step.location) step = await first.browser.submit(await step.response.text(), '/confirm');
  const claims = await idTokenClaims(first.config, step.location!, first.verifier);
  assert.deepEqual(claims.amr, ['pwd', 'mfa']);
  assert.equal(claims.acr, 'urn:gatehouse:acr:mfa');

  const second = await passwordStep(client, user);
  const again = await codeStep(second.browser, second.html.replace('value="totp"', 'value="recovery_code"'), {
    method: 'recovery_code',
    code: recoveryCodes[0],
  });
  assert.match(again.page ?? '', /That recovery code is not right, or was used already/);
});

test('the code step cannot be reached without the password step of the same browser', async () => {
  const client = await makeClient();
  const { user, secret } = await enrolledUser();
  const { url } = await passwordStep(client, user);
  const stranger = new TestBrowser(baseUrl);
  const response = await stranger.request(new URL(`${url.pathname}/second-factor`, baseUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(baseUrl).origin },
    body: new URLSearchParams({ method: 'totp', code: totpCode(secret, Date.now()) }).toString(),
  });
  assert.equal(response.status, 303);
  assert.match(response.headers.get('location') ?? '', /error=expired/);
});

/** The fields a browser sends with the form posting to `*actionSuffix`: its hidden inputs (values unescaped), then `typed`. */
function formFields(html: string, actionSuffix: string, typed: Record<string, string>): { action: string; fields: Record<string, string> } {
  const form = [...html.matchAll(/<form[^>]*action="([^"]+)"[^>]*>(.*?)<\/form>/gs)].find((m) => m[1].endsWith(actionSuffix));
  assert.ok(form, `a form posting to *${actionSuffix}`);
  const unescaped = (value: string) =>
    value
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#x27;/g, "'");
  const hidden = [...form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [m[1], unescaped(m[2])]);
  return { action: unescaped(form[1]), fields: { ...Object.fromEntries(hidden), ...typed } };
}

test('the code step expired under the person: its form carries the request’s client, so the expired page links back to the app’s registered origin (and nowhere for an unregistered redirect_uri)', async () => {
  const client = await makeClient();
  const { user } = await enrolledUser();
  const { browser, html, url } = await passwordStep(client, user);
  const { action, fields } = formFields(html, '/second-factor', { code: '123456' });
  assert.equal(fields.client_id, client.id);
  assert.equal(fields.redirect_uri, redirectUri);

  // The request expires while the person looks for their code: its interaction is gone from storage (the table,
  // or Redis with REDIS_URL, under the deployment's namespace), the browser still has the page.
  const interactionId = decodeURIComponent(url.pathname.split('/')[2]);
  const db = database(databaseUrl);
  if (process.env.REDIS_URL) {
    const redis = openRedisArtifacts(process.env.REDIS_URL, () => redisNamespace(db));
    await redis.destroy('Interaction', interactionId);
    await redis.close();
  } else {
    await destroyArtifact(db.sql, 'Interaction', interactionId);
  }
  const post = (sent: Record<string, string>) =>
    browser.request(action, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: new URL(baseUrl).origin },
      body: new URLSearchParams(sent).toString(),
    });
  const links = (page: string) => [...page.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1]);
  const expired = await post(fields);
  assert.equal(expired.status, 303);
  const location = new URL(expired.headers.get('location')!, baseUrl);
  assert.equal(location.searchParams.get('error'), 'expired');
  const page = await (await browser.request(location)).text();
  assert.match(page, /This sign-in request has expired/);
  assert.deepEqual(links(page), ['http://127.0.0.1:9/']);
  assert.match(page, new RegExp(`Back to ${client.name}`));

  // A redirect_uri the client did not register is no way back: a clear stop.
  const elsewhere = await post({ ...fields, redirect_uri: 'https://evil.example/callback' });
  const stop = await (await browser.request(new URL(elsewhere.headers.get('location')!, baseUrl))).text();
  assert.match(stop, /This sign-in request has expired/);
  assert.deepEqual(links(stop), []);
});

test('the recovery-code form and the passkey form of the sign-in page carry the request’s client too', async () => {
  const client = await makeClient();
  const { user } = await enrolledUser();
  const { browser, url } = await passwordStep(client, user);
  const recovery = await (await browser.navigate(new URL(`${url.pathname}?method=recovery_code`, baseUrl))).response.text();
  const { fields } = formFields(recovery, '/second-factor', {});
  assert.deepEqual([fields.method, fields.client_id, fields.redirect_uri], ['recovery_code', client.id, redirectUri]);

  const { challenge } = await pkce();
  const start = oidc.buildAuthorizationUrl(await discover(client), {
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const login = await (await new TestBrowser(baseUrl).navigate(start)).response.text();
  const passkey = formFields(login, '/passkey', {});
  assert.deepEqual([passkey.fields.client_id, passkey.fields.redirect_uri], [client.id, redirectUri]);
});

test('forty code guesses the throttle refuses leave one audit entry, counting them, not forty', async () => {
  const since = new Date(Date.now() - 1);
  const client = await makeClient();
  const { user, secret } = await enrolledUser();
  const { browser, html } = await passwordStep(client, user);
  const wrong = totpCode(secret, Date.now()) === '000000' ? '111111' : '000000';
  let page = html;
  let refused = 0;
  for (let i = 0; i < 60 && refused < 40; i++) {
    const step = await browser.submit(page, '/second-factor', { method: 'totp', code: wrong });
    page = await step.response.text();
    if (page.includes('Too many attempts')) refused++;
  }
  assert.equal(refused, 40, 'the throttle refused forty guesses');
  await new Promise((r) => setTimeout(r, 300)); // entries are written just after the response
  const { events } = await listAuditEvents(
    database(databaseUrl),
    { actions: ['sign_in.second_factor_failed'], from: since, targetId: user.id },
    { skip: 0, take: 200 },
  );
  const throttled = events.filter((e) => e.details.reason === 'throttled');
  // The first refusal is written at once; the others of that minute wait for its end, as one entry with their count.
  assert.deepEqual(
    throttled.map((e) => e.details.count),
    [1],
  );
  assert.ok(throttled[0].ip, 'the entry names the source');
  assert.ok(events.length < 15, `${events.length} entries for ${refused} refused and the guesses before them`);
});
