/**
 * Trusted devices (issue 23, item 6; the test servers run with TRUSTED_DEVICE_DAYS=30): "Don't ask
 * for a second step on this device" ticked with a right code lets the next password typed in that
 * browser sign in without the code, as a password-only sign-in (acr password, amr pwd); /account
 * lists the device; a password change ends the trust, and the code is asked again. A request
 * that asks for the mfa acr is never shortened by it (e2e/protocol/trusted-device.test.ts has the
 * protocol's side). The box is there when a passkey is the second step too (its own, or the code form's
 * sent along when both are offered). The code step with the box is scanned by axe in English in the light
 * scheme and in German in the dark one.
 */
import { type BrowserContext, expect, type Page, test } from '@playwright/test';
import * as oidc from 'openid-client';
import { database } from '../../lib/db/database.ts';
import { totpCode } from '../../lib/factors/totp.ts';
import { controlFindings, describeFindings, wcagFindings } from '../support/axe.ts';
import { browserLocale, catalog } from '../support/catalog.ts';
import { authorizationRequest, databaseUrl, enrolTotp, makeClient, makeUser } from '../support/fixtures.ts';
import { screenshots } from '../support/pages.ts';
import { enrolPasskey } from '../support/passkeys.ts';

const shoot = screenshots('trusted-device');
const callbackPattern = /^http:\/\/127\.0\.0\.1:9\/callback\?/;
const TRUST = 'Don’t ask for a second step on this device for 30 days';

type User = Awaited<ReturnType<typeof makeUser>>;
type Client = Awaited<ReturnType<typeof makeClient>>;

/** The login form, by its fields (the spec runs in English and German). */
async function typePassword(page: Page, user: { username: string; password: string }) {
  const form = page.locator('form[action$="/login"]');
  await form.locator('input[name=username]').fill(user.username);
  await form.locator('input[name=password]').fill(user.password);
  await form.locator('button[type=submit]').click();
}

/** Signs out of Gatehouse in this browser as far as the server can tell, keeping only its device cookie (what "trusted" rests on). */
async function endSessionKeepDevice(context: BrowserContext) {
  const device = (await context.cookies()).filter((cookie) => cookie.name === 'gatehouse_device');
  await context.clearCookies();
  await context.addCookies(device);
}

/** The app's request (openid only: its consent is remembered after the first); returns its ID token's acr and amr after the code. */
async function signInToApp(page: Page, client: Client, user: User, { code, trust }: { code: boolean; trust?: boolean }) {
  return toApp(page, client, user, async () => {
    if (!code) return;
    await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    if (trust) await page.getByLabel(TRUST).check();
    await page.getByLabel('Enter the code from your authenticator app').fill(totpCode(user.totpSecret!, Date.now()));
    await page.getByRole('button', { name: 'Verify' }).click();
  });
}

/** The app's request, the password, then `secondStep` (nothing, when none is asked); the ID token's acr and amr. */
async function toApp(page: Page, client: Client, user: User, secondStep: () => Promise<void>) {
  const flow = await authorizationRequest(client, { scope: 'openid' });
  // This request's own callback, by its state: Chromium reloads a refused page by itself, so the last sign-in's may come again.
  const ours = (url: string) => callbackPattern.test(url) && new URL(url).searchParams.get('state') === flow.state;
  const callback = page.waitForRequest((r) => ours(r.url()));
  const failed = page.waitForEvent('requestfailed', (r) => ours(r.url()));
  await page.goto(flow.url.href);
  await typePassword(page, user);
  await secondStep();
  // Consent is asked the first time only: whichever comes first, the consent page or the app.
  const allow = page.getByRole('button', { name: 'Allow' });
  const asked = await Promise.race([
    callback.then(() => false),
    allow.waitFor().then(
      () => true,
      () => false,
    ),
  ]);
  if (asked) await allow.click();
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

  // A new password, changed in /account as the person would, ends the trust: the code is asked again.
  const newPassword = `new-${Date.now()}-password`;
  await page.goto('/account/password');
  await page.getByLabel('Current password').fill(user.password);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('New password, again').fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('Your password is changed.')).toBeVisible();
  await page.goto('/account/sessions');
  await expect(page.getByRole('region', { name: 'Trusted devices' }).getByText('No trusted device.')).toBeVisible();
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

/** English in the light scheme, German in the dark one: every word from the catalogs, every colour of both schemes. */
const variants = [
  { language: 'en', colorScheme: 'light' },
  { language: 'de', colorScheme: 'dark' },
] as const;

for (const { language, colorScheme } of variants) {
  test(`the code step with the box (${language}, ${colorScheme}); not offered when the client requires a second factor`, async ({ browser }) => {
    const text = catalog(language);
    const title = text('interaction.secondFactor.title');
    const trust = text('interaction.secondFactor.trustDevice', { count: 30 });
    const user = await makeUser({ secondFactor: true });
    const context = await browser.newContext({ colorScheme, locale: browserLocale(language) });
    const page = await context.newPage();
    const flow = await authorizationRequest(await makeClient(), { scope: 'openid' });
    await page.goto(flow.url.href);
    await typePassword(page, user);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    await expect(page.getByLabel(trust)).toBeVisible();
    await expect(page.getByLabel(trust)).not.toBeChecked();
    const variant = `${language}-${colorScheme}`;
    const findings = [...(await wcagFindings(page, 'code-step-trust', variant)), ...(await controlFindings(page, 'code-step-trust', variant))];
    expect(findings.length, describeFindings(findings)).toBe(0);
    await shoot(page, `code-step-${variant}`);

    const strict = await authorizationRequest(await makeClient({ requireSecondFactor: true }), { scope: 'openid' });
    await page.goto(strict.url.href);
    await typePassword(page, user);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    await expect(page.getByLabel(trust)).toHaveCount(0);
    await context.close();
  });
}

/**
 * Chromium's virtual authenticator (the DevTools protocol's WebAuthn domain) holding `user`'s passkey, which
 * the software authenticator registered on the server: the browser answers the second step's ceremony itself.
 * Passkey autofill on the login step is turned off, or Chromium would sign in with it at once (passkeys.spec.ts).
 */
async function passkeyInBrowser(page: Page, user: User) {
  const [credential] = (await enrolPasskey(user)).credentials;
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await cdp.send('WebAuthn.addCredential', {
    authenticatorId,
    credential: {
      credentialId: Buffer.from(credential.id, 'base64url').toString('base64'),
      isResidentCredential: true,
      rpId: credential.rpId,
      privateKey: credential.key.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
      userHandle: Buffer.from(credential.userHandle, 'base64url').toString('base64'),
      signCount: credential.counter,
    },
  });
}

test('a passkey as the second step: the box is offered with it, and ticked it trusts the browser as a code does', async ({ browser }) => {
  test.slow(); // three sign-ins
  const client = await makeClient({ name: `Maps ${Date.now()}` });

  // Passkey only: the passkey form has the box of its own.
  const keyed = await makeUser();
  const context = await browser.newContext();
  const page = await context.newPage();
  await passkeyInBrowser(page, keyed);
  const first = await toApp(page, client, keyed, async () => {
    await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
    await expect(page.getByLabel('Enter the code from your authenticator app'), 'no app set up: no code field').toHaveCount(0);
    await expect(page.getByLabel(TRUST)).toHaveCount(1);
    await shoot(page, 'passkey-step');
    await page.getByLabel(TRUST).check();
    await page.getByRole('button', { name: 'Use your passkey' }).click();
  });
  expect(first.acr).toBe('urn:gatehouse:acr:mfa');
  await endSessionKeepDevice(context);
  const trusted = await toApp(page, client, keyed, async () => {});
  expect(trusted, 'no second step was taken: the ID token says the password alone').toEqual({ acr: 'urn:gatehouse:acr:password', amr: ['pwd'] });
  await context.close();

  // An authenticator app and a passkey: one box (the code form's), which the passkey sends along.
  const both = await makeUser();
  await enrolTotp(both);
  const other = await browser.newContext();
  const otherPage = await other.newPage();
  await passkeyInBrowser(otherPage, both);
  const trustedDevices = () => database(databaseUrl).prisma.trustedDevice.count({ where: { userId: both.id } });
  await toApp(otherPage, client, both, async () => {
    await expect(otherPage.getByLabel('Enter the code from your authenticator app')).toBeVisible();
    await expect(otherPage.getByLabel(TRUST)).toHaveCount(1);
    await otherPage.getByLabel(TRUST).check();
    await otherPage.getByRole('button', { name: 'Use your passkey' }).click();
  });
  expect(await trustedDevices(), 'the passkey step trusted this browser').toBe(1);
  await other.close();
});
