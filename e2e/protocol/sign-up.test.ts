// runs-on: stores
// Sign-up over HTTP: off by default (no link, a 404); on (scripts/test.ts turns it on for @example.test), the domain
// limit; a signed-up account cannot sign in until its address is verified, then the interaction it was bound to
// continues to a code, and no other browser can; the per-address cap, on an instance of its own.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { auditEventsFor } from '../../lib/audit/log.ts';
import { registerClient } from '../../lib/clients/manage.ts';
import { TestBrowser } from '../support/browser.ts';
import { authorizationRequest, authorizeQuery, baseUrl, databaseUrl, makeClient, pkce, redirectUri } from '../support/fixtures.ts';
import { mailApi, mailCount, nextMail } from '../support/mail.ts';
import { isolatedDatabase, startInstance } from '../support/server.ts';

const smtpUrl = process.env.GATEHOUSE_TEST_SMTP_URL;
const needsMail = { skip: mailApi && smtpUrl ? false : 'needs the test run’s SMTP server (scripts/test.ts)' };

const newPerson = () => {
  const username = `su-${randomBytes(5).toString('hex')}`;
  return { username, email: `${username}@example.test`, password: `pw-${randomBytes(9).toString('base64url')}` };
};

const decode = (text: string) =>
  text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Opens an authorization request (path and query) at `origin`: the browser on its sign-in page. */
async function openRequest(origin: string, pathAndQuery: string) {
  const browser = new TestBrowser(origin);
  const page = await browser.navigate(new URL(pathAndQuery, origin));
  assert.equal(page.response.status, 200);
  const uid = /^\/interaction\/([^/]+)$/.exec(page.url.pathname)?.[1];
  assert.ok(uid, `on an interaction page: ${page.url}`);
  return { browser, uid, html: await page.response.text() };
}

/** A new client's authorization request, as a relying party builds it, opened at `origin`. */
async function signInPage(origin = baseUrl) {
  const client = await makeClient();
  const flow = await authorizationRequest(client);
  return { client, flow, ...(await openRequest(origin, `${flow.url.pathname}${flow.url.search}`)) };
}

/**
 * Posts the sign-up form as a browser without JavaScript does: the page's form (a Next.js
 * server action, multipart, with its hidden fields) back to the page's own URL.
 */
async function postSignUp(browser: TestBrowser, uid: string, fields: Record<string, string>) {
  const path = `/interaction/${uid}/sign-up`;
  const page = await browser.navigate(path);
  assert.equal(page.response.status, 200);
  const form = /<form[^>]*>([\s\S]*?)<\/form>/.exec(await page.response.text())?.[1] ?? '';
  const body = new FormData();
  for (const [input] of form.matchAll(/<input[^>]*type="hidden"[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input)?.[1];
    if (name) body.append(decode(name), decode(/value="([^"]*)"/.exec(input)?.[1] ?? ''));
  }
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  return browser.navigate(path, { method: 'POST', body, headers: { origin: browser.origin } });
}

const signUpFields = (person: ReturnType<typeof newPerson>, overrides: Record<string, string> = {}) => ({
  username: person.username,
  email: person.email,
  name: '',
  password: person.password,
  confirmPassword: person.password,
  ...overrides,
});

/**
 * An instance of its own, on a database of its own (a shared one would take over the portal client's
 * redirect URIs, which follow ISSUER, and share the throttle's counters), with these settings and mail;
 * `use` gets a browser on the sign-in page of a new client's authorization request there.
 */
async function ownInstance(settings: Record<string, string>, use: (page: Awaited<ReturnType<typeof openRequest>>, origin: string) => Promise<void>) {
  // A database of the run's kind: on SQLite, the PostgreSQL runs repeated the SQLite run's facts.
  const { url, drop } = isolatedDatabase('sign_up');
  const instance = await startInstance({ DATABASE_URL: url, SMTP_URL: smtpUrl!, ...settings });
  try {
    const { client } = await registerClient(database(url), { name: 'Own', redirectUris: [redirectUri] });
    const { challenge } = await pkce();
    await use(await openRequest(instance.url, `/oauth/authorize?${authorizeQuery(client, challenge)}`), instance.url);
  } finally {
    await instance.stop();
    await closeDatabase(url);
    await drop();
  }
}

test('off by default: no Create an account, and the sign-up page is a 404 even with mail', needsMail, async () => {
  await ownInstance({}, async ({ browser, uid, html }, origin) => {
    assert.match(html, /Forgot your password\?/, 'the control: this instance sends mail');
    assert.doesNotMatch(html, /\/sign-up"|Create an account/);
    assert.equal((await browser.request(`/interaction/${uid}/sign-up`)).status, 404);
    const post = await browser.request(`/interaction/${uid}/sign-up`, { method: 'POST', body: new FormData(), headers: { origin } });
    assert.ok([400, 404].includes(post.status), `a post to it is refused: ${post.status}`);
    const proceed = await browser.request(`/interaction/${uid}/continue`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    assert.equal(proceed.status, 303);
    assert.match(proceed.headers.get('location') ?? '', /\?error=password_first$/, 'nothing to continue');
  });
});

test('on, for @example.test only: another domain is refused beside the field, and no account is made', needsMail, async () => {
  const { browser, uid, html } = await signInPage();
  assert.match(html, new RegExp(`href="/interaction/${uid}/sign-up"`));
  const person = newPerson();
  const refused = await postSignUp(browser, uid, signUpFields(person, { email: `${person.username}@Example.org` }));
  assert.equal(refused.response.status, 200);
  assert.match(await refused.response.text(), /Sign-up is open to addresses at example\.test only/);
  assert.equal(await database(databaseUrl).prisma.user.count({ where: { username: person.username } }), 0);
  assert.equal(await mailCount(`${person.username}@example.org`), 0);
});

test('a signed-up account cannot sign in until its address is verified; then its interaction continues to a code, and only there', needsMail, async () => {
  const db = database(databaseUrl);
  const { flow, browser, uid } = await signInPage();
  const person = newPerson();
  const before = await mailCount(person.email);
  const created = await postSignUp(browser, uid, signUpFields(person, { email: person.email.replace('example.test', 'Example.TEST') }));
  assert.equal(created.url.pathname, `/interaction/${uid}`, 'back on the interaction');
  const checkMail = await created.response.text();
  assert.match(checkMail, /Check your mail/);
  const mail = await nextMail(person.email, before);
  assert.match(mail.subject, /finish signing up/);
  const account = await db.prisma.user.findUnique({ where: { username: person.username } });
  assert.ok(account);
  assert.equal(account.requiresVerifiedEmail, true);
  assert.equal(account.emailVerified, false);

  // Not verified: continuing is refused; signing in elsewhere with the right password is not a sign-in either.
  const early = await browser.submit(checkMail, '/continue');
  assert.match(early.url.search, /error=email_not_verified/);
  const elsewhere = await signInPage();
  const wrong = await elsewhere.browser.submit(elsewhere.html, '/login', { username: person.username, password: 'not the password' });
  assert.match(wrong.url.search, /error=invalid_credentials/);
  assert.doesNotMatch(await wrong.response.text(), /example\.test/i, 'a wrong password tells nothing of the address');
  const right = await elsewhere.browser.submit(elsewhere.html, '/login', { username: person.username, password: person.password });
  assert.equal(right.location, undefined, 'no code');
  const waiting = await right.response.text();
  assert.match(waiting, /Confirm your email address first/);
  assert.ok(waiting.toLowerCase().includes(person.email), 'says where the link went');
  const events = await auditEventsFor(db, { involvingUserId: account.id, actions: ['sign_in.failed', 'user.signed_up'] });
  assert.deepEqual(events.map((e) => (e.action === 'sign_in.failed' ? e.details.reason : e.action)).sort(), [
    'email_unverified',
    'user.signed_up',
    'wrong_password',
  ]);

  await db.prisma.user.update({ where: { id: account.id }, data: { emailVerified: true } });
  // A browser without this interaction's cookie continues nothing.
  const stranger = await new TestBrowser(baseUrl).request(`/interaction/${uid}/continue`, {
    method: 'POST',
    headers: { origin: baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
  });
  assert.match(stranger.headers.get('location') ?? '', /error=expired/);

  const page = await browser.navigate(`/interaction/${uid}`);
  const html = await page.response.text();
  assert.match(html, /Email address confirmed/);
  const consent = await browser.submit(html, '/continue');
  const back = await browser.submit(await consent.response.text(), '/confirm');
  assert.ok(back.location?.searchParams.get('code'), 'the app gets its code');
  assert.ok(back.location);
  const tokens = await oidc.authorizationCodeGrant(flow.config, back.location, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  const claims = tokens.claims();
  assert.equal(claims?.sub, account.id);
  const userinfo = await oidc.fetchUserInfo(flow.config, tokens.access_token, account.id);
  assert.equal(userinfo.email_verified, true, 'UserInfo: the address is verified');
  assert.deepEqual(claims?.amr, ['pwd'], 'the password was typed at sign-up');
});

test('sign-ups are capped per source address (on an instance of its own: the counters outlive the test)', needsMail, async () => {
  const settings = { SIGN_UP: 'on', SIGN_UP_EMAIL_DOMAINS: 'example.test', THROTTLE_SIGN_UP_HOURLY_CAP: '2' };
  await ownInstance(settings, async ({ browser, uid }) => {
    const answers: string[] = [];
    for (let i = 0; i < 3; i++) {
      const page = await postSignUp(browser, uid, signUpFields(newPerson()));
      const html = await page.response.text();
      answers.push(/Too many attempts; try again in/.test(html) ? 'throttled' : /Check your mail/.test(html) ? 'sent' : `other: ${html.slice(0, 200)}`);
    }
    assert.deepEqual(answers, ['sent', 'sent', 'throttled']);
  });
});
