/**
 * The second-factor policy at its default (SECOND_FACTOR_REQUIRED=admins), in
 * Chromium: an admin without a second factor signs in, is sent to
 * /account/security with the reason, cannot open the admin portal until an
 * authenticator app is set up, then can; a person without the admin role is
 * not stopped. An admin resets a person's two-step verification from the
 * person's page, and the person then signs in with the password alone.
 * Screenshots land in e2e/screenshots/policy-*.png.
 */
import { expect, test } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { enrolTotp, makeUser } from '../support/fixtures.ts';
import { gatehouseLogin, portalSignOut, screenshots } from '../support/pages.ts';

const shoot = screenshots('policy');

test('an admin without a second factor sets one up before the admin portal opens', async ({ page }) => {
  test.slow();
  const admin = await makeUser({ role: 'admin', name: 'Ada Admin', secondFactor: false });
  await page.goto('/admin/clients');
  await gatehouseLogin(page, admin);
  await expect(page).toHaveURL(/\/account\/security\?required=admin$/);
  await expect(page.getByText('Administrators must use two-step verification.')).toBeVisible();
  await shoot(page, 'admin-must-enrol');

  // Every admin page sends them back here, and so does the admin API with the portal session.
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/account\/security\?required=admin$/);
  const api = await page.request.get('/api/admin/users');
  expect(api.status()).toBe(403);
  expect((await api.json()).error_description).toMatch(/set up two-step verification first/);

  await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
  const key = (await page.locator('#totp-key').inputValue()).replace(/\s+/g, '');
  const code = TOTP.generate({ secret: Secret.fromBase32(key), algorithm: 'SHA1', digits: 6, period: 30 });
  await page.getByLabel('Code from the app').fill(code);
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Two-step verification is on.')).toBeVisible();
  // Once the codes are stored, one button on to where the admin was going.
  await page.getByRole('link', { name: 'I have stored them: continue to the admin portal' }).click();
  await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
});

test('a person without the admin role is not stopped; an admin resets their two-step verification', async ({ page }) => {
  test.slow();
  const person = await makeUser({ name: 'Pat Person' });
  await enrolTotp(person);
  const admin = await makeUser({ role: 'admin', name: 'Ada Admin' });
  await page.goto('/admin/users');
  await gatehouseLogin(page, admin);
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search users by username, email or name' }).fill(person.username);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: person.username }).click();
  await expect(page.getByText(/Authenticator app since/)).toBeVisible();
  await shoot(page, 'user-factors');
  await page.getByLabel('Remove their authenticator app, passkeys and recovery codes.').check();
  await page.getByRole('button', { name: 'Reset two-step verification' }).click();
  await expect(page.getByText('Two-step verification is reset: the user signs in with their password alone')).toBeVisible();
  await expect(page.getByText(/Authenticator app since/)).toHaveCount(0);
  await shoot(page, 'user-factors-reset');
  await portalSignOut(page, '/admin/signed-out');

  // The person: the password alone, and /account is not held back under the default policy.
  await page.goto('/account');
  await gatehouseLogin(page, person);
  await expect(page).toHaveURL(/\/account$/);
});
