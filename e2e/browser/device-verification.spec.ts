/**
 * The device authorization grant's pages (RFC 8628 §3.3, lib/oidc/device-pages.ts) in Chromium, in English
 * and German, light and dark: the code entry, a wrong code refused beside the field, the confirmation naming
 * the app, the usual sign-in and consent, and "you can go back to your device"; the device's poll then gets
 * its tokens. axe finds no serious or critical violation on any of them (e2e/support/axe.ts). The browser
 * suite's server has DEVICE_FLOW=on (scripts/test.ts browserSettings).
 */
import { readFileSync } from 'node:fs';
import { expect, type Page, test } from '@playwright/test';
import { controlFindings, describeFindings, wcagFindings } from '../support/axe.ts';
import { baseUrl, makeClient, makeUser } from '../support/fixtures.ts';

// A sign-in and eight axe runs per language: more than the default 30 s on a busy machine.
test.describe.configure({ timeout: 180_000 });

const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
type Catalog = Record<string, unknown>;
const catalogs: Record<'en' | 'de', Catalog> = {
  en: JSON.parse(readFileSync(new URL('../../lib/i18n/messages/en.json', import.meta.url), 'utf8')),
  de: JSON.parse(readFileSync(new URL('../../lib/i18n/messages/de.json', import.meta.url), 'utf8')),
};

function text(locale: 'en' | 'de', path: string, values: Record<string, string> = {}): string {
  const found = path.split('.').reduce<unknown>((node, key) => (node as Catalog | undefined)?.[key], catalogs[locale]);
  if (typeof found !== 'string') throw new Error(`no text ${path} in ${locale}`);
  return found.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
}

/** No serious or critical WCAG violation in either scheme. */
async function expectAccessible(page: Page, name: string, locale: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const variant = `${scheme} ${locale}`;
    const findings = [...(await wcagFindings(page, name, variant)), ...(await controlFindings(page, name, variant))];
    expect(findings.length, `serious or critical WCAG violations:\n${describeFindings(findings)}\n`).toBe(0);
  }
}

for (const locale of ['en', 'de'] as const) {
  test.describe(`device verification (${locale})`, () => {
    test.use({ locale: locale === 'de' ? 'de-DE' : 'en-US' });

    test('the person types the code, signs in and consents; the device gets its tokens', async ({ page }) => {
      const client = await makeClient({ name: 'Living Room TV', type: 'public', redirectUris: [], grantTypes: [DEVICE_CODE] });
      const started = await (
        await fetch(`${baseUrl}/oauth/device/auth`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_id: client.id, scope: 'openid profile' }).toString(),
        })
      ).json();
      const t = (path: string, values?: Record<string, string>) => text(locale, `providerPages.device.${path}`, values);

      await page.goto(started.verification_uri);
      await expect(page.getByRole('heading', { name: t('heading') })).toBeVisible();
      await expectAccessible(page, 'device-code', locale);

      const code = page.getByLabel(t('codeLabel'));
      await code.fill('BBBB-BBBB');
      await page.getByRole('button', { name: t('continue') }).click();
      await expect(page.getByRole('alert')).toHaveText(t('wrongCode'));
      await expect(page.getByLabel(t('codeLabel'))).toHaveAttribute('aria-invalid', 'true');
      await expectAccessible(page, 'device-code-wrong', locale);

      await page.getByLabel(t('codeLabel')).fill(started.user_code.toLowerCase());
      await page.getByRole('button', { name: t('continue') }).click();
      await expect(page.getByRole('heading', { name: t('confirmHeading') })).toBeVisible();
      await expect(page.getByText(started.user_code, { exact: true })).toBeVisible();
      // The QR code of verification_uri_complete, drawn in the page (no image is fetched), named by its caption.
      const qr = page.locator('figure.qr');
      await expect(qr.locator('svg')).toBeVisible();
      await expect(qr.locator('figcaption')).toHaveText(t('qrCaption'));
      await expect(page.locator('img')).toHaveCount(0);
      await expectAccessible(page, 'device-confirm', locale);
      await page.getByRole('button', { name: t('confirm') }).click();

      // The usual sign-in and consent pages, in the same language.
      const user = await makeUser();
      await page.locator('input[name=username]').fill(user.username);
      await page.locator('input[name=password]').fill(user.password);
      await page.locator('form[action$="/login"] button[type=submit]:not([name=locale])').click();
      await page.locator('form[action$="/confirm"] button[type=submit]').first().click();
      await expect(page.getByRole('heading', { name: t('successHeading') })).toBeVisible();
      await expect(page.getByText(t('successBody', { client: 'Living Room TV' }))).toBeVisible();
      await expectAccessible(page, 'device-success', locale);

      const tokens = await (
        await fetch(`${baseUrl}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ client_id: client.id, grant_type: DEVICE_CODE, device_code: started.device_code }).toString(),
        })
      ).json();
      expect(tokens.access_token, JSON.stringify(tokens)).toBeTruthy();
      expect(tokens.id_token).toBeTruthy();
    });
  });
}
