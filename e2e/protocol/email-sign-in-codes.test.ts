// runs-on: stores
// "Email me a sign-in code" over HTTP: off by default (no button, nothing new in discovery, the endpoints refuse);
// on (an instance of its own), the mailed code signs in with amr ["otp"] and its own acr; wrong codes are
// throttled and spend the mail; a name without an account gets the same answer; and the code is one factor only:
// an account with TOTP is asked for it after the code, and SECOND_FACTOR_REQUIRED refuses an account without one.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { registerClient } from '../../lib/clients/manage.ts';
import { createUser } from '../../lib/users/manage.ts';
import { beginTotpEnrolment, confirmTotpEnrolment, twoStepStatus } from '../../lib/account/two-step.ts';
import { TOTP_PERIOD, totpCode } from '../../lib/factors/totp.ts';
import { testContext } from '../../lib/testing.ts';
import { TestBrowser } from '../support/browser.ts';
import { authorizationRequest, baseUrl, makeClient, makeUser, redirectUri } from '../support/fixtures.ts';
import { mailApi, mailCount, nextMail } from '../support/mail.ts';
import { isolatedDatabase, startInstance } from '../support/server.ts';

const smtpUrl = process.env.GATEHOUSE_TEST_SMTP_URL;
const needsMail = { skip: mailApi && smtpUrl ? false : 'needs the test run’s SMTP server (scripts/test.ts)' };

const codeIn = (text: string) => {
  const code = /^(\d{6})$/m.exec(text)?.[1];
  assert.ok(code, `a code on a line of its own in:\n${text}`);
  return code;
};
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

type Flow = Awaited<ReturnType<typeof authorizationRequest>>;

interface Own {
  url: string;
  origin: string;
  /** A browser on the sign-in page of a new authorization request of a new client. */
  signInPage(): Promise<{ browser: TestBrowser; uid: string; html: string; flow: Flow }>;
  /** A user on this instance, their address verified unless said otherwise. */
  user(options?: { verified?: boolean; totp?: boolean }): Promise<{ id: string; username: string; email: string; totpSecret?: string }>;
}

/**
 * An instance of its own (its own database and throttle counters) with EMAIL_SIGN_IN_CODES=on and these settings, on a
 * database of the run's kind (a SQLite file, or a PostgreSQL schema of its own: the PostgreSQL runs used to start it on
 * SQLite too, repeating the SQLite run's facts).
 */
async function ownInstance(settings: Record<string, string>, use: (own: Own) => Promise<void>) {
  const { url, drop } = isolatedDatabase('email_codes');
  const instance = await startInstance({ DATABASE_URL: url, SMTP_URL: smtpUrl!, EMAIL_SIGN_IN_CODES: 'on', ...settings });
  const db = database(url);
  try {
    await use({
      url,
      origin: instance.url,
      async signInPage() {
        const { client, clientSecret } = await registerClient(db, { name: 'Own', redirectUris: [redirectUri] });
        const flow = await authorizationRequest({ ...client, clientSecret }, { scope: 'openid' }, instance.url);
        const browser = new TestBrowser(instance.url);
        const page = await browser.navigate(flow.url.href);
        const uid = /^\/interaction\/([^/]+)$/.exec(page.url.pathname)?.[1];
        assert.ok(uid, `on an interaction page: ${page.url}`);
        return { browser, uid, html: await page.response.text(), flow };
      },
      async user({ verified = true, totp = false } = {}) {
        const username = `ec-${randomBytes(5).toString('hex')}`;
        const email = `${username}@example.test`;
        const user = await createUser(db, { username, email, name: 'Code Person', password: `pw-${randomBytes(12).toString('base64url')}`, role: 'user' });
        if (verified) await db.prisma.user.update({ where: { id: user.id }, data: { emailVerified: true } });
        let totpSecret: string | undefined;
        if (totp) {
          // As e2e/support/fixtures.ts enrolTotp, on this instance's database.
          // One instant for the code and its check, as enrolTotp's: a step boundary between them refused the code.
          const at = Date.now();
          const ctx = { ...testContext(db), now: () => at };
          const holder = { id: user.id, username };
          await beginTotpEnrolment(ctx, holder);
          const pending = await twoStepStatus(ctx, holder);
          assert.equal(pending.status, 'pending');
          const form = new FormData();
          form.append('code', totpCode(pending.secret, at - TOTP_PERIOD * 1000));
          assert.equal((await confirmTotpEnrolment(ctx, holder, form)).status, 'codes');
          totpSecret = pending.secret;
        }
        return { id: user.id, username, email, totpSecret };
      },
    });
  } finally {
    await instance.stop();
    await closeDatabase(url);
    await drop();
  }
}

/** "Email me a sign-in code" for `username`, as the sign-in form's second button posts it. */
async function askForCode(browser: TestBrowser, uid: string, username: string) {
  return browser.navigate(`/interaction/${uid}/email-code`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: browser.origin },
    body: new URLSearchParams({ username }).toString(),
  });
}

/** Consent when asked; the callback. */
async function toCallback(browser: TestBrowser, step: Awaited<ReturnType<TestBrowser['navigate']>>) {
  if (step.location) return step.location;
  const next = await browser.submit(await step.response.text(), '/confirm');
  assert.ok(next.location, 'back to the app');
  return next.location;
}

/** A name without an account, or without a verified address: the same page and the same refusal as an account's, and no mail. */
async function sameAnswerForEveryName(own: Own) {
  const unverified = await own.user({ verified: false });
  const known = await own.user();
  const pages: string[] = [];
  for (const name of [known.username, `nobody-${randomBytes(4).toString('hex')}`, unverified.username]) {
    const { browser, uid } = await own.signInPage();
    const asked = await askForCode(browser, uid, name);
    assert.equal(asked.url.pathname, `/interaction/${uid}`);
    const html = await asked.response.text();
    pages.push(
      html
        .replaceAll(name, 'NAME')
        .replaceAll(uid, 'UID')
        .replace(/<script[\s\S]*?<\/script>/g, '')
        .replace(/nonce="[^"]*"/g, '')
        .replace(/value="[^"]*"/g, ''),
    );
    const wrong = await browser.submit(html, '/email-code/verify', { code: '123456' });
    assert.match(wrong.url.search, /error=mail_code_wrong/, `the same refusal for ${name === known.username ? 'an account' : 'no account'}`);
  }
  assert.equal(pages[1], pages[0], 'an unknown name: the same page');
  assert.equal(pages[2], pages[0], 'an unverified address: the same page');
  assert.equal(await mailCount(unverified.email), 0, 'no code to an address nobody proved');
}

test('off by default: no button on the sign-in page, no acr in discovery, and the endpoints refuse', async () => {
  const client = await makeClient();
  const flow = await authorizationRequest(client);
  const browser = new TestBrowser(baseUrl);
  const page = await browser.navigate(flow.url.href);
  const html = await page.response.text();
  assert.match(html, /Sign in/, 'the control: the sign-in page');
  assert.doesNotMatch(html, /email-code|Email me a sign-in code/);
  const metadata = (await (await fetch(new URL('/.well-known/openid-configuration', baseUrl))).json()) as { acr_values_supported: string[] };
  assert.ok(!metadata.acr_values_supported.includes('urn:gatehouse:acr:email-code'));
  const uid = /^\/interaction\/([^/]+)$/.exec(page.url.pathname)?.[1];
  assert.ok(uid);
  const user = await makeUser();
  const before = await mailCount(user.email!);
  const asked = await askForCode(browser, uid, user.username);
  assert.match(asked.url.search, /error=wrong_step/);
  assert.equal(await mailCount(user.email!), before, 'no mail');
});

test('on: the mailed code signs in with amr ["otp"] and the email-code acr, once; every name gets the same answer', needsMail, async () => {
  await ownInstance({}, async (own) => {
    const metadata = (await (await fetch(new URL('/.well-known/openid-configuration', own.origin))).json()) as { acr_values_supported: string[] };
    assert.ok(metadata.acr_values_supported.includes('urn:gatehouse:acr:email-code'), 'listed while on');
    const person = await own.user();
    const { browser, uid, html, flow } = await own.signInPage();
    assert.match(html, /Email me a sign-in code/);
    assert.match(html, new RegExp(`formAction="/interaction/${uid}/email-code"|formaction="/interaction/${uid}/email-code"`));
    const before = await mailCount(person.email);
    const asked = await askForCode(browser, uid, person.username.toUpperCase());
    const page = await asked.response.text();
    assert.match(page, /Enter the code from your mail/);
    const mail = await nextMail(person.email, before);
    assert.match(mail.subject, /Your sign-in code for/);
    assert.doesNotMatch(mail.text, /https?:\/\/\S*\/interaction\//, 'a code alone: no link');
    const code = codeIn(mail.text);
    assert.ok(!mail.subject.includes(code), 'not in the subject, which notifications show');

    const signedIn = await toCallback(browser, await browser.submit(page, '/email-code/verify', { code: `${code.slice(0, 3)} ${code.slice(3)}` }));
    const tokens = await oidc.authorizationCodeGrant(flow.config, signedIn, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
    const claims = tokens.claims();
    assert.equal(claims?.sub, person.id);
    assert.deepEqual(claims?.amr, ['otp']);
    assert.equal(claims?.acr, 'urn:gatehouse:acr:email-code');

    // The same code in another request: spent.
    const again = await own.signInPage();
    const second = await (await askForCode(again.browser, again.uid, person.username)).response.text();
    const replay = await again.browser.submit(second, '/email-code/verify', { code });
    assert.ok(!replay.location);
    assert.match(replay.url.search, /error=mail_code_wrong/, 'the newer mail replaced it, and it was spent');

    // On the same instance (each one costs a start): no account enumeration.
    await sameAnswerForEveryName(own);
  });
});

test('wrong codes: five spend the mail; more are throttled like passwords', needsMail, async () => {
  await ownInstance({ THROTTLE_ACCOUNT_FREE_FAILURES: '6', THROTTLE_ACCOUNT_LOCK_AFTER: '20' }, async (own) => {
    const person = await own.user();
    const { browser, uid } = await own.signInPage();
    const before = await mailCount(person.email);
    let page = await (await askForCode(browser, uid, person.username)).response.text();
    const code = codeIn((await nextMail(person.email, before)).text);
    const errors: string[] = [];
    for (let i = 0; i < 5; i++) {
      const step = await browser.submit(page, '/email-code/verify', { code: otherThan(code) });
      errors.push(step.url.searchParams.get('error') ?? 'none');
      page = await step.response.text();
    }
    assert.deepEqual(errors, ['mail_code_wrong', 'mail_code_wrong', 'mail_code_wrong', 'mail_code_wrong', 'mail_code_exhausted']);
    assert.match(page, /Too many wrong codes/);
    const late = await browser.submit(page, '/email-code/verify', { code });
    assert.match(late.url.search, /error=mail_code_wrong/, 'the right code no longer works');
    const refusals: string[] = [];
    for (let i = 0; i < 3; i++)
      refusals.push((await browser.submit(page, '/email-code/verify', { code: otherThan(code) })).url.searchParams.get('error') ?? 'none');
    assert.ok(refusals.includes('throttled'), `throttled past the account's free failures: ${refusals}`);
  });
});

test('one factor only: an account with TOTP is asked for it after the code (then amr otp+mfa); the policy refuses one without', needsMail, async () => {
  await ownInstance({ SECOND_FACTOR_REQUIRED: 'everyone' }, async (own) => {
    const withTotp = await own.user({ totp: true });
    const { browser, uid, flow } = await own.signInPage();
    const before = await mailCount(withTotp.email);
    const page = await (await askForCode(browser, uid, withTotp.username)).response.text();
    const code = codeIn((await nextMail(withTotp.email, before)).text);
    const step = await browser.submit(page, '/email-code/verify', { code });
    assert.equal(step.location, undefined, 'the code alone does not finish the sign-in');
    const secondStep = await step.response.text();
    assert.match(secondStep, /Enter the code from your authenticator app/);
    const done = await toCallback(
      browser,
      await browser.submit(secondStep, '/second-factor', { method: 'totp', code: totpCode(withTotp.totpSecret!, Date.now()) }),
    );
    const claims = (await oidc.authorizationCodeGrant(flow.config, done, { pkceCodeVerifier: flow.verifier, expectedState: flow.state })).claims();
    assert.deepEqual(claims?.amr, ['otp', 'mfa']);
    assert.equal(claims?.acr, 'urn:gatehouse:acr:mfa');

    const without = await own.user();
    const other = await own.signInPage();
    const count = await mailCount(without.email);
    const otherPage = await (await askForCode(other.browser, other.uid, without.username)).response.text();
    const refused = await other.browser.submit(otherPage, '/email-code/verify', { code: codeIn((await nextMail(without.email, count)).text) });
    assert.equal(refused.location, undefined);
    assert.match(refused.url.search, /error=second_factor_required/);
  });
});
