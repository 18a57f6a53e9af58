/**
 * Admin roles in a real browser: an auditor reads the audit log and the lists but gets the 403 page, naming their
 * role, on a direct URL to a create or edit page, and a change's server action posted anyway changes nothing; a user
 * manager starts at the users and cannot open clients; the 403 page in German and dark mode passes axe. The server
 * checks are what these test (lib/admin-roles/roles.ts through requireAdmin): the hidden buttons are only seen missing.
 */
import { type Browser, expect, test } from '@playwright/test';
import { database } from '../../lib/db/database.ts';
import type { AdminRole } from '../../lib/admin-roles/roles.ts';
import { disableUser, findUserById } from '../../lib/users/manage.ts';
import { describeFindings, wcagFindings } from '../support/axe.ts';
import { databaseUrl, makeClient, makeUser } from '../support/fixtures.ts';
import { gatehouseLogin, screenshots } from '../support/pages.ts';
import { asAdmin } from '../support/signed-in.ts';

test.slow(true, 'a sign-in per admin role, each walking the portal');

const shoot = screenshots('admin-roles');

/** A person with `role` (an authenticator on, as the default policy wants of every admin role) signed in from a new browser at `path`. */
async function signedInAs(browser: Browser, role: AdminRole, path: string) {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  const person = await makeUser({ role, name: `Role ${role}` });
  await page.goto(path);
  await expect(page).toHaveURL(/\/interaction\/[^/?]+$/);
  await gatehouseLogin(page, person);
  return { context, page, person };
}

test('an auditor reads the audit log and the lists; a direct URL to a create or edit page is the 403 page naming the role', async ({ browser }) => {
  const { context, page } = await signedInAs(browser, 'auditor', '/admin/audit');
  try {
    await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
    await expect(page.locator('table tbody tr').first()).toBeVisible();

    await page.goto('/admin/users');
    await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Create a user' }), 'no create button for a reader').toHaveCount(0);
    await page.goto('/admin/clients');
    await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();

    const client = await makeClient();
    const user = await makeUser();
    for (const path of ['/admin/users/new', '/admin/clients/new', `/admin/clients/${client.id}/edit`, `/admin/users/${user.id}/edit`]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page.getByRole('heading', { name: 'Your admin role (Auditor) does not allow this' })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: 'Back to the admin area' })).toBeVisible();
    await shoot(page, 'forbidden-auditor');
  } finally {
    await context.close();
  }
});

asAdmin("an auditor's server action is refused: the admin's Enable form, posted from the auditor's session, changes nothing", async ({ page, browser }) => {
  const user = await makeUser();
  await disableUser(database(databaseUrl), user.id);
  // The form as the admin's page renders it (its action id and bound user id in hidden fields)...
  await page.goto(`/admin/users/${user.id}`);
  const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Enable', exact: true }) });
  const html = await form.evaluate((element) => element.outerHTML);

  // ...posted from the auditor's browser on the same page (whose actions Next knows), as a form without JavaScript posts it.
  const auditor = await signedInAs(browser, 'auditor', `/admin/users/${user.id}`);
  try {
    await expect(auditor.page.getByRole('heading', { name: user.username, level: 1 })).toBeVisible();
    await expect(auditor.page.getByRole('button', { name: 'Enable', exact: true }), 'not offered to an auditor').toHaveCount(0);
    const answer = auditor.page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === `/admin/users/${user.id}`);
    await auditor.page.evaluate((markup) => {
      const holder = document.createElement('div');
      holder.innerHTML = markup;
      document.body.append(holder);
      (holder.querySelector('form') as HTMLFormElement).submit();
    }, html);
    // requireAdmin refused it (forbidden()); for a form posted without JavaScript Next renders its not-found page
    // for any such refusal (app-render's MPA action handling), where a JavaScript post shows the 403 page.
    expect((await answer).status()).toBe(404);
    expect((await findUserById(database(databaseUrl), user.id))?.disabled, 'the user is still disabled').toBe(true);
  } finally {
    await auditor.context.close();
  }

  // The same post from the admin's own session does enable them: the refusal above was the auditor's role.
  await page.goto(`/admin/users/${user.id}`);
  await page.evaluate((markup) => {
    const holder = document.createElement('div');
    holder.innerHTML = markup;
    document.body.append(holder);
    (holder.querySelector('form') as HTMLFormElement).submit();
  }, html);
  await expect(page).toHaveURL(/\?notice=enabled$/);
  expect((await findUserById(database(databaseUrl), user.id))?.disabled).toBe(false);
});

test('a user manager starts at the users, may unlock and edit people, and cannot open clients or the System page', async ({ browser }) => {
  const { context, page } = await signedInAs(browser, 'user_manager', '/admin');
  try {
    await expect(page).toHaveURL(/\/admin\/users$/);
    await expect(page.getByRole('link', { name: 'Create a user' })).toBeVisible();
    const user = await makeUser();
    await page.goto(`/admin/users/${user.id}`);
    await expect(page.getByRole('link', { name: 'Edit profile' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Change role' }), 'a user manager gives no roles').toHaveCount(0);
    for (const path of ['/admin/clients', '/admin/clients/new', '/admin/system']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      await expect(page.getByRole('heading', { name: 'Your admin role (User manager) does not allow this' })).toBeVisible();
    }
  } finally {
    await context.close();
  }
});

test('the 403 page of a role in German and dark mode: German words, <html lang="de">, no serious or critical axe finding', async ({ browser }) => {
  const signed = await signedInAs(browser, 'auditor', '/admin/users');
  await expect(signed.page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  const state = await signed.context.storageState();
  await signed.context.close();
  const context = await browser.newContext({ storageState: state, locale: 'de-DE', colorScheme: 'dark' });
  try {
    const page = await context.newPage();
    const response = await page.goto('/admin/clients/new');
    expect(response?.status()).toBe(403);
    await expect(page.getByRole('heading', { name: 'Ihre Administratorrolle (Prüfer) erlaubt das nicht' })).toBeVisible();
    expect(await page.locator('html').getAttribute('lang')).toBe('de');
    await expect(page.getByRole('link', { name: 'Zurück zum Administrationsbereich' })).toBeVisible();
    const findings = await wcagFindings(page, 'forbidden-role', 'de dark');
    expect(findings, describeFindings(findings)).toEqual([]);
    await shoot(page, 'forbidden-de-dark');
  } finally {
    await context.close();
  }
});
