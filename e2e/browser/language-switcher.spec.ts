/**
 * The sign-in pages' language switcher: the request goes on in the chosen language (the same
 * interaction, its consent page too), with and without JavaScript; the choice outranks the browser's
 * Accept-Language and the app's ui_locales, and holds for the mailed links' pages. Only the pages' own
 * posts may change it, and it sends the browser back only to a path of this server. axe clean in both
 * languages. Screenshots land in e2e/screenshots/language-switcher-*.png.
 */
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { COLOUR_RULES, controlFindings, describeFindings, wcagFindings } from '../support/axe.ts';
import { authorizationRequest, baseUrl, makeClient, makeUser } from '../support/fixtures.ts';
import { screenshots } from '../support/pages.ts';

// Several sign-ins and form posts per test, on a machine the other suites share: more time than the defaults.
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

const shoot = screenshots('language-switcher');

/** No serious or critical violation in the light scheme, nor in the dark one (the rules colours decide, as accessibility.spec.ts scans it). */
async function accessible(page: Page, name: string) {
  const findings = await wcagFindings(page, name, 'language-switcher-light');
  await page.emulateMedia({ colorScheme: 'dark' });
  findings.push(...(await wcagFindings(page, name, 'language-switcher-dark', COLOUR_RULES)), ...(await controlFindings(page, name, 'language-switcher-dark')));
  await page.emulateMedia({ colorScheme: 'light' });
  expect(findings, describeFindings(findings)).toEqual([]);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test('Deutsch on the sign-in page: the same request continues in German, consent included; back to English', async ({ page }) => {
      const user = await makeUser();
      const client = await makeClient({ name: 'Acme Shop' });
      const { url } = await authorizationRequest(client, { ui_locales: 'en' });
      await page.goto(url.href);
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      const interaction = page.url();
      // axe runs in the page: only where scripts run (the page is the same either way).
      if (javaScriptEnabled) await accessible(page, 'sign-in-en');

      await page.getByRole('button', { name: 'Deutsch' }).click();
      await expect(page.getByRole('heading', { name: 'Anmelden' })).toBeVisible();
      expect(page.url()).toBe(interaction);
      expect(await page.locator('html').getAttribute('lang')).toBe('de');
      await expect(page.getByText('Deutsch', { exact: true })).toHaveAttribute('aria-current', 'true');
      await shoot(page, `sign-in-de${javaScriptEnabled ? '' : '-no-js'}`);
      if (javaScriptEnabled) await accessible(page, 'sign-in-de');

      await page.getByLabel('Benutzername').fill(user.username);
      await page.getByLabel('Passwort', { exact: true }).fill(user.password);
      await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
      await expect(page.getByRole('heading', { name: 'Acme Shop erlauben?' })).toBeVisible();

      await page.getByRole('button', { name: 'English' }).click();
      await expect(page.getByRole('heading', { name: 'Allow Acme Shop?' })).toBeVisible();
      expect(await page.locator('html').getAttribute('lang')).toBe('en');
    });
  });
}

test('the choice holds on the other sign-in pages (a mailed link’s page) over Accept-Language', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto('/password-reset');
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByRole('button', { name: 'Deutsch' }).click();
  await expect(page).toHaveURL(/\/password-reset$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await page.goto('/account/signed-out');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await context.close();
});

test('only our own pages may change it, and it goes back only to a path of this server', async ({ request }) => {
  const foreign = await request.post('/language', {
    form: { locale: 'de', return: '/password-reset' },
    headers: { origin: 'https://evil.example' },
    maxRedirects: 0,
  });
  expect(foreign.status()).toBe(403);
  expect(foreign.headers()['set-cookie']).toBeUndefined();
  for (const target of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
    const answer = await request.post('/language', { form: { locale: 'de', return: target }, headers: { origin: new URL(baseUrl).origin }, maxRedirects: 0 });
    expect(answer.status()).toBe(303);
    expect(new URL(answer.headers().location).origin, target).toBe(new URL(baseUrl).origin);
    expect(new URL(answer.headers().location).pathname, target).toBe('/');
  }
  const unknown = await request.post('/language', {
    form: { locale: 'xx', return: '/password-reset' },
    headers: { origin: new URL(baseUrl).origin },
    maxRedirects: 0,
  });
  expect(unknown.status()).toBe(303);
  expect(unknown.headers()['set-cookie']).toBeUndefined();
});
