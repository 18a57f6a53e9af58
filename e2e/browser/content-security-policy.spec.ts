/**
 * The Content-Security-Policy (proxy.ts) in a real browser: on the sign-in pages
 * and in the admin portal Next's scripts run (the pages hydrate) and Chromium
 * reports no violation, neither as a `securitypolicyviolation` event nor on the console.
 */
import { expect, test, type Page } from '@playwright/test';
import * as oidc from 'openid-client';
import { discover, makeClient, makeUser, pkce, redirectUri } from '../support/fixtures.ts';
import { gatehouseLogin } from '../support/pages.ts';

/** Collects every violation the page reports from now on. */
async function watchViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (text: string) => violations.push(text));
  // Injected by the DevTools protocol, which the policy does not govern.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportCspViolation(text: string): void }).reportCspViolation;
      report(`${location.pathname}: ${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`);
    });
  });
  page.on('console', (message) => {
    if (/content security policy/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
  });
  return violations;
}

/** The document at the page's URL is served under the nonce-based policy of proxy.ts. */
async function expectPolicy(page: Page) {
  const document = await page.request.get(page.url());
  expect(document.headers()['content-security-policy'], page.url()).toMatch(/script-src 'self' 'nonce-[^']+' 'strict-dynamic'/);
}

/** Next's client runtime ran: it announces itself on `window.next` once its scripts have loaded. */
async function expectHydrated(page: Page) {
  await expect.poll(() => page.evaluate(() => (window as unknown as { next?: { version?: string } }).next?.version ?? null)).toBeTruthy();
}

test('the sign-in and consent pages run their scripts, and nothing is refused', async ({ page }) => {
  const violations = await watchViolations(page);
  const user = await makeUser();
  const client = await makeClient();
  const config = await discover(client);
  const { challenge } = await pkce();
  await page.goto(
    oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid profile', code_challenge: challenge, code_challenge_method: 'S256' }).href,
  );
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expectPolicy(page);
  await expectHydrated(page);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: `Allow ${client.name}?` })).toBeVisible();
  await expectHydrated(page);
  const callback = page.waitForRequest(/^http:\/\/127\.0\.0\.1:9\/callback\?/);
  await page.getByRole('button', { name: 'Allow' }).click();
  await callback;
  expect(violations).toEqual([]);
});

test('the admin portal runs its scripts, and nothing is refused', async ({ page }) => {
  const violations = await watchViolations(page);
  const admin = await makeUser({ role: 'admin' });
  await page.goto('/admin/clients');
  await expect(page).toHaveURL(/\/interaction\/[^/?]+$/);
  await expectHydrated(page);
  await gatehouseLogin(page, admin);
  await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
  await expectPolicy(page);
  await expectHydrated(page);
  for (const [link, heading] of [
    ['Register a client', 'Register a client'],
    ['Users', 'Users'],
  ]) {
    await page.getByRole('link', { name: link }).first().click();
    await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
  }
  await page.goto('/admin/audit');
  await expectHydrated(page);
  expect(violations).toEqual([]);
});
