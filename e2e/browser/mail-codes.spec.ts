/**
 * Codes by mail in Chromium, in English (light scheme) and in German (dark scheme; the browser's language,
 * every text from the catalogs): at sign-up the code from the mail typed on the waiting page instead of opening the link
 * (a wrong one first, refused beside the field), and the app gets its code; the waiting page moving
 * on by itself when the link is opened in another browser context (a phone, say). axe finds no
 * serious or critical violation on the new states (e2e/support/axe.ts, as accessibility.spec.ts).
 * Mails are read from the test run's SMTP server (e2e/support/mail.ts).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import * as oidc from 'openid-client';
import { controlFindings, describeFindings, wcagFindings } from '../support/axe.ts';
import { authorizationRequest, makeClient } from '../support/fixtures.ts';
import { linkIn, mailApi, nextMail } from '../support/mail.ts';
import { alert, screenshots } from '../support/pages.ts';

const shoot = screenshots('mail-codes');
const callbackPattern = /^http:\/\/127\.0\.0\.1:9\/callback\?/;

test.skip(!mailApi, 'needs the test run’s SMTP server (scripts/test.ts sets GATEHOUSE_TEST_MAIL_URL)');

type Catalog = Record<string, unknown>;
const catalogs: Record<'en' | 'de', Catalog> = {
  en: JSON.parse(readFileSync(new URL('../../lib/i18n/messages/en.json', import.meta.url), 'utf8')),
  de: JSON.parse(readFileSync(new URL('../../lib/i18n/messages/de.json', import.meta.url), 'utf8')),
};

/** A catalog text by its path, its {placeholders} filled and its <tags> dropped, as the page shows it. */
function text(locale: 'en' | 'de', path: string, values: Record<string, string> = {}): string {
  const found = path.split('.').reduce<unknown>((node, key) => (node as Catalog | undefined)?.[key], catalogs[locale]);
  if (typeof found !== 'string') throw new Error(`no text ${path} in ${locale}`);
  return found.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`).replace(/<\/?\w+>/g, '');
}

/** Serious or critical WCAG violations on the page as it is: none. */
async function expectAccessible(page: Page, name: string, variant: string) {
  const findings = [...(await wcagFindings(page, name, variant)), ...(await controlFindings(page, name, variant))];
  expect(findings.length, `serious or critical WCAG violations:\n${describeFindings(findings)}\n`).toBe(0);
}

const newPerson = () => {
  const username = `mc-${randomBytes(5).toString('hex')}`;
  return { username, email: `${username}@example.test`, password: `pw-${randomBytes(9).toString('base64url')}` };
};

/** From an app's sign-in page, Create an account, filled in: the page then waits for the mail. */
async function signUp(page: Page, locale: 'en' | 'de', person: ReturnType<typeof newPerson>) {
  const client = await makeClient({ name: 'Code Notes' });
  const flow = await authorizationRequest(client);
  await page.goto(flow.url.href);
  await page.getByRole('link', { name: text(locale, 'signUp.title') }).click();
  await expect(page.getByRole('heading', { name: text(locale, 'signUp.title') })).toBeVisible();
  // The form is a client component: typed into before it is hydrated, a field can be drawn again empty.
  await page.waitForLoadState('networkidle');
  await page.getByLabel(text(locale, 'signUp.username'), { exact: true }).fill(person.username);
  await page.getByLabel(text(locale, 'signUp.email'), { exact: true }).fill(person.email);
  await page.locator('#password').fill(person.password);
  await page.locator('#confirmPassword').fill(person.password);
  await expect(page.getByLabel(text(locale, 'signUp.username'), { exact: true })).toHaveValue(person.username);
  await page.getByRole('button', { name: text(locale, 'signUp.submit') }).click();
  await expect(page.getByRole('heading', { name: text(locale, 'checkMail.title') })).toBeVisible();
  return { client, flow };
}

/** The code and the link of the newest sign-up mail to `email`. */
async function mailed(page: Page, email: string) {
  const mail = await nextMail(email);
  const code = /^(\d{6})$/m.exec(mail.text)?.[1];
  expect(code, 'a 6-digit code on a line of its own').toBeTruthy();
  return { code: code!, link: linkIn(mail, `${new URL(page.url()).origin}/verify-email/`) };
}

for (const locale of ['en', 'de'] as const) {
  test.describe(`in ${locale === 'en' ? 'English' : 'German'}`, () => {
    // German in the dark scheme: the new states' colours in both schemes, without running each twice.
    test.use({ locale: locale === 'en' ? 'en-US' : 'de-DE', colorScheme: locale === 'en' ? 'light' : 'dark' });

    test('the code from the mail, typed instead of opening the link, confirms and continues to the app', async ({ page }) => {
      test.slow();
      const person = newPerson();
      const { client, flow } = await signUp(page, locale, person);
      const codeField = page.getByLabel(text(locale, 'checkMail.codeLabel'));
      await expect(codeField).toBeVisible();
      await expect(codeField).toHaveAttribute('autocomplete', 'one-time-code');
      await expectAccessible(page, 'check-mail-code', locale);
      await shoot(page, `${locale}-check-mail`);
      const { code } = await mailed(page, person.email);

      // A wrong code: refused on the page, nothing confirmed.
      await codeField.fill(String((Number(code) + 1) % 1_000_000).padStart(6, '0'));
      await page.getByRole('button', { name: text(locale, 'checkMail.codeSubmit') }).click();
      await expect(alert(page, text(locale, 'interaction.errors.mail_code_wrong'))).toBeVisible();
      await expectAccessible(page, 'check-mail-wrong-code', locale);
      await shoot(page, `${locale}-wrong-code`);

      // The right one: straight on (consent next), no link opened.
      await page.getByLabel(text(locale, 'checkMail.codeLabel')).fill(`${code.slice(0, 3)} ${code.slice(3)}`);
      await page.getByRole('button', { name: text(locale, 'checkMail.codeSubmit') }).click();
      await expect(page.getByRole('heading', { name: text(locale, 'interaction.consent.title', { client: client.name }) })).toBeVisible();
      const callback = page.waitForRequest(callbackPattern);
      await page.getByRole('button', { name: text(locale, 'interaction.consent.allow'), exact: true }).click();
      const url = new URL((await callback).url());
      const tokens = await oidc.authorizationCodeGrant(flow.config, url, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
      expect(tokens.claims()?.amr).toEqual(['pwd']);
      const userinfo = await oidc.fetchUserInfo(flow.config, tokens.access_token, tokens.claims()!.sub);
      expect(userinfo.email_verified).toBe(true);
    });

    test('the waiting page moves on by itself when the link is opened in another browser', async ({ page, browser }) => {
      test.slow();
      const person = newPerson();
      const { client } = await signUp(page, locale, person);
      await expect(page.getByText(text(locale, 'checkMail.watching'))).toBeVisible();
      const { link } = await mailed(page, person.email);

      // The phone: another browser context, without this one's cookies.
      const phone = await browser.newContext({ locale: locale === 'en' ? 'en-US' : 'de-DE' });
      try {
        const tab = await phone.newPage();
        await tab.goto(link);
        await tab.getByRole('button', { name: text(locale, 'recovery.verifyEmail.submit', { email: person.email }) }).click();
        await expect(tab.getByText(text(locale, 'recovery.verifyEmail.confirmed', { email: person.email }))).toBeVisible();
      } finally {
        await phone.close();
      }

      // No reload here: the page notices, and offers Continue, focused.
      await expect(page.getByRole('heading', { name: text(locale, 'checkMail.titleConfirmed') })).toBeVisible({ timeout: 20_000 });
      const proceed = page.getByRole('button', { name: text(locale, 'checkMail.continue', { client: client.name }) });
      await expect(proceed).toBeFocused();
      await expectAccessible(page, 'check-mail-confirmed', locale);
      await shoot(page, `${locale}-moved-on`);
      await proceed.click();
      await expect(page.getByRole('heading', { name: text(locale, 'interaction.consent.title', { client: client.name }) })).toBeVisible();
    });
  });
}

test('the status the waiting page polls says nothing to another browser', async ({ page, browser }) => {
  test.slow();
  const person = newPerson();
  await signUp(page, 'en', person);
  const status = new URL(`${page.url().replace(/\?.*$/, '')}/status`);
  const mine = await page.request.get(status.href);
  expect(await mine.json()).toEqual({ verified: false });
  const { link } = await mailed(page, person.email);
  const tab = await page.context().newPage();
  await tab.goto(link);
  await tab.getByRole('button', { name: `Confirm ${person.email}` }).click();
  await expect(tab.getByText('is confirmed')).toBeVisible();
  expect(await (await page.request.get(status.href)).json()).toEqual({ verified: true });
  const stranger = await browser.newContext();
  try {
    const theirs = await stranger.request.get(status.href);
    expect(await theirs.json()).toEqual({ verified: false });
  } finally {
    await stranger.close();
  }
});
