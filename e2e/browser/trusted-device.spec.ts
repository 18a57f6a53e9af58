/**
 * Trusted devices (issue 23, item 6; the test servers run with TRUSTED_DEVICE_DAYS=30): "Don't ask
 * for a second step on this device" ticked with a right code lets the next password typed in that
 * browser sign in without the code, as a password-only sign-in (acr password, amr pwd); /account
 * lists the device; a password change ends the trust, and the code is asked again. A request
 * that asks for the mfa acr is never shortened by it (e2e/protocol/trusted-device.test.ts has the
 * protocol's side). The code step with the box is scanned by axe in both schemes.
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import * as oidc from 'openid-client';
import { database } from '../../lib/db/database.ts';
import { totpCode } from '../../lib/factors/totp.ts';
import { changePassword } from '../../lib/users/manage.ts';
import { controlFindings, describeFindings, wcagFindings } from '../support/axe.ts';
import { authorizationRequest, databaseUrl, makeClient, makeUser } from '../support/fixtures.ts';
import { screenshots } from '../support/pages.ts';

const shoot = screenshots('trusted-device');
const callbackPattern = /^http:\/\/127\.0\.0\.1:9\/callback\?/;
const TRUST = 'Don’t ask for a second step on this device for 30 days';

type User = Awaited<ReturnType<typeof makeUser>>;
type Client = Awaited<ReturnType<typeof makeClient>>;

async function typePassword(page: Page, user: { username: string; password: string }) {
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs out of Gatehouse in this browser as far as the server can tell, keeping only its device cookie (what "trusted" rests on). */
async function endSessionKeepDevice(context: BrowserContext) {
  const device = (await context.cookies()).filter((cookie) => cookie.name === 'gatehouse_device');
  await context.clearCookies();
  await context.addCookies(device);
}

/** The app's request (openid only: its consent is remembered after the first); returns its ID token's acr and amr after the code. */
async function signInToApp(page: Page, client: Client, user: User, { code, trust }: { code: boolean; trust?: boolean }) {
  const flow = await authorizationRequest(client, { scope: 'openid' });
  const callback = page.waitForRequest(callbackPattern);
  const failed = page.waitForEvent('requestfailed', (r) => callbackPattern.test(r.url()));
  await page.goto(flow.url.href);
  await typePassword(page, user);
  if (code) {
    await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    if (trust) await page.getByLabel(TRUST).check();
    await page.getByLabel('Enter the code from your authenticator app').fill(totpCode(user.totpSecret!, Date.now()));
    await page.getByRole('button', { name: 'Verify' }).click();
  }
  const allow = page.getByRole('button', { name: 'Allow' });
  if (await allow.isVisible().catch(() => false)) await allow.click();
  const url = (await callback).url();
  await failed;
  await page.waitForURL(/^chrome-error:/);
  const tokens = await oidc.authorizationCodeGrant(flow.config, new URL(url), { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  const claims = tokens.claims();
  return { acr: claims?.acr, amr: claims?.amr };
}

/** The app's request, the password: the code step is asked (no code typed: the account's last one may not be used again). */
async function expectCodeAsked(page: Page, client: Client, user: { username: string; password: string }) {
  const flow = await authorizationRequest(client, { scope: 'openid' });
  await page.goto(flow.url.href);
  await typePassword(page, user);
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
}

test('a trusted browser skips the second step, as a password-only sign-in, until the password changes', async ({ browser }) => {
  test.slow(); // four sign-ins
  const user = await makeUser({ secondFactor: true });
  const client = await makeClient({ name: `Diary ${Date.now()}` });
  const context = await browser.newContext();
  const page = await context.newPage();

  const first = await signInToApp(page, client, user, { code: true, trust: true });
  expect(first).toEqual({ acr: 'urn:gatehouse:acr:mfa', amr: ['pwd', 'otp', 'mfa'] });

  await endSessionKeepDevice(context);
  const trusted = await signInToApp(page, client, user, { code: false });
  expect(trusted, 'no second step was taken: the ID token says the password alone').toEqual({ acr: 'urn:gatehouse:acr:password', amr: ['pwd'] });

  // Listed in /account (signed in already: the portal asks nothing), as this device.
  await page.goto('/account/sessions');
  await expect(page).toHaveURL(/\/account\/sessions$/);
  const card = page.getByRole('region', { name: 'Trusted devices' });
  await expect(card.getByText('This device')).toBeVisible();
  await expect(card.getByRole('button', { name: /Stop trusting/ })).toHaveCount(1);
  await shoot(page, 'account');

  // A new password ends the trust: the code is asked again.
  const newPassword = `new-${Date.now()}-password`;
  await changePassword(database(databaseUrl), user.id, newPassword);
  await endSessionKeepDevice(context);
  await expectCodeAsked(page, client, { ...user, password: newPassword });
  await context.close();
});

test('Stop trusting in /account: the next sign-in asks for the code', async ({ browser }) => {
  test.slow(); // two sign-ins
  const user = await makeUser({ secondFactor: true });
  const client = await makeClient({ name: `Photos ${Date.now()}` });
  const context = await browser.newContext();
  const page = await context.newPage();
  await signInToApp(page, client, user, { code: true, trust: true });
  await page.goto('/account/sessions');
  await page.getByRole('button', { name: /Stop trusting/ }).click();
  await expect(page.getByText('That device asks for a second step again.')).toBeVisible();
  await expect(page.getByText('No trusted device.')).toBeVisible();
  await endSessionKeepDevice(context);
  await expectCodeAsked(page, client, user);
  await context.close();
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the code step with the box (${colorScheme}); not offered when the client requires a second factor`, async ({ browser }) => {
    const user = await makeUser({ secondFactor: true });
    const context = await browser.newContext({ colorScheme });
    const page = await context.newPage();
    const flow = await authorizationRequest(await makeClient(), { scope: 'openid' });
    await page.goto(flow.url.href);
    await typePassword(page, user);
    await expect(page.getByLabel(TRUST)).toBeVisible();
    const findings = [...(await wcagFindings(page, 'code-step-trust', colorScheme)), ...(await controlFindings(page, 'code-step-trust', colorScheme))];
    expect(findings.length, describeFindings(findings)).toBe(0);
    await shoot(page, `code-step-${colorScheme}`);

    const strict = await authorizationRequest(await makeClient({ requireSecondFactor: true }), { scope: 'openid' });
    await page.goto(strict.url.href);
    await typePassword(page, user);
    await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    await expect(page.getByLabel(TRUST)).toHaveCount(0);
    await context.close();
  });
}
