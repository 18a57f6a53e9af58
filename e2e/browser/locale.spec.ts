/**
 * The language of the sign-in pages and mails (lib/i18n/locale.ts): the authorization request's
 * ui_locales first (OIDC Core §3.1.2.1), then the browser's Accept-Language, then DEFAULT_LOCALE
 * (English here). `<html lang>` says which. Playwright's browsers ask for en-US unless a test says otherwise.
 */
import { expect, type Page, test } from '@playwright/test';
import { authorizationRequest, makeClient, makeUser } from '../support/fixtures.ts';
import { mailApi, mailCount, nextMail } from '../support/mail.ts';

async function openSignIn(page: Page, params: Record<string, string> = {}) {
  const client = await makeClient();
  const { url } = await authorizationRequest(client, params);
  await page.goto(url.href);
  await expect(page).toHaveURL(/\/interaction\/[^/?]+$/);
  return client;
}

const htmlLang = (page: Page) => page.locator('html').getAttribute('lang');

test('ui_locales=de: the sign-in, its errors and the consent page in German', async ({ page }) => {
  const user = await makeUser();
  const client = await openSignIn(page, { ui_locales: 'fr-CA de-DE en' });
  await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
  expect(await htmlLang(page)).toBe('de');
  await expect(page).toHaveTitle(/^Anmelden · /);

  await page.getByLabel('Benutzername').fill(user.username);
  await page.getByLabel('Passwort').fill('not-the-password');
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Benutzername oder Passwort ist nicht richtig.' })).toBeVisible();

  await page.getByLabel('Passwort').fill(user.password);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await expect(page.getByRole('heading', { name: `${client.name} erlauben?` })).toBeVisible();
  await expect(page.getByText('Ihren Namen und Benutzernamen sehen')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Erlauben' })).toBeVisible();
  expect(await htmlLang(page)).toBe('de');
});

test('English by default, for a browser that asks for en-US', async ({ page }) => {
  await openSignIn(page);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(await htmlLang(page)).toBe('en');
});

test.describe('a browser that asks for German (Accept-Language: de-DE)', () => {
  test.use({ locale: 'de-DE' });

  test('gets the German sign-in page', async ({ page }) => {
    await openSignIn(page);
    await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Passwort vergessen?' })).toBeVisible();
    expect(await htmlLang(page)).toBe('de');
  });

  test('ui_locales=en comes first', async ({ page }) => {
    await openSignIn(page, { ui_locales: 'en' });
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    expect(await htmlLang(page)).toBe('en');
  });

  test('the password reset mail asked for from there is in German', async ({ page }) => {
    test.skip(!mailApi, 'needs the test run’s SMTP server (scripts/test.ts sets GATEHOUSE_TEST_MAIL_URL)');
    const user = await makeUser();
    const email = user.email!;
    const before = await mailCount(email);
    await openSignIn(page);
    await page.getByRole('link', { name: 'Passwort vergessen?' }).click();
    await page.getByLabel('Username or email address').fill(user.username);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    const mail = await nextMail(email, before);
    expect(mail.subject).toBe('Ihr Passwort für Gatehouse zurücksetzen');
    expect(mail.text).toContain(`Jemand hat angefordert, das Passwort Ihres Kontos ${user.username} zurückzusetzen.`);
    expect(mail.text).toMatch(/Die Anfrage kam am \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} UTC von /);
    expect(mail.html).toContain('<html lang="de">');
  });
});
