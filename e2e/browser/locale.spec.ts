/**
 * The language of the sign-in pages and mails (lib/i18n/locale.ts): the authorization request's
 * ui_locales first (OIDC Core §3.1.2.1), then the browser's Accept-Language, then DEFAULT_LOCALE
 * (English here). `<html lang>` says which. Playwright's browsers ask for en-US unless a test says otherwise.
 */
import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { authorizationRequest, makeClient, makeUser } from '../support/fixtures.ts';
import { linkIn, mailApi, mailCount, nextMail } from '../support/mail.ts';

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
  await expect(page.getByText('Ihren Namen, Benutzernamen, Ihr Bild, Ihre Sprache und Zeitzone sehen')).toBeVisible();
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
    await expect(page.getByRole('heading', { name: 'Passwort zurücksetzen' })).toBeVisible();
    expect(await htmlLang(page)).toBe('de');
    await page.getByRole('button', { name: 'Link senden' }).click();
    await expect(page.getByText('Geben Sie Ihren Benutzernamen oder Ihre E-Mail-Adresse ein.', { exact: true })).toBeVisible();
    await page.getByLabel('Benutzername oder E-Mail-Adresse').fill(user.username);
    await page.getByRole('button', { name: 'Link senden' }).click();
    await expect(page.getByText('Wenn ein Konto diesen Benutzernamen oder diese E-Mail-Adresse hat')).toBeVisible();
    const mail = await nextMail(email, before);
    expect(mail.subject).toBe('Ihr Passwort für Gatehouse zurücksetzen');
    expect(mail.text).toContain(`Jemand hat angefordert, das Passwort Ihres Kontos ${user.username} zurückzusetzen.`);
    expect(mail.text).toMatch(/Die Anfrage kam am \d{2}\.\d{2}\.\d{4}, \d{2}:\d{2} UTC von /);
    expect(mail.html).toContain('<html lang="de">');

    // The link's page, in the browser's language too (no ui_locales there).
    await page.goto(linkIn(mail, `${new URL(page.url()).origin}/password-reset/`));
    await expect(page.getByRole('heading', { name: 'Neues Passwort wählen' })).toBeVisible();
    expect(await htmlLang(page)).toBe('de');
    await expect(page).toHaveTitle(/^Neues Passwort wählen · /);
    await page.getByLabel('Neues Passwort', { exact: true }).fill('kurz');
    await page.getByLabel('Neues Passwort wiederholen').fill('anders');
    await page.getByRole('button', { name: 'Neues Passwort setzen' }).click();
    await expect(page.getByText(/Das Passwort muss mindestens \d+ Zeichen haben\./)).toBeVisible();
    await expect(page.getByText('Die beiden Passwörter stimmen nicht überein.')).toBeVisible();
    await page.getByLabel('Neues Passwort', { exact: true }).fill('ein ganz neues Passwort');
    await page.getByLabel('Neues Passwort wiederholen').fill('ein ganz neues Passwort');
    await page.getByRole('button', { name: 'Neues Passwort setzen' }).click();
    await expect(page.getByText('Ihr Passwort ist geändert, und Sie sind überall abgemeldet.')).toBeVisible();
  });

  test('a mailed link that no longer works says so in German', async ({ page }) => {
    await page.goto('/password-reset/not-a-link-we-sent');
    await expect(page.getByRole('heading', { name: 'Dieser Link funktioniert nicht mehr' })).toBeVisible();
    await expect(page.getByText('Diesen Link haben wir nicht gesendet, oder ein neuerer hat ihn ersetzt.')).toBeVisible();
    expect(await htmlLang(page)).toBe('de');
    await page.goto('/verify-email/not-a-link-we-sent');
    await expect(page.getByRole('heading', { name: 'Dieser Link funktioniert nicht mehr' })).toBeVisible();
    await page.goto('/invitation/not-a-link-we-sent');
    await expect(page.getByText('Bitten Sie Ihre Administration, die Einladung erneut zu senden.')).toBeVisible();
  });

  test('/account: its pages, forms, refusals, confirmations and activity in German', async ({ page }) => {
    const user = await makeUser();
    await page.goto('/account');
    await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
    await page.getByLabel('Benutzername').fill(user.username);
    await page.getByLabel('Passwort', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { name: 'Profil', exact: true })).toBeVisible();
    expect(await htmlLang(page)).toBe('de');
    await expect(page).toHaveTitle(/^Profil · /);
    await expect(page.getByRole('navigation', { name: 'Konto' }).getByRole('link', { name: 'Verbundene Anwendungen' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Abmelden' })).toBeVisible();

    await page.getByLabel('E-Mail-Adresse').fill('keine-adresse');
    await page.getByRole('button', { name: 'Profil speichern' }).click();
    await expect(page.getByText('Das ist keine gültige E-Mail-Adresse.')).toBeVisible();

    await page.getByRole('link', { name: 'Passwort', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Passwort', exact: true })).toBeVisible();
    await expect(page).toHaveTitle(/^Passwort · Konto bei /);
    await page.getByLabel('Aktuelles Passwort').fill('nicht mein Passwort');
    await page.getByLabel('Neues Passwort', { exact: true }).fill('ein ganz neues Passwort');
    await page.getByLabel('Neues Passwort wiederholen').fill('ein anderes neues Passwort');
    await page.getByRole('button', { name: 'Passwort ändern' }).click();
    await expect(page.getByText('Das ist nicht Ihr aktuelles Passwort.')).toBeVisible();
    await expect(page.getByText('Die beiden neuen Passwörter stimmen nicht überein.')).toBeVisible();

    await page.goto('/account/sessions');
    await expect(page.getByRole('heading', { name: 'Sitzungen', exact: true })).toBeVisible();
    await expect(page.getByText('Dieses Gerät', { exact: true })).toBeVisible();
    await expect(page.getByText(/^Chrome unter \w+$/).first()).toBeVisible();
    await page.getByRole('button', { name: 'Überall sonst abmelden' }).click();
    await expect(page.getByText('Setzen Sie zur Bestätigung das Häkchen: Alle anderen Browser und Geräte werden abgemeldet.')).toBeVisible();
    const activity = page.getByRole('region', { name: 'Letzte Aktivität' });
    await expect(activity.getByText(/^Angemeldet( · .+)?$/).first()).toBeVisible();
    await expect(activity.getByText('Aktuelles Passwort falsch', { exact: true }).first()).toBeVisible();

    await page.goto('/account/security');
    await expect(page.getByRole('heading', { name: 'Bestätigung in zwei Schritten', exact: true })).toBeVisible();
    await page.getByRole('button', { name: 'Authenticator-App einrichten' }).click();
    await page.getByLabel('Code aus der App').fill('12ab56');
    await page.getByRole('button', { name: 'Einschalten' }).click();
    await expect(page.getByText('Der Code besteht aus 6 Ziffern, ohne Buchstaben.')).toBeVisible();
  });

  test('sign-up, its refusals, the check-mail step and its mail in German', async ({ page }) => {
    test.skip(!mailApi, 'needs the test run’s SMTP server (scripts/test.ts sets GATEHOUSE_TEST_MAIL_URL)');
    const username = `neu-${randomBytes(5).toString('hex')}`;
    const email = `${username}@example.test`;
    await openSignIn(page);
    await page.getByRole('link', { name: 'Konto erstellen' }).click();
    await expect(page.getByRole('heading', { name: 'Konto erstellen' })).toBeVisible();
    expect(await htmlLang(page)).toBe('de');
    await expect(page).toHaveTitle(/^Konto erstellen · /);
    await page.getByLabel('Benutzername').fill(username);
    await page.getByLabel('E-Mail-Adresse').fill(email);
    await page.getByLabel('Name (optional)').fill('Nele Neu');
    await page.getByLabel('Passwort', { exact: true }).fill('ein langes Passwort');
    await page.getByLabel('Passwort wiederholen').fill('ein anderes Passwort');
    await page.getByRole('button', { name: 'Konto erstellen' }).click();
    await expect(page.getByText('Die beiden Passwörter stimmen nicht überein.')).toBeVisible();
    await expect(page.getByLabel('Benutzername'), 'what was typed comes back').toHaveValue(username);

    await page.getByLabel('Passwort', { exact: true }).fill('ein langes Passwort');
    await page.getByLabel('Passwort wiederholen').fill('ein langes Passwort');
    await page.getByRole('button', { name: 'Konto erstellen' }).click();
    await expect(page.getByRole('heading', { name: 'Sehen Sie in Ihr Postfach' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Link erneut senden' })).toBeVisible();
    expect(await htmlLang(page)).toBe('de');

    const mail = await nextMail(email);
    expect(mail.subject).toBe('Bestätigen Sie Ihre E-Mail-Adresse, um Ihre Registrierung bei Gatehouse abzuschließen');
    expect(mail.text).toContain(`Willkommen, ${username}.`);
    expect(mail.html).toContain('<html lang="de">');
    await page.goto(linkIn(mail, `${new URL(page.url()).origin}/verify-email/`));
    await expect(page.getByRole('heading', { name: 'E-Mail-Adresse bestätigen' })).toBeVisible();
    await page.getByRole('button', { name: `${email} bestätigen` }).click();
    await expect(page.getByText('ist bestätigt: Das ist jetzt die E-Mail-Adresse Ihres Kontos.')).toBeVisible();
  });
});

/** Signs `user` in to /account through Gatehouse's German sign-in page, and opens the sessions page. */
async function germanSessions(page: Page, user: { username: string; password: string }) {
  await page.goto('/account/sessions');
  await page.getByLabel('Benutzername').fill(user.username);
  await page.getByLabel('Passwort', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Sitzungen', exact: true })).toBeVisible();
}

/** The first time on the page: its ISO moment and the exact time it shows in its title. */
async function firstTime(page: Page) {
  const time = page.locator('main time').first();
  return { iso: (await time.getAttribute('datetime'))!, title: (await time.getAttribute('title'))! };
}

const berlin = (iso: string) => new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' }).format(new Date(iso));
const utc = (iso: string) => `${new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(iso))} UTC`;

test.describe('times in the browser’s time zone (Europe/Berlin, German)', () => {
  test.use({ locale: 'de-DE', timezoneId: 'Europe/Berlin' });

  test('with JavaScript: the page script tells the zone, the next page shows Berlin time, without "UTC"', async ({ page }) => {
    await germanSessions(page, await makeUser());
    // The sign-in pages before already ran the script: this page was rendered with the cookie.
    const cookie = (await page.context().cookies()).find((c) => c.name === 'gatehouse_tz');
    expect(decodeURIComponent(cookie?.value ?? '')).toBe('Europe/Berlin');
    const { iso, title } = await firstTime(page);
    expect(title).toBe(berlin(iso));
    expect(title).not.toContain('UTC');
    await expect(page.locator('main time').first()).toHaveText(/^(jetzt|vor \d+ (Sekunden|Minuten?))$/);
  });

  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    test('the zone is not known: UTC, and the page says so', async ({ page }) => {
      await germanSessions(page, await makeUser());
      const { iso, title } = await firstTime(page);
      expect(title).toBe(utc(iso));
    });

    test('a cookie that names no time zone counts as none', async ({ page, baseURL }) => {
      await page.context().addCookies([{ name: 'gatehouse_tz', value: 'Mars%2FOlympus_Mons', url: baseURL! }]);
      await germanSessions(page, await makeUser());
      const { iso, title } = await firstTime(page);
      expect(title).toBe(utc(iso));
    });
  });
});
