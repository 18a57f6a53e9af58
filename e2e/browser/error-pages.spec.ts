/**
 * Dead ends as a person meets them in the browser: what happened in plain words, what to do
 * (back to the application where that is safe, otherwise a clear stop), the request id for
 * support, and the protocol's code only behind "Technical details". Without JavaScript too.
 */
import { expect, type Page, test } from '@playwright/test';
import { authorizationRequest, baseUrl, makeClient, makeUser, redirectUri } from '../support/fixtures.ts';
import { gatehouseLoginGerman, screenshots } from '../support/pages.ts';

const shoot = screenshots('errors');

function authorizeUrl(clientId: string, overrides: Record<string, string> = {}) {
  const url = new URL('/oauth/authorize', baseUrl);
  url.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    ...overrides,
  }).toString();
  return url.href;
}

/** The request id the page shows is the one its answer carried. */
async function showsRequestId(page: Page, requestId: string | undefined) {
  expect(requestId).toBeTruthy();
  await expect(page.locator('code').filter({ hasText: requestId! })).toBeVisible();
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('an unknown client: a clear stop, the request id, the code hidden until asked for', async ({ page }) => {
    const response = await page.goto(authorizeUrl('no-such-client'));
    expect(response?.status()).toBe(400);
    await expect(page.getByRole('heading', { name: 'This sign-in link is not from a known app' })).toBeVisible();
    await expect(page.getByText('Go back to the app you came from and try again.')).toBeVisible();
    await expect(page.getByRole('link')).toHaveCount(0);
    await showsRequestId(page, response?.headers()['x-request-id']);
    const code = page.getByText('invalid_client', { exact: true });
    await expect(code).toBeHidden();
    await page.getByText('Technical details').click();
    await expect(code).toBeVisible();
    await shoot(page, 'unknown-client');
  });

  test('an unregistered redirect_uri, for a German browser: German, <html lang="de">, no link', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false, locale: 'de-DE' });
    const page = await context.newPage();
    const client = await makeClient();
    await page.goto(authorizeUrl(client.id, { redirect_uri: 'https://evil.example/callback' }));
    await expect(page.getByRole('heading', { name: 'Diese Anmeldung wurde zu Ihrem Schutz angehalten' })).toBeVisible();
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    await expect(page.getByRole('link')).toHaveCount(0);
    await expect(page.getByText('Technische Details')).toBeVisible();
    await shoot(page, 'redirect-uri-de');
    await context.close();
  });

  test('a sign-in form sent after its request is gone: expired, with a button back to the application', async ({ page, context }) => {
    const client = await makeClient();
    const { url } = await authorizationRequest(client);
    await page.goto(url.href);
    await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    // The request's cookie gone (it expires with the request): the form still knows where it came from.
    await context.clearCookies();
    await page.getByLabel('Username').fill('someone');
    await page.getByLabel('Password').fill('anything');
    const answer = page.waitForResponse((r) => new URL(r.url()).searchParams.get('error') === 'expired');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const response = await answer;
    await expect(page.getByRole('heading', { name: 'This sign-in request has expired' })).toBeVisible();
    await expect(page.getByText(`Go back to ${client.name} and sign in again from there.`)).toBeVisible();
    await expect(page.getByRole('link', { name: `Back to ${client.name}` })).toHaveAttribute('href', 'http://127.0.0.1:9/');
    await showsRequestId(page, response.headers()['x-request-id']);
    await shoot(page, 'expired');
  });
});

test('the 404 page for a German browser: German, <html lang="de">, the request id', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await context.newPage();
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Seite nicht gefunden' })).toBeVisible();
  await expect(page).toHaveTitle(/^Seite nicht gefunden · /);
  expect(await page.locator('html').getAttribute('lang')).toBe('de');
  await showsRequestId(page, response?.headers()['x-request-id']);
  await shoot(page, 'not-found-de');
  await context.close();
});

test('the 403 page for a German browser: German, <html lang="de">, the request id', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await context.newPage();
  const user = await makeUser();
  await page.goto('/admin');
  // The sign-in page of the portal's request, in German like every interaction page for this browser.
  await page.getByLabel('Benutzername').fill(user.username);
  await page.getByLabel('Passwort').fill(user.password);
  const answer = page.waitForResponse((r) => new URL(r.url()).pathname === '/admin' && r.status() === 403);
  await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
  const response = await answer;
  await expect(page.getByRole('heading', { name: 'Sie haben keinen Zugriff auf diese Seite' })).toBeVisible();
  // German, as the admin area for this browser, and says so to the browser and screen readers: <html lang="de">.
  expect(await page.locator('html').getAttribute('lang')).toBe('de');
  expect(await page.locator('main').evaluate((main) => main.closest('[lang]')?.getAttribute('lang'))).toBe('de');
  await expect(page.getByRole('button', { name: 'Abmelden' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Zu Ihrem Konto' })).toBeVisible();
  await showsRequestId(page, response.headers()['x-request-id']);
  await shoot(page, 'forbidden-de');
  await context.close();
});

test('an admin with a German browser: the admin pages are German, and <html lang="de"> says so', async ({ browser }) => {
  const context = await browser.newContext({ locale: 'de-DE' });
  const page = await context.newPage();
  const admin = await makeUser({ role: 'admin' });
  await page.goto('/admin');
  await gatehouseLoginGerman(page, admin);
  await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Client registrieren' })).toBeVisible();
  expect(await page.locator('html').getAttribute('lang')).toBe('de');
  await context.close();
});
