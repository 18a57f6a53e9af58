/**
 * /account/data in a real browser: a person downloads what Gatehouse holds about them (a JSON file
 * without any secret), is refused with a wrong password or an unticked box, then deletes their account
 * and lands signed out; the account is gone and the old password no longer signs in. The page passes
 * axe in the light and the dark scheme, and speaks German to a German browser.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { database } from '../../lib/db/database.ts';
import { describeFindings, wcagFindings } from '../support/axe.ts';
import { databaseUrl, makeUser } from '../support/fixtures.ts';
import { gatehouseLogin, screenshots } from '../support/pages.ts';

const shoot = screenshots('account-data');
// Three times the configured timeout (a minute under CI): a sign-in, two axe scans and a download, or three posts of the form.
test.slow(true, 'a sign-in, two axe scans and a download, or three posts of the form');

async function signedIn(page: Page, user: { username: string; password: string }) {
  await page.goto('/account/data');
  await expect(page).toHaveURL(/\/interaction\/[^/?]+$/);
  await gatehouseLogin(page, user);
  await expect(page).toHaveURL(/\/account\/data$/);
}

test('a person downloads their data: a JSON file without any secret; the page passes axe in both schemes', async ({ page }) => {
  const user = await makeUser({ name: 'Leaving Soon' });
  await signedIn(page, user);
  await expect(page.getByRole('heading', { name: 'Your data', level: 1 })).toBeVisible();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    const findings = await wcagFindings(page, 'account-data', scheme);
    expect(findings, describeFindings(findings)).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await shoot(page, 'page');

  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Download (JSON)' }).click();
  const file = await (await download).path();
  const text = await readFile(file, 'utf8');
  const data = JSON.parse(text);
  expect(data.profile).toMatchObject({ sub: user.id, username: user.username, name: 'Leaving Soon', has_password: true });
  expect(data.sessions.length).toBeGreaterThanOrEqual(1);
  expect(text).not.toMatch(/argon2|password_hash|passwordHash/);
});

test('deleting needs the password and the box; then the account is gone and the person lands signed out', async ({ page }) => {
  const user = await makeUser();
  await signedIn(page, user);
  const password = page.getByLabel('Current password');
  await password.fill('not my password');
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('This is not your current password.')).toBeVisible();

  await password.fill(user.password);
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page.getByText('Tick the box to confirm.')).toBeVisible();
  expect(await database(databaseUrl).prisma.user.count({ where: { id: user.id } })).toBe(1);

  await password.fill(user.password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/account\/signed-out\?deleted=1$/);
  await expect(page.getByText('Your account is deleted')).toBeVisible();
  expect(await database(databaseUrl).prisma.user.count({ where: { id: user.id } })).toBe(0);
  const entry = await database(databaseUrl).prisma.auditEvent.findFirst({ where: { action: 'user.deleted', targetId: user.id } });
  expect([entry?.actorUsername, entry?.targetLabel]).toEqual(['deleted account', null]);

  // Back to /account: a new sign-in, and the old password opens nothing.
  await page.goto('/account');
  await expect(page).toHaveURL(/\/interaction\/[^/?]+$/);
  await gatehouseLogin(page, user);
  await expect(page.getByText(/username or password is not right/)).toBeVisible();
});

test.describe('in German', () => {
  test.use({ locale: 'de-DE' });
  test('the page and its refusal are in German', async ({ page }) => {
    const user = await makeUser();
    await page.goto('/account/data');
    await page.getByLabel('Benutzername').fill(user.username);
    await page.getByLabel('Passwort', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Anmelden', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Ihre Daten', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'Mein Konto löschen' }).click();
    await expect(page.getByText('Setzen Sie zur Bestätigung das Häkchen.')).toBeVisible();
    expect(await database(databaseUrl).prisma.user.count({ where: { id: user.id } })).toBe(1);
  });
});
