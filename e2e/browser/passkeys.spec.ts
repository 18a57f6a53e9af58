/**
 * Passkeys in Chromium, with the DevTools protocol's virtual authenticator
 * (the WebAuthn domain) standing in for a phone or laptop that verifies its
 * user: a person adds a passkey at /account/security (name and password
 * first, then the browser's ceremony) and sees their recovery codes once,
 * signs out, signs in with the passkey alone from the login page, and signs in
 * with password then passkey as the second step. A passkey of another account
 * does not answer someone else's second step. Screenshots land in
 * e2e/screenshots/passkeys-*.png.
 */
import { expect, type CDPSession, type Page, test } from '@playwright/test';
import { makeUser } from '../support/fixtures.ts';
import { alert, gatehouseLogin, portalSignOut, screenshots } from '../support/pages.ts';

type User = Awaited<ReturnType<typeof makeUser>>;

const shoot = screenshots('passkeys');

/** A platform authenticator that holds discoverable credentials and verifies its user (a fingerprint, say) at once. */
async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; authenticatorId: string }> {
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
  await page.addInitScript(() => {
    // Chromium answers a conditional (autofill) request from a virtual authenticator at once, as if the
    // person had picked the passkey from the username field's suggestions. So that a page can be shown
    // without signing in, the tests turn autofill on only where they test it (autofill(page, true)).
    const supported = PublicKeyCredential.isConditionalMediationAvailable?.bind(PublicKeyCredential);
    PublicKeyCredential.isConditionalMediationAvailable = async () => sessionStorage.getItem('e2e-autofill') === 'on' && Boolean(await supported?.());
  });
  return { cdp, authenticatorId };
}

/** Whether the login page offers passkeys in the username field's autofill, from the next page on. */
async function autofill(page: Page, on: boolean) {
  await page.evaluate((value) => sessionStorage.setItem('e2e-autofill', value), on ? 'on' : 'off');
}

async function credentialIds(cdp: CDPSession, authenticatorId: string): Promise<string[]> {
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  return credentials.map((c) => c.credentialId);
}

/** From a signed-out browser: /account → the portal's sign-in page → Gatehouse's login page. */
async function toLoginPage(page: Page) {
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
}

/** Signed in to /account: adds a passkey named `name` at /account/security. */
async function addPasskey(page: Page, user: User, name: string) {
  await page.goto('/account/security');
  const add = page.getByRole('button', { name: 'Add a passkey' });
  await expect(add).toBeEnabled();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.locator('#passkey-password').fill(user.password);
  await add.click();
}

test('a person adds a passkey, then signs in with it alone, and with password then passkey', async ({ page }) => {
  test.slow(); // three sign-ins through Gatehouse
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  const user = await makeUser();
  await toLoginPage(page);
  await gatehouseLogin(page, user);
  await expect(page).toHaveURL(/\/account$/);

  // A wrong password adds nothing, and the browser is never asked.
  await page.goto('/account/security');
  await page.getByLabel('Name', { exact: true }).fill('Laptop');
  await page.locator('#passkey-password').fill('not my password');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByText('This is not your current password')).toBeVisible();
  expect(await credentialIds(cdp, authenticatorId)).toHaveLength(0);
  await shoot(page, 'add-error');

  await addPasskey(page, user, 'Laptop');
  // The first second factor: recovery codes, once.
  await expect(page.getByText('Two-step verification is on.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem')).toHaveCount(10);
  expect(await credentialIds(cdp, authenticatorId)).toHaveLength(1);
  await page.getByRole('link', { name: 'I have stored them' }).click();
  const listed = page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
  await expect(listed).toHaveCount(1);
  await expect(listed.first()).toContainText('Laptop');
  await expect(listed.first()).toContainText('not used yet');
  await shoot(page, 'security-with-passkey');
  await portalSignOut(page, '/account/signed-out');

  // Passwordless: no username, no password.
  await toLoginPage(page);
  await expect(page.getByLabel('Username')).toHaveAttribute('autocomplete', 'username webauthn');
  await shoot(page, 'login');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText(user.username).first()).toBeVisible();
  await page.goto('/account/security');
  await expect(page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem').first()).toContainText('last used');
  await portalSignOut(page, '/account/signed-out');

  // Autofill: picking the passkey from the username field's suggestions signs in (the virtual authenticator picks at once).
  await autofill(page, true);
  await page.goto('/account');
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText(user.username).first()).toBeVisible();
  await portalSignOut(page, '/account/signed-out');
  await autofill(page, false);

  // Password first: the second step offers the passkey.
  await toLoginPage(page);
  await gatehouseLogin(page, user);
  await expect(page.getByRole('heading', { name: 'Two-step verification' })).toBeVisible();
  await expect(page.getByLabel('Enter the code from your authenticator app'), 'no app set up: no code field').toHaveCount(0);
  await shoot(page, 'second-step');
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await expect(page).toHaveURL(/\/account$/);
});

test('another account’s passkey does not answer someone’s second step; removing a passkey needs the password', async ({ page }) => {
  test.slow();
  const { cdp, authenticatorId } = await virtualAuthenticator(page);
  const alice = await makeUser();
  const bob = await makeUser();
  const codes = new Map<string, string[]>();
  for (const [user, name] of [
    [alice, 'Alice’s laptop'],
    [bob, 'Bob’s laptop'],
  ] as const) {
    await toLoginPage(page);
    await gatehouseLogin(page, user);
    await expect(page).toHaveURL(/\/account$/);
    await addPasskey(page, user, name);
    await expect(page.getByText('Two-step verification is on.')).toBeVisible();
    codes.set(user.username, await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents());
    await page.getByRole('link', { name: 'I have stored them' }).click();
    await portalSignOut(page, '/account/signed-out');
  }
  // Alice's passkey is lost; the device holds Bob's only.
  // Told apart by their user handle: the account's id (lib/factors/passkeys.ts userHandleOf).
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  const aliceCredential = credentials.find((c) => Buffer.from(c.userHandle ?? '', 'base64').toString() === alice.id);
  expect(aliceCredential, 'Alice’s passkey is on the device').toBeTruthy();
  await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: aliceCredential!.credentialId });
  expect(await credentialIds(cdp, authenticatorId)).toHaveLength(1);

  await toLoginPage(page);
  await gatehouseLogin(page, alice);
  await page.getByRole('button', { name: 'Use your passkey' }).click();
  await expect(alert(page, 'The passkey was not used')).toBeVisible();
  await expect(page).toHaveURL(/\/interaction\//);
  await shoot(page, 'second-step-refused');

  // A recovery code gets her in; she removes the lost passkey, which takes her password.
  await page.getByRole('link', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(codes.get(alice.username)?.[0] ?? '');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('link', { name: /Continue to/ }).click();
  await expect(page).toHaveURL(/\/account$/);
  await page.goto('/account/security');
  const passkey = page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
  await expect(passkey).toHaveCount(1);
  await passkey.getByText('Remove', { exact: true }).click();
  await passkey.getByLabel('Current password').fill('not my password');
  await passkey.getByRole('button', { name: 'Remove “Alice’s laptop”' }).click();
  await expect(passkey.getByText('This is not your current password')).toBeVisible();
  await passkey.getByLabel('Current password').fill(alice.password);
  await passkey.getByRole('button', { name: 'Remove “Alice’s laptop”' }).click();
  await expect(page.getByText('Passkey “Alice’s laptop” removed.')).toBeVisible();
  await portalSignOut(page, '/account/signed-out');

  // No second factor left: her password alone signs her in; Bob's passkey still signs Bob in.
  await toLoginPage(page);
  await gatehouseLogin(page, alice);
  await expect(page).toHaveURL(/\/account$/);
  await portalSignOut(page, '/account/signed-out');
  await toLoginPage(page);
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText(bob.username).first()).toBeVisible();
});
