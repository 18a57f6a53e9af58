/**
 * The admin portal's Users pages and audit log in a real browser. Disabling a
 * user makes their access token introspect as inactive; a new password stops
 * the old one at the Gatehouse login; an admin role is given and taken away
 * (never by its holder); the audit log shows a failed sign-in and a client
 * registration with where they came from, and no secret; a locked user is
 * unlocked from their page; a person deleted from their page loses their tokens. Every test makes its own users and clients, and
 * acts as its worker's signed-in admin (e2e/support/signed-in.ts). Screenshots land in e2e/screenshots/admin-user*.png
 * and admin-audit-log*.png.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import * as oidc from 'openid-client';
import { database } from '../../lib/db/database.ts';
import { lockAccount } from '../../lib/testing.ts';
import { basic, databaseUrl, discover, makeClient, makeUser, pkce, post, redirectUri, signIn } from '../support/fixtures.ts';
import { alert, gatehouseLogin, screenshots, status } from '../support/pages.ts';
import { asAdmin } from '../support/signed-in.ts';

type Client = Awaited<ReturnType<typeof makeClient>>;

test.slow(true, 'each test signs several people in through full browser flows');

const shoot = screenshots('admin');

/** From a signed-out browser: an admin page → portal sign-in → Gatehouse login → back. */
async function portalSignIn(page: Page, user: { username: string; password: string }, path = '/admin/users') {
  await page.goto(path);
  await expect(page).toHaveURL(/\/interaction\/[^/?]+$/);
  await gatehouseLogin(page, user);
}

/** The user's page, found the way an admin would: search, then the link. */
async function openUser(page: Page, user: { username: string }) {
  await page.goto('/admin/users');
  await page.getByRole('searchbox', { name: 'Search users by username, email or name' }).fill(user.username);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('Showing 1–1 of 1')).toBeVisible();
  await page.getByRole('link', { name: user.username, exact: true }).click();
  await expect(page.getByRole('heading', { name: user.username, level: 1 })).toBeVisible();
}

const introspect = async (client: Client, token: string) =>
  (await post('/oauth/introspect', { token }, { authorization: basic(client.id, client.clientSecret!) })).json() as Promise<Record<string, unknown>>;

/**
 * Tries a password at the Gatehouse login for an authorization request of
 * `client`, in a fresh browser: 'signed-in' when it gets past the login (to
 * consent), 'refused' when the login page says the credentials are wrong,
 * 'disabled' when it says the account is disabled (only after its right password).
 */
async function tryPassword(browser: Browser, client: Client, username: string, password: string): Promise<'signed-in' | 'refused' | 'disabled'> {
  const config = await discover(client);
  const { challenge } = await pkce();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url.href);
    await gatehouseLogin(page, { username, password });
    const consent = page.getByRole('heading', { name: `Allow ${client.name}?` });
    const refused = page.getByText('The username or password is not right.');
    const disabled = page.getByText('This account is disabled.');
    await expect(consent.or(refused).or(disabled)).toBeVisible();
    return (await consent.isVisible()) ? 'signed-in' : (await disabled.isVisible()) ? 'disabled' : 'refused';
  } finally {
    await context.close();
  }
}

asAdmin('disabling a user ends their access: their access token introspects as {"active":false}; enabling lets them back', async ({ page, admin }) => {
  const client = await makeClient();
  const { user, tokens } = await signIn(client, 'openid profile');
  expect((await introspect(client, tokens.access_token)).active).toBe(true);

  await page.goto(`/admin/users?q=${encodeURIComponent(admin.username)}`);
  await expect(page.getByRole('row').filter({ hasText: admin.username }).getByText('You')).toBeVisible();
  await shoot(page, 'users-list');
  await openUser(page, user);
  await expect(page.getByRole('heading', { name: 'Connected apps' })).toBeVisible();
  await expect(page.getByText(client.name).first()).toBeVisible();
  await expect(page.getByText('No active sessions.'), 'the sign-in left a session').toHaveCount(0);
  await shoot(page, 'user');

  await expect(page.getByRole('button', { name: 'Disable', exact: true }), 'no one-click Disable next to Edit').toHaveCount(0);
  await page.getByRole('button', { name: 'Disable user' }).click();
  await expect(alert(page, 'Tick the box to confirm: the user’s sessions end')).toBeVisible();
  expect((await introspect(client, tokens.access_token)).active, 'an unconfirmed Disable changes nothing').toBe(true);
  await shoot(page, 'user-disable-unconfirmed');
  await page.getByLabel(/their sessions end and every token and grant they hold is revoked/).check();
  await page.getByRole('button', { name: 'Disable user' }).click();
  await expect(status(page, 'The user is disabled')).toBeVisible();
  await expect(page.getByText('No connected apps.')).toBeVisible();
  await expect(page.getByText('No active sessions.')).toBeVisible();
  expect(await introspect(client, tokens.access_token)).toEqual({ active: false });
  expect(await tryPassword(page.context().browser()!, client, user.username, user.password), 'a disabled user cannot sign in').toBe('disabled');
  expect(await tryPassword(page.context().browser()!, client, user.username, 'not the password'), 'and learns nothing without it').toBe('refused');

  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(status(page, 'The user is enabled')).toBeVisible();
  expect(await tryPassword(page.context().browser()!, client, user.username, user.password)).toBe('signed-in');
  expect(await introspect(client, tokens.access_token), 'enabling does not bring revoked tokens back').toEqual({ active: false });
});

asAdmin('deleting a user from their page ends their access, as their own deletion would, and goes back to the list', async ({ page }) => {
  const client = await makeClient();
  const { user, tokens } = await signIn(client, 'openid');
  await page.goto(`/admin/users/${user.id}`);
  await page.getByRole('button', { name: 'Delete user' }).click();
  await expect(alert(page, 'Tick the box to confirm: the account is deleted for good')).toBeVisible();
  expect((await introspect(client, tokens.access_token)).active, 'an unconfirmed Delete changes nothing').toBe(true);
  await page.getByLabel(/every token, grant and consent goes/).check();
  await page.getByRole('button', { name: 'Delete user' }).click();
  await expect(status(page, 'The user is deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/users\?notice=deleted$/);
  expect(await introspect(client, tokens.access_token)).toEqual({ active: false });
  expect(await tryPassword(page.context().browser()!, client, user.username, user.password), 'the account is gone').toBe('refused');
});

asAdmin(
  'the users list sorts by a column (a link per heading, aria-sort, kept by search and paging) and shows each user’s last sign-in',
  async ({ page, browser }) => {
    const client = await makeClient();
    const tag = `sort${Date.now()}`;
    const first = await makeUser({ name: `First ${tag}`, email: `aa-${tag}@example.test` });
    const second = await makeUser({ name: `Second ${tag}`, email: `zz-${tag}@example.test` });
    expect(await tryPassword(browser, client, first.username, first.password)).toBe('signed-in');
    await page.goto(`/admin/users?q=${tag}`);
    const usernames = () => page.getByRole('cell').getByRole('link').allInnerTexts();
    expect(await usernames(), 'newest first by default').toEqual([second.username, first.username]);
    const email = page.getByRole('columnheader', { name: /Email/ });
    await expect(email).not.toHaveAttribute('aria-sort');
    await email.getByRole('link').click();
    await expect(page).toHaveURL(/[?&]sort=email(&|$)/);
    await expect(page.getByRole('columnheader', { name: /Email/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(await usernames()).toEqual([first.username, second.username]);
    await shoot(page, 'users-sorted');
    await page.getByRole('columnheader', { name: /Email/ }).getByRole('link').click();
    await expect(page.getByRole('columnheader', { name: /Email/ })).toHaveAttribute('aria-sort', 'descending');
    expect(await usernames()).toEqual([second.username, first.username]);
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page, 'a new search keeps the order').toHaveURL(/[?&]sort=-email(&|$)/);

    const lastSignIn = (user: { username: string }) => page.getByRole('row').filter({ hasText: user.username }).getByRole('cell').nth(6);
    await expect(lastSignIn(first)).toHaveText(/\d{4}/);
    await expect(lastSignIn(second)).toHaveText('None recorded');
  },
);

asAdmin('a locked user: their page says until when; Unlock lets them sign in at once', async ({ page, browser }) => {
  const client = await makeClient();
  const user = await makeUser();
  // Locked in the shared counters as ten wrong passwords would lock it.
  await lockAccount(database(databaseUrl), user);

  await openUser(page, user);
  await expect(page.getByText('Locked', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: /^Locked until \w+ \d+, \d{4}, \d+:\d\d [AP]M( UTC)? after too many wrong passwords/ }),
  ).toBeVisible();
  await shoot(page, 'user-locked');
  await page.getByRole('button', { name: 'Unlock' }).click();
  await expect(status(page, 'The user is unlocked')).toBeVisible();
  await expect(page.getByText(/Locked until/)).toHaveCount(0);
  expect(await tryPassword(browser, client, user.username, user.password), 'unlocked, the right password signs in').toBe('signed-in');
});

asAdmin("a user's page: revoking an app makes its token inactive; ending all sessions makes them sign in again", async ({ page }) => {
  const client = await makeClient();
  const { user, tokens } = await signIn(client, 'openid profile');
  const other = await makeClient();
  const second = await signIn(other);
  await openUser(page, user);
  const apps = page.getByRole('region', { name: 'Connected apps' });
  await expect(apps).toContainText(client.name);
  await expect(apps).toContainText('openid profile');
  await apps.getByText(`Revoke… ${client.name}`).click();
  await apps.getByRole('button', { name: `Revoke ${client.name}` }).click();
  await expect(alert(page, 'Tick the box to confirm')).toBeVisible();
  await page
    .getByRole('region', { name: 'Connected apps' })
    .getByLabel(/its tokens stop working at once/)
    .check();
  await page
    .getByRole('region', { name: 'Connected apps' })
    .getByRole('button', { name: `Revoke ${client.name}` })
    .click();
  await expect(status(page, 'Access revoked')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Connected apps' })).toContainText('No connected apps.');
  expect(await introspect(client, tokens.access_token)).toEqual({ active: false });
  expect((await introspect(other, second.tokens.access_token)).active, "another user's app is untouched").toBe(true);

  const sessions = page.getByRole('region', { name: 'Sessions' });
  await expect(sessions).not.toContainText('No active sessions.');
  await sessions.getByLabel(/End all one session of/).check();
  await sessions.getByRole('button', { name: 'End all sessions' }).click();
  await expect(status(page, 'One session ended')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Sessions' })).toContainText('No active sessions.');
  const activity = page.getByRole('region', { name: 'Recent activity' });
  await expect(activity.getByRole('listitem').first()).toContainText('Sessions ended');
  await expect(activity).toContainText('Consent revoked');
});

asAdmin(
  "setting a new password: the old one stops working at the Gatehouse login, the user's sessions end; a generated one is shown once and works",
  async ({ page, browser }) => {
    const client = await makeClient();
    const user = await makeUser();
    expect(await tryPassword(browser, client, user.username, user.password), 'a session with the old password').toBe('signed-in');
    await openUser(page, user);

    await page.getByLabel('Type a password').check();
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('New password, again').fill('a brand new passw0rd');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(page.getByText('The two passwords do not match')).toBeVisible();
    await expect(page.getByLabel('New password', { exact: true }), 'a password is never rendered back').toHaveValue('');
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('New password, again').fill('a brand new password');
    await page.getByRole('button', { name: 'Set password' }).click();
    await expect(status(page, 'The password is changed')).toBeVisible();
    await expect(status(page, 'Their one session ended: they sign in again with the new password.')).toBeVisible();
    expect(await page.content()).not.toContain('a brand new password');

    expect(await tryPassword(browser, client, user.username, user.password), 'the old password').toBe('refused');
    expect(await tryPassword(browser, client, user.username, 'a brand new password')).toBe('signed-in');

    await page.reload();
    await page.getByRole('button', { name: 'Set password' }).click(); // "Generate" is the default
    await expect(page.getByText('Gatehouse stores only a hash of it and will never show it again.')).toBeVisible();
    const generated = await page.getByRole('textbox', { name: 'Generated password' }).inputValue();
    expect(generated).toMatch(/^[A-Za-z0-9_-]{24}$/);
    await expect(status(page, 'Their one session ended'), 'the sign-in with the typed password').toBeVisible();
    await shoot(page, 'user-password-generated');
    expect(await tryPassword(browser, client, user.username, 'a brand new password')).toBe('refused');
    expect(await tryPassword(browser, client, user.username, generated)).toBe('signed-in');
    await page.reload();
    expect(await page.content(), 'shown once').not.toContain(generated);
  },
);

asAdmin('the admin role: granted, then removed, taking effect at the next request; an admin cannot remove their own', async ({ page, browser, admin }) => {
  // With an authenticator already: once an admin, the default policy asks for it.
  const user = await makeUser({ name: 'Rosa Role', secondFactor: true });
  await openUser(page, user);
  await page.getByRole('combobox', { name: 'Admin role' }).selectOption('admin');
  await page.getByLabel(/Change .*admin role: from their next request/).check();
  await page.getByRole('button', { name: 'Change role' }).click();
  await expect(status(page, 'The admin role was changed. It takes effect at their next request.')).toBeVisible();

  const theirs = await browser.newContext();
  try {
    const their = await theirs.newPage();
    await portalSignIn(their, user);
    await expect(their.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
    await expect(their.getByText('Signed in as Rosa Role')).toBeVisible();

    // Removing the role revokes their access: a tick first, as every action that revokes does.
    await page.getByRole('combobox', { name: 'Admin role' }).selectOption('user');
    await page.getByRole('button', { name: 'Change role' }).click();
    await expect(alert(page, 'Tick the box to confirm the change of admin role.')).toBeVisible();
    await expect(their.getByRole('heading', { name: 'Users', level: 1 }), 'unticked, they are still an administrator').toBeVisible();
    expect((await their.reload())?.status()).toBe(200);
    await page.getByRole('combobox', { name: 'Admin role' }).selectOption('user');
    await page.getByLabel(/Change .*admin role: from their next request/).check();
    await page.getByRole('button', { name: 'Change role' }).click();
    await expect(status(page, 'The admin role was changed. It takes effect at their next request.')).toBeVisible();
    const response = await their.reload();
    expect(response?.status()).toBe(403);
    await expect(their.getByRole('heading', { name: "You don't have access to this page" })).toBeVisible();
  } finally {
    await theirs.close();
  }

  await openUser(page, admin);
  await expect(page.getByText('This is your own account')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Change role' }), 'never your own role').toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Disable' })).toHaveCount(0);
  await shoot(page, 'user-self');
});

asAdmin('creating a user: errors next to their fields, then a generated password shown once that signs in', async ({ page, browser }) => {
  const client = await makeClient();
  const taken = await makeUser();
  await page.goto('/admin/users');
  await page.getByRole('link', { name: 'Create a user' }).click();
  await expect(page.getByRole('heading', { name: 'Create a user' })).toBeVisible();
  await shoot(page, 'user-new');

  const username = `new-${Date.now().toString(36)}`;
  await page.getByLabel('Username').fill(taken.username);
  await page.getByLabel('Email (optional)').fill('not an email');
  await page.getByRole('button', { name: 'Create user' }).click();
  await expect(alert(page, 'One field needs attention')).toBeVisible();
  await expect(page.getByText('Email is not a valid address.', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Email (optional)')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Email (optional)'), 'what was typed comes back').toHaveValue('not an email');
  await shoot(page, 'user-new-errors');
  await page.getByLabel('Email (optional)').fill('');
  await page.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByText('This username is taken: choose another.', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveAttribute('aria-invalid', 'true');

  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email (optional)').fill(`${username}@example.test`);
  await page.getByLabel('Name (optional)').fill('Nova New');
  await page.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByText(`${username} is created`)).toBeVisible();
  const password = await page.getByRole('textbox', { name: 'Generated password' }).inputValue();
  await shoot(page, 'user-created');
  expect(await tryPassword(browser, client, username, password)).toBe('signed-in');

  await page.getByRole('link', { name: /show the user/ }).click();
  await expect(page.getByRole('heading', { name: username, level: 1 })).toBeVisible();
  expect(await page.content()).not.toContain(password);
  await page.getByRole('link', { name: 'Edit profile' }).click();
  await page.getByLabel('Name (optional)').fill('Nova Renamed');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(status(page, 'Changes saved.')).toBeVisible();
  await expect(page.getByText('Nova Renamed')).toBeVisible();
});

asAdmin('the audit log shows a failed sign-in and a client registration, with IP and user agent, and no secret or password', async ({ page, browser }) => {
  const client = await makeClient();
  const victim = await makeUser();
  const wrong = `wrong-${Date.now()}-password`;
  expect(await tryPassword(browser, client, victim.username, wrong)).toBe('refused');

  await page.goto('/admin/clients/new?kind=web');
  const name = `Audited ${Date.now()}`;
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByLabel('Redirect URIs', { exact: true }).fill(redirectUri);
  await page.getByRole('button', { name: 'Register client' }).click();
  const clientSecret = await page.getByRole('textbox', { name: 'Client secret' }).inputValue();

  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  await shoot(page, 'audit-log');

  await page.getByLabel('Action').selectOption('sign_in.failed');
  await page.getByLabel('Target (name or id)').fill(victim.username);
  await page.getByRole('button', { name: 'Filter' }).click();
  await expect(page).toHaveURL(/action=sign_in\.failed/);
  const failure = page.getByRole('row').filter({ hasText: 'Sign-in failed' });
  await expect(failure).toHaveCount(1);
  await expect(failure).toContainText(victim.username);
  await expect(failure).toContainText('wrong_password');
  await expect(failure).toContainText(/127\.0\.0\.1|::1/);
  await expect(failure).toContainText('Chrome');
  await expect(failure).toContainText(client.name);
  await shoot(page, 'audit-log-filtered');

  await page.getByLabel('Action').selectOption('client.created');
  await page.getByLabel('Target (name or id)').fill(name);
  await page.getByRole('button', { name: 'Filter' }).click();
  const created = page.getByRole('row').filter({ hasText: 'Client created' });
  await expect(created).toHaveCount(1);
  await expect(created).toContainText(name);
  await expect(created).toContainText(/127\.0\.0\.1|::1/);
  await expect(created).toContainText('Chrome');
  await expect(created.getByRole('link', { name: /^user-/ })).toBeVisible(); // the admin who acted

  await page.goto('/admin/audit');
  const html = await page.content();
  expect(html).not.toContain(clientSecret);
  expect(html).not.toContain(wrong);
  expect(html).not.toContain(victim.password);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  asAdmin('creates a user with a typed password, disables them, and filters the audit log with plain form posts', async ({ page, browser }) => {
    const client = await makeClient();
    await page.goto('/admin/users/new');
    const username = `nojs-${Date.now().toString(36)}`;
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Type a password').check();
    await expect(page.getByLabel('New password', { exact: true }), 'the typed fields show with CSS alone').toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill('typed without js');
    await page.getByLabel('New password, again').fill('typed without js');
    await page.getByRole('button', { name: 'Create user' }).click();
    await expect(page.getByText(`${username} is created`)).toBeVisible();
    expect(await page.content()).not.toContain('typed without js');
    expect(await tryPassword(browser, client, username, 'typed without js')).toBe('signed-in');

    await page.getByRole('link', { name: 'Show the user' }).click();
    await page.getByLabel(/their sessions end and every token/).check();
    await page.getByRole('button', { name: 'Disable user' }).click();
    await expect(page.getByText('The user is disabled')).toBeVisible();
    expect(await tryPassword(browser, client, username, 'typed without js')).toBe('disabled');

    await page.goto('/admin/audit');
    await page.getByLabel('Target (name or id)').fill(username);
    await page.getByRole('button', { name: 'Filter' }).click();
    for (const action of ['User created', 'User disabled', 'Signed in', 'Sign-in failed']) {
      await expect(page.getByRole('row').filter({ hasText: action }).first()).toBeVisible();
    }
  });
});
