/**
 * Registering a client by application kind: the first step is the kind (plain links), the form then shows only
 * what that kind uses, and the registration stored has the kind's settings (read back from the database). The
 * answer shows "Connect your app" with the discovery URL whole and a snippet per library, never the secret in
 * them. axe finds no serious or critical violation on these pages in the light and the dark scheme.
 */
import { expect, type Page, test } from '@playwright/test';
import { findClient } from '../../lib/clients/manage.ts';
import { database } from '../../lib/db/database.ts';
import { describeFindings, wcagFindings } from '../support/axe.ts';
import { baseUrl, databaseUrl } from '../support/fixtures.ts';
import { adminSignedIn, screenshots } from '../support/pages.ts';

test.slow(true, 'an admin sign-in, then several forms and pages, each scanned by axe');

const shoot = screenshots('admin-presets');

/** The client id the answer shows: the secret panel's field for a confidential client, the notice's code for a public one. */
async function createdClientId(page: Page, confidential: boolean): Promise<string> {
  if (confidential) return page.getByRole('textbox', { name: 'Client ID' }).inputValue();
  return ((await page.getByRole('status').locator('code').first().textContent()) ?? '').trim();
}

async function register(page: Page, kind: string, label: RegExp, fields: { name: string; redirectUris?: string }) {
  await page.goto('/admin/clients/new');
  await page.getByRole('link', { name: label }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/clients/new\\?kind=${kind}$`));
  await page.getByLabel('Name', { exact: true }).fill(fields.name);
  if (fields.redirectUris) await page.getByLabel('Redirect URIs', { exact: true }).fill(fields.redirectUris);
  await page.getByRole('button', { name: 'Register client' }).click();
  await expect(page.getByText(`${fields.name} is registered`).first()).toBeVisible();
}

test('each kind of application registers with its settings, and the form shows only the fields it uses', async ({ page }) => {
  await adminSignedIn(page);
  const db = database(databaseUrl);
  const tag = Date.now();

  await page.goto('/admin/clients/new');
  for (const kind of ['Web application', 'Single-page app', 'Native or mobile app', 'Machine to machine', 'API (resource server)', 'Other: every setting']) {
    await expect(page.getByRole('link', { name: new RegExp(`^${kind.replace(/[()]/g, '\\$&')}`) })).toBeVisible();
  }
  await shoot(page, 'kinds');

  // A single-page app: public, no secret field, no client_credentials, the PKCE note shown.
  await page.goto('/admin/clients/new?kind=spa');
  await expect(page.getByText('A public client has no secret: it proves itself with PKCE')).toBeVisible();
  await expect(page.getByLabel('Token endpoint authentication')).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: /Client credentials/ })).toHaveCount(0);
  await expect(page.getByRole('radio', { name: /^Public/ })).toHaveCount(0);
  await register(page, 'spa', /^Single-page app/, { name: `SPA ${tag}`, redirectUris: 'https://spa.example.test/callback' });
  const spa = await findClient(db, await createdClientId(page, false));
  expect(spa).toMatchObject({ confidential: false, tokenEndpointAuthMethod: 'none', grantTypes: ['authorization_code'] });
  expect(spa?.scope).toBe('openid profile email');

  // A native app: a custom scheme and a loopback redirect URI.
  await register(page, 'native', /^Native or mobile app/, { name: `Native ${tag}`, redirectUris: 'com.example.notes:/callback\nhttp://127.0.0.1/callback' });
  const native = await findClient(db, await createdClientId(page, false));
  expect(native).toMatchObject({ confidential: false, applicationType: 'native', redirectUris: ['com.example.notes:/callback', 'http://127.0.0.1/callback'] });

  // Machine to machine: no redirect URIs asked, client_credentials only, a secret.
  await page.goto('/admin/clients/new?kind=machine');
  await expect(page.getByLabel('Redirect URIs', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: /Authorization code/ })).toHaveCount(0);
  await register(page, 'machine', /^Machine to machine/, { name: `Service ${tag}` });
  const machine = await findClient(db, await createdClientId(page, true));
  expect(machine).toMatchObject({ confidential: true, grantTypes: ['client_credentials'], redirectUris: [], firstParty: false });

  // An API: a resource server with the introspect scope.
  await register(page, 'api', /^API \(resource server\)/, { name: `API ${tag}` });
  const api = await findClient(db, await createdClientId(page, true));
  expect(api).toMatchObject({ confidential: true, resourceServer: true, grantTypes: ['client_credentials'], scope: 'introspect' });

  // A web app: confidential, code and refresh, the full "Connect your app" after it.
  await register(page, 'web', /^Web application/, { name: `Web ${tag}`, redirectUris: 'https://web.example.test/callback' });
  const clientSecret = await page.getByRole('textbox', { name: 'Client secret' }).inputValue();
  const web = await findClient(db, await createdClientId(page, true));
  expect(web).toMatchObject({ confidential: true, grantTypes: ['authorization_code', 'refresh_token'], tokenEndpointAuthMethod: 'client_secret_basic' });
  await expect(page.getByRole('heading', { name: 'Connect your app' })).toBeVisible();
  await expect(page.locator('#quickstart-discovery')).toHaveText(`${baseUrl}/.well-known/openid-configuration`);
  for (const library of ['openid-client (Node.js)', 'Auth.js / next-auth', 'Spring Security', 'Python Authlib', 'Go coreos/go-oidc']) {
    await expect(page.locator('summary').filter({ hasText: library })).toBeVisible();
  }
  const snippets = await page.locator('pre').allTextContents();
  expect(snippets.join('\n')).toContain(web!.id);
  expect(snippets.join('\n'), 'a snippet never holds the secret').not.toContain(clientSecret);
  await shoot(page, 'web-created');
});

test('"Connect your app" on a client\'s page: the discovery URL wraps instead of being cut off', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await adminSignedIn(page);
  await register(page, 'web', /^Web application/, { name: `Narrow ${Date.now()}`, redirectUris: 'https://narrow.example.test/callback' });
  await page.getByRole('link', { name: /show the client/ }).click();
  const discovery = page.locator('#quickstart-discovery');
  await expect(discovery).toHaveText(`${baseUrl}/.well-known/openid-configuration`);
  // All of it is inside its box: nothing scrolls or is clipped.
  expect(await discovery.evaluate((e) => e.scrollWidth <= e.clientWidth)).toBe(true);
  await expect(page.locator('pre').filter({ hasText: 'https://narrow.example.test/callback' }).first()).toBeAttached();
  await shoot(page, 'client-narrow');
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} scheme`, () => {
    // At a phone's width, where a long line would make a snippet scroll (a region a keyboard must reach).
    test.use({ colorScheme: scheme, viewport: { width: 390, height: 844 } });

    test("the kinds, a kind's form with its errors, and the answer with its quickstart: no serious or critical axe violation", async ({ page }) => {
      await adminSignedIn(page);
      const findings = [];
      await page.goto('/admin/clients/new');
      findings.push(...(await wcagFindings(page, 'client-kinds', scheme)));
      await page.goto('/admin/clients/new?kind=native');
      await page.getByLabel('Name', { exact: true }).fill('Axe native');
      await page.getByLabel('Redirect URIs', { exact: true }).fill('not a uri');
      await page.getByRole('button', { name: 'Register client' }).click();
      await expect(page.locator('[aria-invalid=true]').first()).toBeVisible();
      findings.push(...(await wcagFindings(page, 'client-native-errors', scheme)));
      await page.getByLabel('Redirect URIs', { exact: true }).fill('com.example.axe:/callback');
      await page.getByRole('button', { name: 'Register client' }).click();
      await expect(page.getByRole('heading', { name: 'Connect your app' })).toBeVisible();
      findings.push(...(await wcagFindings(page, 'client-native-created', scheme)));
      expect(findings, describeFindings(findings)).toHaveLength(0);
    });
  });
}
