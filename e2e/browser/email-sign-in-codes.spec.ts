/**
 * "Email me a sign-in code" in Chromium (EMAIL_SIGN_IN_CODES, off by default and on the suite's server:
 * this spec starts an instance of its own with it on, mailing to the test run's SMTP server). From an
 * app's sign-in page: the username, the offer's button, the page for the code; a wrong code refused
 * beside the field; the right one, and the app gets the person, signed in with the code alone (amr otp,
 * RFC 8176). In English in the light scheme and in German in the dark one, axe finding no serious or
 * critical violation on the code page and its refusal. e2e/protocol/email-sign-in-codes.test.ts has
 * the protocol's side (off by default, single use, throttling, no account enumeration, one factor only).
 */
import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import * as oidc from 'openid-client';
import { registerClient } from '../../lib/clients/manage.ts';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { createUser } from '../../lib/users/manage.ts';
import { controlFindings, describeFindings, wcagFindings } from '../support/axe.ts';
import { browserLocale, catalog } from '../support/catalog.ts';
import { authorizationRequest, redirectUri } from '../support/fixtures.ts';
import { mailApi, mailCount, nextMail } from '../support/mail.ts';
import { alert, screenshots } from '../support/pages.ts';
import { isolatedDatabase, startInstance } from '../support/server.ts';

const shoot = screenshots('email-sign-in-code');
const callbackPattern = /^http:\/\/127\.0\.0\.1:9\/callback\?/;
const smtpUrl = process.env.GATEHOUSE_TEST_SMTP_URL;

test.skip(!mailApi || !smtpUrl, 'needs the test run’s SMTP server (scripts/test.ts sets GATEHOUSE_TEST_MAIL_URL and GATEHOUSE_TEST_SMTP_URL)');

/** Serious or critical WCAG violations on the page as it is: none. */
async function expectAccessible(page: Page, name: string, variant: string) {
  const findings = [...(await wcagFindings(page, name, variant)), ...(await controlFindings(page, name, variant))];
  expect(findings.length, `serious or critical WCAG violations:\n${describeFindings(findings)}\n`).toBe(0);
}

const codeIn = (text: string) => /^(\d{6})$/m.exec(text)?.[1];
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

/** English in the light scheme, German in the dark one: every word from the catalogs, every colour of both schemes. */
const variants = [
  { language: 'en', colorScheme: 'light' },
  { language: 'de', colorScheme: 'dark' },
] as const;

test.describe('an instance with EMAIL_SIGN_IN_CODES=on', () => {
  // Starting a second server takes a few seconds on a fresh database: both tests in one worker, on one instance.
  test.describe.configure({ mode: 'default' });
  test.slow(true, 'pages of a second server of its own');
  const own = isolatedDatabase('email-sign-in-codes');
  let instance: Awaited<ReturnType<typeof startInstance>> | undefined;

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    instance = await startInstance({ DATABASE_URL: own.url, SMTP_URL: smtpUrl!, EMAIL_SIGN_IN_CODES: 'on' });
  });

  test.afterAll(async () => {
    await instance?.stop();
    await closeDatabase(own.url);
    await own.drop();
  });

  for (const { language, colorScheme } of variants) {
    test(`the code typed instead of a password (${language}, ${colorScheme}): a wrong one refused, the right one signs in`, async ({ browser }) => {
      const text = catalog(language);
      const db = database(own.url);
      const username = `ec-${randomBytes(5).toString('hex')}`;
      const email = `${username}@example.test`;
      const person = await createUser(db, { username, email, name: 'Code Person', password: `pw-${randomBytes(12).toString('base64url')}`, role: 'user' });
      await db.prisma.user.update({ where: { id: person.id }, data: { emailVerified: true } });
      const { client, clientSecret } = await registerClient(db, { name: 'Code Notes', redirectUris: [redirectUri] });
      const flow = await authorizationRequest({ ...client, clientSecret }, { scope: 'openid' }, instance!.url);

      const context = await browser.newContext({ colorScheme, locale: browserLocale(language) });
      const page = await context.newPage();
      await page.goto(flow.url.href);
      const before = await mailCount(email);
      await page.locator('form[action$="/login"] input[name=username]').fill(username);
      await page.getByRole('button', { name: text('interaction.emailCode.offer') }).click();
      await expect(page.getByRole('heading', { name: text('interaction.emailCode.title') })).toBeVisible();
      const variant = `${language}-${colorScheme}`;
      await expectAccessible(page, 'email-code', variant);
      await shoot(page, `page-${variant}`);

      const code = codeIn((await nextMail(email, before)).text);
      expect(code, 'a 6-digit code on a line of its own in the mail').toBeTruthy();
      const field = page.getByLabel(text('interaction.emailCode.label'));
      const submit = page.getByRole('button', { name: text('interaction.emailCode.submit'), exact: true });
      await field.fill(otherThan(code!));
      await submit.click();
      await expect(alert(page, text('interaction.errors.mail_code_wrong'))).toBeVisible();
      await expectAccessible(page, 'email-code-wrong', variant);
      await shoot(page, `wrong-${variant}`);

      const callback = page.waitForRequest(callbackPattern);
      const failed = page.waitForEvent('requestfailed', (r) => callbackPattern.test(r.url()));
      await field.fill(code!);
      await submit.click();
      await page.getByRole('button', { name: text('interaction.consent.allow') }).click();
      // Nothing listens at the app: Chromium's error page follows.
      await failed;
      const tokens = await oidc.authorizationCodeGrant(flow.config, new URL((await callback).url()), {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
      });
      expect(tokens.claims()?.sub).toBe(person.id);
      expect(tokens.claims()?.amr, 'the code alone: one factor').toEqual(['otp']);
      await context.close();
    });
  }
});
