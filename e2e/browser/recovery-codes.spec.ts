/**
 * Setting up an authenticator app at /account/security and keeping the recovery codes: the key with
 * Copy and an otpauth:// link to open it in an app on the same phone; the codes shown once with Copy
 * (the clipboard holds every code), Download (a text file of them) and Print (the browser's dialog).
 * Download works without JavaScript. In English and German, light and dark, axe clean. Screenshots
 * land in e2e/screenshots/recovery-codes-*.png.
 */
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { describeFindings, wcagFindings } from '../support/axe.ts';
import { makeUser } from '../support/fixtures.ts';
import { gatehouseLogin, screenshots } from '../support/pages.ts';

// Several sign-ins and form posts per test, on a machine the other suites share: more time than the defaults.
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

const shoot = screenshots('recovery-codes');

const appCode = (key: string) => TOTP.generate({ secret: Secret.fromBase32(key.replace(/\s+/g, '')), algorithm: 'SHA1', digits: 6, period: 30 });

async function accessible(page: Page, name: string) {
  const findings = await wcagFindings(page, name, 'recovery-codes');
  expect(findings, describeFindings(findings)).toEqual([]);
}

const words = {
  en: {
    setUp: 'Set up an authenticator app',
    code: 'Code from the app',
    turnOn: 'Turn on',
    copyKey: 'Copy Key',
    copiedKey: 'Key copied',
    open: /Open in your authenticator app/,
    codes: 'Recovery codes',
    copyCodes: 'Copy Recovery codes',
    download: 'Download as text',
    print: 'Print',
  },
  de: {
    setUp: 'Authenticator-App einrichten',
    code: 'Code aus der App',
    turnOn: 'Einschalten',
    copyKey: 'Schlüssel kopieren',
    copiedKey: 'Schlüssel kopiert',
    open: /In der Authenticator-App öffnen/,
    codes: 'Wiederherstellungscodes',
    copyCodes: 'Wiederherstellungscodes kopieren',
    download: 'Als Text herunterladen',
    print: 'Drucken',
  },
} as const;

for (const language of ['en', 'de'] as const) {
  for (const colorScheme of ['light', 'dark'] as const) {
    test(`${language}, ${colorScheme}: the key with Copy and an otpauth:// link; the codes with Copy, Download and Print`, async ({ browser }) => {
      const w = words[language];
      const context = await browser.newContext({
        locale: language === 'de' ? 'de-DE' : 'en-US',
        colorScheme,
        permissions: ['clipboard-read', 'clipboard-write'],
      });
      const page = await context.newPage();
      const user = await makeUser();
      await page.goto('/account');
      if (language === 'en') await gatehouseLogin(page, user);
      else {
        await page.getByLabel('Benutzername').fill(user.username);
        await page.getByLabel('Passwort', { exact: true }).fill(user.password);
        await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
      }
      await expect(page).toHaveURL(/\/account$/);
      await page.goto('/account/security');
      await page.getByRole('button', { name: w.setUp }).click();

      const key = await page.locator('#totp-key').inputValue();
      expect(key).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);

      const open = page.getByRole('link', { name: w.open });
      const uri = new URL((await open.getAttribute('href')) ?? '');
      expect(uri.protocol).toBe('otpauth:');
      expect(uri.host).toBe('totp');
      expect(uri.searchParams.get('secret')).toBe(key.replace(/\s+/g, ''));
      await shoot(page, `key-${language}-${colorScheme}`);
      await accessible(page, 'totp-pending');
      await page.getByRole('button', { name: w.copyKey }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
      // While it says Copied, its name says so too.
      await expect(page.getByRole('button', { name: w.copiedKey })).toBeVisible();
      await accessible(page, 'totp-key-copied');

      await page.getByLabel(w.code).fill(appCode(key));
      await page.getByRole('button', { name: w.turnOn }).click();
      const list = page.getByRole('list', { name: w.codes }).getByRole('listitem');
      await expect(list).toHaveCount(10);
      const codes = await list.allTextContents();

      await page.getByRole('button', { name: w.copyCodes }).click();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      for (const code of codes) expect(copied).toContain(code);
      expect(copied).toContain(user.username);

      const download = page.waitForEvent('download');
      await page.getByRole('link', { name: w.download }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('Gatehouse-recovery-codes.txt');
      const text = await (await import('node:fs/promises')).readFile((await file.path()) ?? '', 'utf8');
      expect(text.trim().split('\n').slice(-10)).toEqual(codes);

      // Print opens the browser's dialog: counted here instead of shown.
      await page.evaluate(() => {
        (window as unknown as { printed: number }).printed = 0;
        window.print = () => {
          (window as unknown as { printed: number }).printed++;
        };
      });
      await page.getByRole('button', { name: w.print }).click();
      expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
      // A printout shows the codes alone: everything else on the page is hidden for print.
      await page.emulateMedia({ media: 'print' });
      const visibility = (selector: string) =>
        page
          .locator(selector)
          .first()
          .evaluate((element) => getComputedStyle(element).visibility);
      expect(await visibility('#recovery-codes')).toBe('visible');
      expect(await visibility('nav')).toBe('hidden');
      expect(await visibility('h1')).toBe('hidden');
      await page.emulateMedia({ media: 'screen' });
      await shoot(page, `codes-${language}-${colorScheme}`);
      await accessible(page, 'recovery-codes');
      await context.close();
    });
  }
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the codes download as a plain link; no Copy or Print button without the script they need', async ({ page }) => {
    const user = await makeUser();
    await page.goto('/account');
    await gatehouseLogin(page, user);
    await page.goto('/account/security');
    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    const key = await page.locator('#totp-key').inputValue();
    await page.getByLabel('Code from the app').fill(appCode(key));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const list = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(list).toHaveCount(10);
    const href = (await page.getByRole('link', { name: 'Download as text' }).getAttribute('href')) ?? '';
    expect(href.startsWith('data:text/plain;charset=utf-8,')).toBe(true);
    const text = decodeURIComponent(href.slice('data:text/plain;charset=utf-8,'.length));
    for (const code of await list.allTextContents()) expect(text).toContain(code);
    await expect(page.getByRole('button', { name: 'Print' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Copy Recovery codes' })).toHaveCount(0);
  });
});
