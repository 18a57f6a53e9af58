/**
 * The operator's brand and the colour schemes in a real browser. A second
 * instance started with BRAND_NAME, BRAND_ACCENT_COLOR and BRAND_LOGO_FILE shows
 * them on the sign-in card (the logo served at /brand/logo, under its name as
 * alt text) with the favicon; the suite's own server shows the sign-in, consent,
 * /account and /admin pages in the light and the dark scheme, as the browser
 * asks (prefers-color-scheme); and one mail of each kind as a mail reader shows
 * it. Screenshots land in e2e/screenshots/brand-*.png.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { brandFrom } from '../../lib/config/brand.ts';
import { emailVerificationMail } from '../../lib/mail/templates/email-verification.ts';
import { passwordResetMail } from '../../lib/mail/templates/password-reset.ts';
import { signUpAttemptMail, signUpVerificationMail } from '../../lib/mail/templates/sign-up.ts';
import { hexToRgb } from '../../lib/config/colour.ts';
import { authorizationRequest, makeClient, makeUser } from '../support/fixtures.ts';
import { gatehouseLogin, screenshots } from '../support/pages.ts';
import { startInstance } from '../support/server.ts';

const shoot = screenshots('brand');

/** The lightness (0 black to 1 white) of the body's background: Tailwind's colours compute to lab(), the dark scheme's to rgb(). */
const bodyLightness = (page: Page) =>
  page.evaluate(() => {
    const context = Object.assign(document.createElement('canvas'), { width: 1, height: 1 }).getContext('2d')!;
    context.fillStyle = getComputedStyle(document.body).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return (r + g + b) / 3 / 255;
  });

const rgb = (hex: string) => `rgb(${hexToRgb(hex).join(', ')})`;

test.describe('an instance with its own brand', () => {
  // Starting a second server takes a few seconds on a fresh database.
  test.slow(true, 'pages of a second server of its own');
  let instance: Awaited<ReturnType<typeof startInstance>> | undefined;
  let dir: string;

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    dir = mkdtempSync(join(tmpdir(), 'gatehouse-brand-'));
    const logo = join(dir, 'acme.svg');
    writeFileSync(logo, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 24"><rect width="40" height="24" rx="6" fill="#0e7490"/></svg>');
    instance = await startInstance({
      DATABASE_URL: `file:${join(dir, 'brand.db')}`,
      BRAND_NAME: 'Acme ID',
      BRAND_ACCENT_COLOR: '#0E7490',
      BRAND_LOGO_FILE: logo,
    });
  });

  test.afterAll(() => {
    instance?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the sign-in page shows the name, the logo and the accent; the favicon is linked and served', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(`${instance!.url}/account`);
    // Straight to the sign-in page, where the portal is named after the brand.
    await expect(page.getByText('to continue to Acme ID account portal')).toBeVisible();
    await expect(page).toHaveTitle(/Acme ID/);
    const logo = page.getByRole('img', { name: 'Acme ID' });
    await expect(logo).toHaveAttribute('src', '/brand/logo');
    await expect.poll(() => logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    const button = page.getByRole('button', { name: 'Sign in', exact: true });
    await expect(button).toHaveCSS('background-color', rgb('#0e7490'));
    await expect(button).toHaveCSS('color', rgb('#ffffff'));
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
    const favicon = await page.request.get(`${instance!.url}/favicon.svg`);
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()['content-type']).toMatch(/^image\/svg\+xml/);
    const served = await page.request.get(`${instance!.url}/brand/logo`);
    expect(served.headers()['content-type']).toBe('image/svg+xml');
    await shoot(page, 'acme-sign-in-light');

    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await bodyLightness(page)).toBeLessThan(0.1);
    const { dark } = brandFrom({ BRAND_NAME: 'Acme ID', BRAND_ACCENT_COLOR: '#0e7490', BRAND_LOGO_URL: undefined, BRAND_LOGO_FILE: undefined });
    await expect(button).toHaveCSS('background-color', rgb(dark.accent));
    await expect(button).toHaveCSS('color', rgb(dark.onAccent));
    await shoot(page, 'acme-sign-in-dark');
  });
});

for (const scheme of ['light', 'dark'] as const) {
  test(`sign-in, consent, /account and /admin in the ${scheme} scheme`, async ({ page, browser }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const client = await makeClient({ name: 'Northwind Notes' });
    const person = await makeUser({ name: 'Grace Hopper' });
    const { url } = await authorizationRequest(client);
    await page.goto(url.href);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    const schemeLike = (lightness: number) => (scheme === 'dark' ? lightness < 0.1 : lightness > 0.95);
    expect(schemeLike(await bodyLightness(page)), `${scheme} page`).toBe(true);
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
    await page.getByLabel('Username').fill(person.username);
    await page.getByLabel('Username').focus(); // the focus ring and the field's border, in the screenshot
    await shoot(page, `${scheme}-sign-in`);
    await gatehouseLogin(page, person);
    await expect(page.getByRole('heading', { name: `Allow ${client.name}?` })).toBeVisible();
    await shoot(page, `${scheme}-consent`);

    // /account, in the same browser: signed in to Gatehouse already, so straight in.
    await page.goto('/account');
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
    expect(schemeLike(await bodyLightness(page)), `${scheme} /account`).toBe(true);
    await shoot(page, `${scheme}-account`);

    // /admin, as an admin in a browser of their own.
    const admin = await makeUser({ role: 'admin', name: 'Ada Admin' });
    const context = await browser.newContext({ colorScheme: scheme });
    try {
      const adminPage = await context.newPage();
      await adminPage.goto('/admin/users');
      await gatehouseLogin(adminPage, admin);
      await expect(adminPage.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
      await shoot(adminPage, `${scheme}-admin`);
    } finally {
      await context.close();
    }
  });
}

test("one mail of each kind, in an operator's brand, loads nothing", async ({ page }) => {
  const brand = { name: 'Acme ID', accent: '#0e7490' };
  const mails = {
    'password-reset': passwordResetMail({
      brand,
      username: 'grace',
      locale: 'en',
      url: 'https://id.acme.example/password-reset/5f2b0c',
      validMinutes: 30,
      requestedAt: new Date('2026-11-24T09:30:00Z'),
      ip: '203.0.113.7',
      userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/142.0',
    }),
    'email-verification': emailVerificationMail({
      brand,
      username: 'grace',
      email: 'grace@acme.example',
      locale: 'en',
      url: 'https://id.acme.example/verify-email/9a1e',
      validHours: 24,
    }),
    'sign-up': signUpVerificationMail({
      brand,
      locale: 'en',
      username: 'grace',
      email: 'grace@acme.example',
      url: 'https://id.acme.example/verify-email/7c3d',
      validHours: 24,
    }),
    'sign-up-attempt': signUpAttemptMail({
      brand,
      locale: 'en',
      username: 'grace',
      email: 'grace@acme.example',
      resetUrl: 'https://id.acme.example/password-reset',
    }),
  };
  const requests: string[] = [];
  page.on('request', (request) => requests.push(request.url()));
  for (const [kind, mail] of Object.entries(mails)) {
    await page.setContent(mail.html);
    await expect(page.getByText('Acme ID', { exact: true })).toBeVisible();
    const action = ['Choose a new password', 'Confirm my email address', 'Reset my password'].find((label) => mail.html.includes(label));
    await expect(page.getByRole('link', { name: action })).toHaveCSS('background-color', rgb('#0e7490'));
    await shoot(page, `mail-${kind}`);
  }
  expect(requests.filter((url) => !url.startsWith('about:') && !url.startsWith('data:'))).toEqual([]);
});
