/**
 * The relying party on the sign-in and consent pages, inside the operator's brand: its name, its
 * logo from logo_uri (https only, 48 px, with alt text; its initial otherwise) and the domain the
 * person returns to. The logo's host is played by page.route: nothing leaves the machine.
 */
import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { insertClient } from '../../lib/clients/repository.ts';
import { database } from '../../lib/db/database.ts';
import { authorizationRequest, databaseUrl, makeClient, makeUser } from '../support/fixtures.ts';
import { screenshots } from '../support/pages.ts';

const shoot = screenshots('app-identity');

// A 2×2 PNG, enough for the browser to decode.
const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==', 'base64');

/** Serves the logo host, counting what it was asked for. */
async function logoHost(page: Page) {
  const asked: string[] = [];
  await page.route('https://logos.example/**', async (route) => {
    asked.push(route.request().url());
    await route.fulfill({ status: 200, contentType: 'image/png', body: png });
  });
  return asked;
}

/** Images the page's policy refused, from Chromium's console. */
function refusedImages(page: Page) {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Refused to load the image/.test(message.text())) refused.push(message.text());
  });
  return refused;
}

test('sign-in and consent show the app’s logo (loaded, allowed by the policy), its name and the domain it returns to', async ({ page }) => {
  const asked = await logoHost(page);
  const refused = refusedImages(page);
  const user = await makeUser();
  const client = await makeClient({ name: 'Acme Shop', logoUri: 'https://logos.example/acme.png' });
  const { url } = await authorizationRequest(client);
  const interactionPage = page.waitForResponse((r) => /^\/interaction\/[^/]+$/.test(new URL(r.url()).pathname));
  await page.goto(url.href);
  expect((await interactionPage).headers()['content-security-policy']).toMatch(/img-src 'self' data: https:/);

  const logo = page.getByRole('img', { name: 'Acme Shop logo' });
  await expect(logo).toBeVisible();
  await expect(logo).toHaveAttribute('width', '48');
  expect(await logo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  await expect(page.getByText('to continue to Acme Shop')).toBeVisible();
  await expect(page.getByText('Returns you to 127.0.0.1:9')).toBeVisible();
  // The operator's brand around it: its name on top of the card.
  await expect(page.locator('section').getByText('Gatehouse', { exact: true })).toBeVisible();
  await shoot(page, 'sign-in');

  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Allow Acme Shop?' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'Acme Shop logo' })).toBeVisible();
  await expect(page.getByText('Returns you to 127.0.0.1:9')).toBeVisible();
  await shoot(page, 'consent');
  expect(asked.length).toBeGreaterThan(0);
  expect(refused).toEqual([]);
});

test('without a logo, or with one that is not https: the app’s initial instead, and nothing is fetched', async ({ page }) => {
  const asked = await logoHost(page);
  for (const client of [
    await makeClient({ name: 'zebra notes' }),
    // Registration accepts only https; a row stored before that rule may hold anything.
    await insertClient(database(databaseUrl), {
      id: `plain-${randomBytes(6).toString('hex')}`,
      name: 'zebra notes',
      secretHash: null,
      redirectUris: ['http://127.0.0.1:9/callback'],
      postLogoutRedirectUris: [],
      grantTypes: ['authorization_code'],
      scope: 'openid profile email',
      tokenEndpointAuthMethod: 'none',
      applicationType: 'web',
      logoUri: 'http://logos.example/zebra.png',
      firstParty: false,
      resourceServer: false,
      adminApi: false,
      idTokenSignedResponseAlg: 'ES256',
    }),
  ]) {
    const { url } = await authorizationRequest(client);
    await page.goto(url.href);
    await expect(page.getByText('to continue to zebra notes')).toBeVisible();
    await expect(page.getByRole('img', { name: /logo/ })).toHaveCount(0);
    await expect(page.locator('span[aria-hidden="true"]').filter({ hasText: /^Z$/ })).toBeVisible();
  }
  expect(asked).toEqual([]);
  await shoot(page, 'initial');
});
