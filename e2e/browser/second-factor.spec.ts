/**
 * Two-step verification in a real browser: a new person turns it on at
 * /account/security with a code their "app" (the otpauth library, given the
 * key as the page shows it) computes, sees their ten recovery codes once,
 * then signs in with password and code, is told plainly when a code is
 * wrong, and signs in once with a recovery code, told how many are left.
 * Without JavaScript, confirming and getting new codes show the codes too.
 * Screenshots of each new page land in e2e/screenshots/second-factor-*.png.
 */
import { expect, type Page, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { makeUser } from '../support/fixtures.ts';
import { alert, gatehouseCode, gatehouseLogin, portalSignOut, screenshots } from '../support/pages.ts';

type User = Awaited<ReturnType<typeof makeUser>>;

const shoot = screenshots('second-factor');
const PERIOD_MS = 30_000;

/** What an authenticator app shows at `at` for the key as the page shows it (RFC 6238: SHA-1, 6 digits, 30 s). */
const appCode = (key: string, at = Date.now()) =>
  TOTP.generate({ secret: Secret.fromBase32(key.replace(/\s+/g, '')), algorithm: 'SHA1', digits: 6, period: 30, timestamp: at });

/** From a signed-out browser: /account → the portal's sign-in page → Gatehouse's login form, password posted. */
async function signInWithPassword(page: Page, user: User) {
  await page.goto('/account');
  await gatehouseLogin(page, user);
}

const recoveryCodes = (page: Page) => page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');

/** On /account/security while it is off: starts set-up and returns the key as the page shows it. */
async function startSetUp(page: Page, { screenshot = false } = {}) {
  await page.getByRole('link', { name: 'Two-step verification' }).click();
  await expect(page.getByRole('heading', { name: 'Two-step verification', level: 1 })).toBeVisible();
  if (screenshot) await shoot(page, 'security-off');
  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  await expect(page.getByRole('heading', { name: 'Set up your authenticator app' })).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code to scan with your authenticator app' })).toBeVisible();
  const key = await page.locator('#totp-key').inputValue();
  expect(key).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  if (screenshot) await shoot(page, 'security-pending');
  return key;
}

/** The ten codes on the page, well formed and all different. */
async function readRecoveryCodes(page: Page): Promise<string[]> {
  await expect(page.getByText('Store these recovery codes now')).toBeVisible();
  await expect(recoveryCodes(page)).toHaveCount(10);
  const codes = await recoveryCodes(page).allTextContents();
  for (const code of codes) expect(code).toMatch(/^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/);
  expect(new Set(codes).size).toBe(10);
  return codes;
}

test('a person turns on two-step verification, then signs in with a code, a wrong code and a recovery code', async ({ page }) => {
  test.slow(); // three sign-ins through Gatehouse
  const user = await makeUser();
  await signInWithPassword(page, user);
  await expect(page).toHaveURL(/\/account$/);
  const key = await startSetUp(page, { screenshot: true });

  await page.getByLabel('Code from the app').fill('12345');
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('The code is exactly 6 digits')).toBeVisible();
  await shoot(page, 'security-setup-error');

  await page.getByLabel('Code from the app').fill(appCode(key));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Two-step verification is on.')).toBeVisible();
  const codes = await readRecoveryCodes(page);
  await expect(page.getByLabel('Code from the app'), 'the codes stand alone').toHaveCount(0);
  await shoot(page, 'security-codes');

  // Shown once: neither a reload nor coming back shows them again.
  await page.reload();
  await expect(page.getByText('Signing in asks for a code from your app after your password.')).toBeVisible();
  await expect(recoveryCodes(page)).toHaveCount(0);
  await expect(page.getByText('10 of your recovery codes are left.')).toBeVisible();
  await shoot(page, 'security-on');
  for (const code of codes) expect(await page.content()).not.toContain(code);

  await portalSignOut(page, '/account/signed-out');
  await signInWithPassword(page, user);
  // The next step's code: the one set-up used (this step's, or the one before) is spent.
  const code = appCode(key, Date.now() + PERIOD_MS);
  const valid = new Set([-1, 0, 1, 2].map((steps) => appCode(key, Date.now() + steps * PERIOD_MS)));
  const wrong = ['000000', '111111', '222222', '333333', '444444'].find((guess) => !valid.has(guess))!;
  await gatehouseCode(page, wrong);
  await expect(alert(page, 'That code is not right. Enter the code your app shows now.')).toBeVisible();
  await expect(page.getByLabel('Enter the code from your authenticator app')).toHaveValue('');
  await shoot(page, 'sign-in-wrong-code');
  await gatehouseCode(page, code);
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();

  await portalSignOut(page, '/account/signed-out');
  await signInWithPassword(page, user);
  await expect(page.getByLabel('Enter the code from your authenticator app')).toBeVisible();
  await shoot(page, 'sign-in-code');
  await page.getByRole('link', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(codes[0].toUpperCase());
  await shoot(page, 'sign-in-recovery-code');
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Recovery code accepted' })).toBeVisible();
  await expect(page.getByText('You have 9 recovery codes left.')).toBeVisible();
  await shoot(page, 'sign-in-recovery-accepted');
  await page.getByRole('link', { name: /^Continue to / }).click();
  await expect(page).toHaveURL(/\/account$/);
  await page.goto('/account/security');
  await expect(page.getByText('9 of your recovery codes are left.')).toBeVisible();

  // Once only: the same recovery code is refused the next time.
  await portalSignOut(page, '/account/signed-out');
  await signInWithPassword(page, user);
  await page.getByRole('link', { name: 'Use a recovery code instead' }).click();
  await page.getByLabel('Recovery code').fill(codes[0]);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(alert(page, 'That recovery code is not right, or was used already.')).toBeVisible();
  await shoot(page, 'sign-in-recovery-code-used');
  await page.getByLabel('Recovery code').fill(codes[1]);
  await page.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(page.getByText('You have 8 recovery codes left.')).toBeVisible();
});

test('new recovery codes need the password, are shown once, and the earlier ones stop working', async ({ page }) => {
  const user = await makeUser();
  await signInWithPassword(page, user);
  const key = await startSetUp(page);
  await page.getByLabel('Code from the app').fill(appCode(key));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const first = await readRecoveryCodes(page);
  await page.getByRole('link', { name: 'I have stored them' }).click();
  await expect(recoveryCodes(page)).toHaveCount(0);

  const newCodes = page.locator('form').filter({ has: page.getByRole('button', { name: 'Get new recovery codes' }) });
  await newCodes.getByLabel('Current password').fill('not my password');
  await page.getByRole('button', { name: 'Get new recovery codes' }).click();
  await expect(page.getByText('This is not your current password')).toBeVisible();
  await newCodes.getByLabel('Current password').fill(user.password);
  await page.getByRole('button', { name: 'Get new recovery codes' }).click();
  await expect(page.getByText('Your new recovery codes.')).toBeVisible();
  await expect(page.getByText('your earlier codes no longer work')).toBeVisible();
  const second = await readRecoveryCodes(page);
  expect(second.filter((code) => first.includes(code))).toEqual([]);
  await shoot(page, 'security-new-codes');
  await page.getByRole('link', { name: 'I have stored them' }).click();
  await expect(page.getByText('10 of your recovery codes are left.')).toBeVisible();
  await expect(recoveryCodes(page)).toHaveCount(0);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('confirming set-up and getting new codes show the recovery codes once, in an answer that is not stored', async ({ page }) => {
    const user = await makeUser();
    await signInWithPassword(page, user);
    await expect(page).toHaveURL(/\/account$/);
    const key = await startSetUp(page);

    await page.getByLabel('Code from the app').fill('abcdef');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await expect(page.getByText('The code is 6 digits, with no letters')).toBeVisible();

    const answer = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/account/security');
    await page.getByLabel('Code from the app').fill(appCode(key));
    await page.getByRole('button', { name: 'Turn on' }).click();
    expect((await answer).headers()['cache-control']).toContain('no-store');
    await expect(page.getByText('Two-step verification is on.')).toBeVisible();
    const codes = await readRecoveryCodes(page);
    for (const code of codes) expect(page.url()).not.toContain(code);
    await shoot(page, 'nojs-security-codes');

    await page.getByRole('link', { name: 'I have stored them' }).click();
    await expect(page.getByText('10 of your recovery codes are left.')).toBeVisible();
    await expect(recoveryCodes(page)).toHaveCount(0);
    await page.reload();
    await expect(recoveryCodes(page)).toHaveCount(0);

    const newCodes = page.locator('form').filter({ has: page.getByRole('button', { name: 'Get new recovery codes' }) });
    await newCodes.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'Get new recovery codes' }).click();
    await expect(page.getByText('Your new recovery codes.')).toBeVisible();
    const second = await readRecoveryCodes(page);
    expect(second.filter((code) => codes.includes(code))).toEqual([]);
    await shoot(page, 'nojs-security-new-codes');
    await page.goto('/account/security');
    await expect(page.getByText('10 of your recovery codes are left.')).toBeVisible();
    await expect(recoveryCodes(page)).toHaveCount(0);
  });
});
