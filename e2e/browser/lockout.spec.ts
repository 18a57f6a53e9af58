/**
 * Throttling that strangers cannot turn against owners (issue 21), in Chromium: wrong client secrets sent for the
 * portal's public client_id do not keep the admin out of the portal; a hundred wrong passwords for the admin leave
 * the admin's own browser signing in at once, and a new browser gets in with the unlock link mailed to the admin.
 */
import { expect, type Page, test } from '@playwright/test';
import { database } from '../../lib/db/database.ts';
import { setVerifiedEmail } from '../../lib/db/users.ts';
import { TestBrowser } from '../support/browser.ts';
import { authorizationRequest, basic, baseUrl, databaseUrl, makeClient, makeUser } from '../support/fixtures.ts';
import { linkIn, mailApi, mailCount, nextMail } from '../support/mail.ts';
import { gatehouseLogin, portalSignOut } from '../support/pages.ts';

test.describe.configure({ timeout: 120_000 });

const sleep = (seconds: number) => new Promise((r) => setTimeout(r, seconds * 1000));

async function openPortal(page: Page, admin: { username: string; password: string; totpSecret?: string }) {
  await page.goto('/admin/users/new');
  await gatehouseLogin(page, admin);
  await expect(page.getByRole('heading', { name: 'Create a user' })).toBeVisible();
}

test('two hundred wrong secrets for the portal’s client_id, paced and in bursts: the admin still signs in to the portal at once', async ({ page }) => {
  const wrong = { authorization: basic('gatehouse-portal', 'not-the-secret'), 'content-type': 'application/x-www-form-urlencoded' };
  const send = () => fetch(`${baseUrl}/oauth/token`, { method: 'POST', headers: wrong, body: 'grant_type=authorization_code&code=x&redirect_uri=x' });
  const statuses: number[] = [];
  for (let burst = 0; burst < 10; burst++) {
    statuses.push(...(await Promise.all(Array.from({ length: 20 }, async () => (await send()).status))));
    await sleep(0.2);
  }
  expect(statuses.filter((s) => s === 429).length, 'the attacker is slowed').toBeGreaterThan(0);
  expect(statuses.every((s) => s === 401 || s === 429)).toBe(true);
  await openPortal(page, await makeUser({ role: 'admin', name: 'Ada Admin' }));
});

test('a hundred wrong passwords for the admin: their own browser signs in at once; a new one gets in with the mailed unlock link', async ({
  page,
  browser,
}) => {
  test.skip(!mailApi, 'needs the test run’s SMTP server (scripts/test.ts sets GATEHOUSE_TEST_MAIL_URL)');
  const admin = await makeUser({ role: 'admin', name: 'Ada Admin' });
  await setVerifiedEmail(database(databaseUrl), admin.id, admin.email!);
  await openPortal(page, admin);
  await portalSignOut(page, '/admin/signed-out');
  const mailsBefore = await mailCount(admin.email!);

  // The attacker, from this machine's address as the admin: a hundred wrong passwords, waiting out each wait until the lock.
  const attacker = new TestBrowser(baseUrl);
  const client = await makeClient();
  let locked = false;
  for (let i = 0; i < 100; i++) {
    const { url } = await authorizationRequest(client);
    const start = new URL(url);
    const form = await attacker.navigate(`${start.pathname}${start.search}`);
    const answer = await attacker.submit(await form.response.text(), '/login', { username: admin.username, password: `guess ${i}` });
    const retryAfter = Number(answer.url.searchParams.get('retry_after') ?? 0);
    if (retryAfter > 60) locked = true;
    else if (!locked && retryAfter > 0) await sleep(retryAfter);
  }
  expect(locked, 'the attacker’s address is locked out of the account').toBe(true);

  // The admin's browser that signed in before: at once, with the right password.
  await openPortal(page, admin);

  // A new browser at the same address is locked out, until the admin opens the mailed link in it.
  const fresh = await browser.newContext({ baseURL: baseUrl });
  const other = await fresh.newPage();
  await other.goto('/admin/users/new');
  await other.getByLabel('Username').fill(admin.username);
  await other.getByLabel('Password', { exact: true }).fill(admin.password);
  await other.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(other.getByText(/Too many attempts; try again in/)).toBeVisible();
  const mail = await nextMail(admin.email!, mailsBefore);
  await other.goto(linkIn(mail, `${baseUrl}/unlock/`));
  await other.getByRole('button', { name: 'Unlock and use this browser' }).click();
  await expect(other.getByText(`this browser can sign in to ${admin.username}`)).toBeVisible();
  await openPortal(other, admin);
  await fresh.close();
});
