/**
 * A relying party's logo that fails to load (its host answers 404, or is down) gives way to the app's
 * initial: no broken image, no clipped alt text, with or without JavaScript (without it the initial is
 * drawn behind the image). The logo shows on /account's connected apps and on the sign-up card with the
 * domain the person returns to. The logo host is played by page.route: nothing leaves the machine.
 * Screenshots land in e2e/screenshots/logos-*.png.
 */
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { describeFindings, wcagFindings } from '../support/axe.ts';
import { browserLocale, catalog } from '../support/catalog.ts';
import { authorizationRequest, makeClient, makeUser } from '../support/fixtures.ts';
import { gatehouseLogin, screenshots } from '../support/pages.ts';

// Several sign-ins and form posts per test, on a machine the other suites share: more time than the defaults.
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

const shoot = screenshots('logos');
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

/** The logo host: `broken.png` is not there, the rest is a small PNG. */
async function logoHost(page: Page) {
  await page.route('https://logos.example/**', (route) =>
    route.request().url().endsWith('/broken.png')
      ? route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' })
      : route.fulfill({ status: 200, contentType: 'image/png', body: png }),
  );
}

/** Every image on the page that the browser could not decode. */
const brokenImages = (page: Page) =>
  page
    .locator('img')
    .evaluateAll((images) => images.filter((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth === 0).length);

/** English in the light scheme, German in the dark one: every word from the catalogs, every colour of both schemes. */
const variants = [
  { language: 'en', colorScheme: 'light' },
  { language: 'de', colorScheme: 'dark' },
] as const;

for (const { language, colorScheme } of variants) {
  test(`${language}, ${colorScheme}: a logo that fails to load shows the app’s initial, on sign-in and consent`, async ({ browser }) => {
    const text = catalog(language);
    const context = await browser.newContext({ colorScheme, locale: browserLocale(language) });
    const page = await context.newPage();
    await logoHost(page);
    const user = await makeUser();
    const client = await makeClient({ name: 'quill notes', logoUri: 'https://logos.example/broken.png' });
    const { url } = await authorizationRequest(client);
    await page.goto(url.href);
    await expect(page.getByText(text('interaction.login.subtitle', { client: 'quill notes' }))).toBeVisible();
    await expect(page.getByRole('img', { name: /logo/ })).toHaveCount(0);
    await expect(page.locator('[data-initial]').filter({ hasText: /^Q$/ })).toBeVisible();
    expect(await brokenImages(page)).toBe(0);
    const variant = `${language}-${colorScheme}`;
    await shoot(page, `broken-sign-in-${variant}`);
    const findings = await wcagFindings(page, 'broken-logo', variant);
    expect(findings, describeFindings(findings)).toEqual([]);

    const form = page.locator('form[action$="/login"]');
    await form.locator('input[name=username]').fill(user.username);
    await form.locator('input[name=password]').fill(user.password);
    await form.locator('button[type=submit]').click();
    await expect(page.getByRole('heading', { name: text('interaction.consent.title', { client: 'quill notes' }) })).toBeVisible();
    await expect(page.locator('[data-initial]').filter({ hasText: /^Q$/ })).toBeVisible();
    expect(await brokenImages(page)).toBe(0);
    await context.close();
  });
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the initial is drawn behind a logo, where a failed image leaves it visible', async ({ page }) => {
    await logoHost(page);
    const client = await makeClient({ name: 'quill notes', logoUri: 'https://logos.example/broken.png' });
    const { url } = await authorizationRequest(client);
    await page.goto(url.href);
    const initial = page.locator('[data-initial]').filter({ hasText: /^Q$/ });
    await expect(initial).toBeVisible();
    // Beneath the image, the same size: what the image does not cover shows the initial.
    const [tile, image] = await Promise.all([initial.boundingBox(), page.locator('img[src="https://logos.example/broken.png"]').boundingBox()]);
    expect(tile).toEqual(image);
    await shoot(page, 'broken-no-script');
  });
});

test('the logo on /account’s connected apps and on the sign-up card, with the domain the person returns to', async ({ page }) => {
  await logoHost(page);
  const user = await makeUser();
  const client = await makeClient({ name: 'Acme Shop', logoUri: 'https://logos.example/acme.png' });
  const { url } = await authorizationRequest(client);
  await page.goto(url.href);
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  const logo = page.getByRole('img', { name: 'Acme Shop logo' });
  await expect(logo).toBeVisible();
  expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByText('Returns you to 127.0.0.1:9')).toBeVisible();
  await shoot(page, 'sign-up-card');

  await page.goto(url.href);
  await gatehouseLogin(page, user);
  await page.getByRole('button', { name: 'Allow' }).click();
  // The app's callback is a refused port here: Chromium shows its error page once the code is on its way.
  await page.waitForURL(/^chrome-error:/);
  await page.goto('/account/apps');
  const appLogo = page.getByRole('img', { name: 'Acme Shop logo' });
  await expect(appLogo).toBeVisible();
  expect(await appLogo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await shoot(page, 'account-apps');
  const findings = await wcagFindings(page, 'account-apps-logo', 'light');
  expect(findings, describeFindings(findings)).toEqual([]);
});
