/**
 * Consent asked once per person and app (issue 23, item 1): what a person allowed an app is
 * remembered beyond the browser session it was given in, so signing in again from another
 * browser goes straight back to the app; the app asking for more asks only for what is new;
 * revoking the app in /account makes the next sign-in ask again. The new consent page state is
 * scanned by axe in English in the light scheme and in German in the dark one.
 */
import { type Browser, expect, type Page, test } from '@playwright/test';
import { controlFindings, describeFindings, wcagFindings } from '../support/axe.ts';
import { browserLocale, catalog, type Language } from '../support/catalog.ts';
import { authorizationRequest, makeClient, makeUser } from '../support/fixtures.ts';
import { gatehouseLogin, screenshots, status } from '../support/pages.ts';

const shoot = screenshots('consent-remembered');
const callbackPattern = /^http:\/\/127\.0\.0\.1:9\/callback\?/;

type User = Awaited<ReturnType<typeof makeUser>>;
type Client = Awaited<ReturnType<typeof makeClient>>;

/** A fresh browser (no cookie of Gatehouse's): another computer, as far as the server can tell. */
async function freshPage(browser: Browser, colorScheme: 'light' | 'dark' = 'light', language: Language = 'en'): Promise<Page> {
  const context = await browser.newContext({ colorScheme, locale: browserLocale(language) });
  return context.newPage();
}

/** Opens the app's request with `scope` and signs in; returns the page on the step after the password. */
async function signInToApp(page: Page, client: Client, user: User, scope: string) {
  const flow = await authorizationRequest(client, { scope });
  await page.goto(flow.url.href);
  await gatehouseLogin(page, user);
}

/** As signInToApp, in any language: the login form by its fields. */
async function signInToAppIn(page: Page, client: Client, user: User, scope: string) {
  const flow = await authorizationRequest(client, { scope });
  await page.goto(flow.url.href);
  const form = page.locator('form[action$="/login"]');
  await form.locator('input[name=username]').fill(user.username);
  await form.locator('input[name=password]').fill(user.password);
  await form.locator('button[type=submit]').click();
}

/** The browser's next request is for the app's redirect URI (the code): no consent page was shown. */
async function expectBackAtApp(page: Page, act: () => Promise<unknown>) {
  const callback = page.waitForRequest(callbackPattern);
  const failed = page.waitForEvent('requestfailed', (r) => callbackPattern.test(r.url()));
  await act();
  expect(new URL((await callback).url()).searchParams.get('code')).toBeTruthy();
  // Nothing listens there: Chromium shows its error page, which would cut short the next navigation.
  await failed;
  await page.waitForURL(/^chrome-error:/);
}

async function noSeriousViolations(page: Page, name: string, variant: string) {
  const findings = [...(await wcagFindings(page, name, variant)), ...(await controlFindings(page, name, variant))];
  expect(findings.length, `serious or critical WCAG violations:\n${describeFindings(findings)}\n`).toBe(0);
}

test('consent given in one browser is not asked in another; after revoking the app in /account it is asked again', async ({ browser }) => {
  test.slow(); // three browsers, each signing in through Gatehouse
  const user = await makeUser();
  const client = await makeClient({ name: `Notes ${Date.now()}` });

  const first = await freshPage(browser);
  await signInToApp(first, client, user, 'openid profile');
  await expect(first.getByRole('heading', { name: `Allow ${client.name}?` })).toBeVisible();
  await expectBackAtApp(first, () => first.getByRole('button', { name: 'Allow' }).click());

  // Another browser: the password, and straight back to the app.
  const second = await freshPage(browser);
  await expectBackAtApp(second, () => signInToApp(second, client, user, 'openid profile'));

  // The app is listed in /account, and revoked there.
  await second.goto('/account/apps');
  const app = second.getByRole('listitem').filter({ has: second.getByRole('heading', { name: client.name }) });
  await expect(app.getByText('See your name, username, picture, language and time zone')).toBeVisible();
  await second.getByText(`Revoke access… for ${client.name}`).click();
  await second.getByLabel(/its tokens stop working, and it asks for your permission again/).check();
  await second.getByRole('button', { name: `Revoke access for ${client.name}` }).click();
  await expect(status(second, 'Access revoked.')).toBeVisible();

  // A third browser is asked again.
  const third = await freshPage(browser);
  await signInToApp(third, client, user, 'openid profile');
  await expect(third.getByRole('heading', { name: `Allow ${client.name}?` })).toBeVisible();
  await expect(third.getByText(`${client.name} is asking to:`)).toBeVisible();
});

/** English in the light scheme, German in the dark one: every word from the catalogs, every colour of both schemes. */
const variants = [
  { language: 'en', colorScheme: 'light' },
  { language: 'de', colorScheme: 'dark' },
] as const;

for (const { language, colorScheme } of variants) {
  test(`an app asking for more (${language}, ${colorScheme}): only the new scope is asked, saying the rest was allowed before`, async ({ browser }) => {
    test.slow(); // three browsers, each signing in through Gatehouse
    const text = catalog(language);
    const allow = text('interaction.consent.allow');
    const user = await makeUser();
    const client = await makeClient({ name: `Tasks ${Date.now()}` });

    const first = await freshPage(browser, colorScheme, language);
    await signInToAppIn(first, client, user, 'openid profile');
    await expect(first.getByRole('heading', { name: text('interaction.consent.title', { client: client.name }) })).toBeVisible();
    await expect(first.getByText(text('scopes.profile'))).toBeVisible();
    await expectBackAtApp(first, () => first.getByRole('button', { name: allow }).click());

    const second = await freshPage(browser, colorScheme, language);
    await signInToAppIn(second, client, user, 'openid profile email');
    await expect(second.getByRole('heading', { name: text('interaction.consent.title', { client: client.name }) })).toBeVisible();
    await expect(second.getByText(text('interaction.consent.subtitleMore', { client: client.name }))).toBeVisible();
    await expect(second.getByText(text('scopes.email'))).toBeVisible();
    await expect(second.getByText(text('scopes.profile')), 'allowed before: not asked again').toHaveCount(0);
    const variant = `${language}-${colorScheme}`;
    await noSeriousViolations(second, 'consent-more', variant);
    await shoot(second, `more-${variant}`);
    await expectBackAtApp(second, () => second.getByRole('button', { name: allow }).click());

    // Both are remembered now: a third browser asking for both goes straight back.
    const third = await freshPage(browser, colorScheme, language);
    await expectBackAtApp(third, () => signInToAppIn(third, client, user, 'openid email profile'));
  });
}

test('prompt=consent asks again, for everything the request names', async ({ browser }) => {
  test.slow(); // two sign-ins
  const user = await makeUser();
  const client = await makeClient({ name: `Mail ${Date.now()}` });
  const page = await freshPage(browser);
  await signInToApp(page, client, user, 'openid profile');
  await expectBackAtApp(page, () => page.getByRole('button', { name: 'Allow' }).click());

  const again = await authorizationRequest(client, { scope: 'openid profile', prompt: 'consent' });
  await page.goto(again.url.href);
  await expect(page.getByRole('heading', { name: `Allow ${client.name}?` })).toBeVisible();
  await expect(page.getByText(`${client.name} is asking to:`)).toBeVisible();
  await expect(page.getByText('See your name, username, picture, language and time zone')).toBeVisible();
});
