/**
 * /account in a real browser, for a person without any role: they sign in
 * through Gatehouse (the portal's next-auth client and session), edit their
 * profile, change their password (the old one then fails at the Gatehouse
 * login), see an app they connected and revoke it (its access token then
 * introspects as inactive), and sign out everywhere else (another browser's
 * session ends, this one stays). Every test makes its own people and apps.
 * Screenshots of each page land in e2e/screenshots/account-*.png.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import * as oidc from 'openid-client';
import { authorizationRequest, basic, makeClient, makeUser, post } from '../support/fixtures.ts';
import { alert, callbackReached, gatehouseLogin, portalSignOut, screenshots, status } from '../support/pages.ts';
import { linkIn, mailApi, nextMail } from '../support/mail.ts';

type User = Awaited<ReturnType<typeof makeUser>>;
type Client = Awaited<ReturnType<typeof makeClient>>;

const shoot = screenshots('account');

/** From a signed-out browser: `path` → straight to Gatehouse's sign-in (through /account/sign-in, no page of its own) → back. */
async function accountSignIn(page: Page, user: { username: string; password: string }, { path = '/account', screenshot = false } = {}) {
  await page.goto(path);
  await expect(page).toHaveURL(/\/interaction\/[^/?]+$/);
  await expect(page.getByText('to continue to Gatehouse account portal')).toBeVisible();
  if (screenshot) await shoot(page, 'sign-in');
  await gatehouseLogin(page, user);
  await expect(page).toHaveURL(new RegExp(`${path.replace(/\//g, '\\/')}$`));
}

/** `user` signs in (already signed in to Gatehouse in this page's browser) to `client` and consents; openid-client redeems the code. */
async function connectApp(page: Page, client: Client) {
  const { config, verifier, state, url } = await authorizationRequest(client, { scope: 'openid profile offline_access', prompt: 'consent' });
  await page.goto(url.href);
  await expect(page.getByRole('heading', { name: `Allow ${client.name}?` })).toBeVisible();
  // The error page at the unanswered callback is awaited (callbackReached): it raced the next page.goto without
  // JavaScript. (Answering the callback with page.route worked in Chromium, not in its headless shell, which
  // refuses the unsafe port 9 before any route sees the request.)
  const callback = page.waitForRequest(/^http:\/\/127\.0\.0\.1:9\/callback\?/);
  await page.getByRole('button', { name: 'Allow' }).click();
  const tokens = await oidc.authorizationCodeGrant(config, new URL(await callbackReached(page, callback)), {
    pkceCodeVerifier: verifier,
    expectedState: state,
  });
  return { config, tokens };
}

const introspect = async (client: Client, token: string) =>
  (await post('/oauth/introspect', { token }, { authorization: basic(client.id, client.clientSecret!) })).json() as Promise<Record<string, unknown>>;

async function newSignedInPage(browser: Browser, user: User, path = '/account') {
  const context = await browser.newContext();
  const page = await context.newPage();
  await accountSignIn(page, user, { path });
  return { context, page };
}

test('a person signs in to /account and edits their profile; an email someone else has is refused next to the field', async ({ page }) => {
  const user = await makeUser({ name: 'Grace Hopper' });
  const other = await makeUser();
  await accountSignIn(page, user, { screenshot: true });
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
  await expect(page.getByText('Signed in as Grace Hopper')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Profile' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('link', { name: 'Admin portal' }), 'not an admin').toHaveCount(0);
  await expect(page.getByLabel('Email')).toHaveValue(user.email!);
  await shoot(page, 'profile');

  await page.getByLabel('Email').fill(other.email!);
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(page.getByText('Another account already uses this email address')).toBeVisible();
  await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Email')).toBeFocused();
  await expect(page.getByLabel('Email')).toHaveValue(other.email!);
  await shoot(page, 'profile-error');

  const email = `grace-${Date.now()}@example.test`;
  await page.getByLabel('Name', { exact: true }).fill('Grace B. Hopper');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expect(status(page, 'Your profile is saved.')).toBeVisible();
  if (mailApi) {
    // With mail (the test run's SMTP server), the new address waits for the link mailed to it.
    await expect(status(page, `We sent a link to ${email}`)).toBeVisible();
    await shoot(page, 'profile-email-pending');
    await page.reload();
    await expect(page.getByLabel('Email')).toHaveValue(user.email!);
    const mail = await nextMail(email);
    expect(mail.subject).toBe('Confirm your email address for Gatehouse');
    await page.goto(linkIn(mail, `${new URL(page.url()).origin}/verify-email/`));
    await expect(page.getByRole('heading', { name: 'Confirm your email address' })).toBeVisible();
    await shoot(page, 'verify-email');
    await page.getByRole('button', { name: `Confirm ${email}` }).click();
    await expect(page.getByText('is confirmed: it is your account’s email address now')).toBeVisible();
    await page.getByRole('link', { name: 'Open your account' }).click();
  } else {
    await page.reload();
  }
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue('Grace B. Hopper');
  await expect(page.getByLabel('Email')).toHaveValue(email);
  await expect(page.getByText('Signed in as Grace B. Hopper')).toBeVisible();
});

test('changing the password: the current one is required; then the old one fails at the Gatehouse login and the other session ends', async ({
  page,
  browser,
}) => {
  test.slow(); // two browsers, each signing in through Gatehouse
  const user = await makeUser();
  await accountSignIn(page, user, { path: '/account/password' });
  const elsewhere = await newSignedInPage(browser, user);
  await expect(page.getByRole('heading', { name: 'Password', level: 1 })).toBeVisible();
  await shoot(page, 'password');

  await page.getByLabel('Current password').fill('not my password');
  await page.getByLabel('New password', { exact: true }).fill('a brand new password');
  await page.getByLabel('New password, again').fill('a brand new passw0rd');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('This is not your current password')).toBeVisible();
  await expect(page.getByText('The two new passwords do not match')).toBeVisible();
  await expect(page.getByLabel('Current password')).toBeFocused();
  for (const label of ['Current password', 'New password, again']) await expect(page.getByLabel(label, { exact: true })).toHaveValue('');
  expect(await page.content(), 'nothing typed comes back').not.toContain('brand new');
  await shoot(page, 'password-errors');

  const newPassword = `new-${Date.now()}-password`;
  await page.getByLabel('Current password').fill(user.password);
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('New password, again').fill(newPassword);
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(status(page, 'Your password is changed.')).toBeVisible();
  await expect(status(page, 'Your one other session was signed out; you stay signed in here.')).toBeVisible();
  expect(await page.content()).not.toContain(newPassword);
  await shoot(page, 'password-changed');

  // This browser stays signed in; the other one's Gatehouse session, and with it its portal session, is gone.
  await page.goto('/account/sessions');
  await expect(page.getByRole('heading', { name: 'Active sessions (1)' })).toBeVisible();
  await elsewhere.page.goto('/account');
  await expect(elsewhere.page).toHaveURL(/\/interaction\/[^/?]+$/);
  await gatehouseLogin(elsewhere.page, user);
  await expect(alert(elsewhere.page, 'The username or password is not right.'), 'the old password fails').toBeVisible();
  await elsewhere.page.getByLabel('Password').fill(newPassword);
  await elsewhere.page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(elsewhere.page).toHaveURL(/\/account$/);
  await elsewhere.context.close();
});

test('an app the person connected is listed with what it may do, and revoking it makes its access token inactive', async ({ page }) => {
  const user = await makeUser();
  const client = await makeClient({ name: `Notes ${Date.now()}` });
  await accountSignIn(page, user);
  const { config, tokens } = await connectApp(page, client);
  expect(await introspect(client, tokens.access_token)).toMatchObject({ active: true, sub: user.id });

  await page.goto('/account/apps');
  const app = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: client.name }) });
  await expect(app.getByText('See your name, username, picture, language and time zone')).toBeVisible();
  await expect(app.getByText('Stay connected when you are not using it')).toBeVisible();
  await expect(app.getByText('No token in use'), 'it has a token: its last use is known').toHaveCount(0);
  const portal = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Gatehouse account portal' }) });
  await expect(portal.getByText('This portal')).toBeVisible();
  await expect(portal.getByRole('button'), 'the portal is listed, not revocable').toHaveCount(0);
  await shoot(page, 'apps');

  await page.getByText(`Revoke access… for ${client.name}`).click();
  await page.getByRole('button', { name: `Revoke access for ${client.name}` }).click();
  await expect(alert(page, 'Tick the box to confirm: the app’s access ends at once.')).toBeVisible();
  await page.getByLabel(/its tokens stop working, and it asks for your permission again/).check();
  await page.getByRole('button', { name: `Revoke access for ${client.name}` }).click();
  await expect(status(page, 'Access revoked.')).toBeVisible();
  await expect(page.getByRole('heading', { name: client.name })).toHaveCount(0);
  expect(await introspect(client, tokens.access_token)).toEqual({ active: false });
  await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!), 'the refresh token is revoked too').rejects.toThrow();
  await shoot(page, 'apps-revoked');
});

test('"sign out everywhere else" ends the other browser’s session and keeps this one', async ({ page, browser }) => {
  test.slow(); // two browsers, each signing in through Gatehouse
  const user = await makeUser();
  const elsewhere = await newSignedInPage(browser, user, '/account/sessions');
  await accountSignIn(page, user, { path: '/account/sessions' });
  await expect(page.getByRole('heading', { name: 'Active sessions (2)' })).toBeVisible();
  await expect(page.getByText('This device', { exact: true })).toHaveCount(1);
  // Each session says where it was signed in from, read from its sign-in: Chrome (its emulated desktop) from this machine.
  const sessionList = page.getByRole('region', { name: /Active sessions/ }).getByRole('listitem');
  await expect(sessionList.first()).toContainText(/^Chrome on \w+/);
  await expect(sessionList.first()).toContainText(/from (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/);
  await expect(sessionList.nth(1)).toContainText(/^Chrome on \w+/);
  await expect(page.getByText(/^Sign out… the session signed in at /)).toHaveCount(1);
  await shoot(page, 'sessions');

  await page.getByLabel('Sign out every other browser and device where I am signed in.').check();
  await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await expect(status(page, 'Signed out of one other session. You stay signed in here.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Active sessions (1)' })).toBeVisible();
  const activity = page.getByRole('region', { name: 'Recent activity' });
  await expect(activity.getByRole('listitem').first(), 'the newest entry').toContainText('Sessions ended');
  await expect(activity.getByRole('listitem').filter({ hasText: 'Signed in' }).first()).toContainText(/Chrome on \w+/);
  await shoot(page, 'sessions-signed-out-others');

  await elsewhere.page.reload();
  await expect(elsewhere.page, 'its portal session ended with its Gatehouse session').toHaveURL(/\/interaction\/[^/?]+$/);
  await expect(elsewhere.page.getByLabel('Password'), 'Gatehouse asks for the password again').toBeVisible();
  await elsewhere.context.close();

  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();
});

test('signing out of /account ends the portal and Gatehouse sessions and comes back to /account/signed-out', async ({ page }) => {
  const user = await makeUser();
  await accountSignIn(page, user);
  await portalSignOut(page, '/account/signed-out');
  await shoot(page, 'signed-out');
  await page.getByRole('link', { name: 'Sign in again' }).click();
  await expect(page, 'straight to Gatehouse’s sign-in').toHaveURL(/\/interaction\/[^/?]+$/);
  await expect(page.getByLabel('Password')).toBeVisible();
});

test('one portal session: an admin’s /account is their own; a person signed in at /account still gets 403 at /admin', async ({ page, browser }) => {
  test.slow(); // two browsers, each signing in through Gatehouse
  const admin = await makeUser({ role: 'admin', name: 'Ada Admin' });
  await accountSignIn(page, admin);
  await expect(page.getByText('Signed in as Ada Admin')).toBeVisible();
  await expect(page.getByText('Administrator', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: 'Admin portal' }).click();
  await expect(page.getByRole('heading', { name: 'Clients', level: 1 }), 'no second sign-in').toBeVisible();
  await page.getByRole('link', { name: 'Your account' }).click();
  await expect(page.getByRole('heading', { name: 'Profile', level: 1 })).toBeVisible();

  const person = await makeUser();
  const { context, page: other } = await newSignedInPage(browser, person);
  const response = await other.goto('/admin/clients');
  expect(response?.status()).toBe(403);
  await expect(other.getByRole('heading', { name: "You don't have access to this page" })).toBeVisible();
  await other.getByRole('link', { name: 'Go to your account' }).click();
  await expect(other.getByRole('heading', { name: 'Profile', level: 1 }), 'still signed in').toBeVisible();
  await context.close();
});

test('signing out one other session asks for a tick first, as every action that ends something does, then ends only that one', async ({ page, browser }) => {
  test.slow(); // two browsers, each signing in through Gatehouse
  const user = await makeUser();
  const elsewhere = await newSignedInPage(browser, user, '/account/sessions');
  await accountSignIn(page, user, { path: '/account/sessions' });
  await expect(page.getByRole('heading', { name: 'Active sessions (2)' })).toBeVisible();
  const other = page
    .getByRole('region', { name: /Active sessions/ })
    .getByRole('listitem')
    .filter({ hasNotText: 'This device' });

  await other.getByText(/^Sign out… the session signed in at /).click();
  const submit = other.getByRole('button', { name: /^Sign out the session signed in at / });
  await submit.click();
  await expect(alert(page, 'Tick the box to confirm: that browser or device is signed out.')).toBeVisible();
  await elsewhere.page.reload();
  await expect(elsewhere.page, 'unticked, the other session goes on').toHaveURL(/\/account\/sessions$/);

  await other.getByLabel(/^Sign out this browser or device/).check();
  await submit.click();
  await expect(status(page, 'That session is signed out.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Active sessions (1)' })).toBeVisible();
  await elsewhere.page.reload();
  await expect(elsewhere.page, 'its portal session ended with its Gatehouse session').toHaveURL(/\/interaction\/[^/?]+$/);
  await elsewhere.context.close();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('profile, password, revoke and sign out everywhere else work as plain form posts', async ({ page, browser }) => {
    test.slow(); // two browsers, each signing in through Gatehouse
    const user = await makeUser();
    const client = await makeClient({ name: `No-JS App ${Date.now()}` });
    await accountSignIn(page, user);

    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Email is not a valid address')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue('not-an-email');
    await page.getByLabel('Email').fill(`nojs-${Date.now()}@example.test`);
    await page.getByRole('button', { name: 'Save profile' }).click();
    await expect(page.getByText('Your profile is saved.')).toBeVisible();

    await page.goto('/account/password');
    await page.getByLabel('Current password').fill(user.password);
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByLabel('New password, again').fill('short');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Password must be at least 8 characters')).toBeVisible();
    await page.getByLabel('Current password').fill(user.password);
    await page.getByLabel('New password', { exact: true }).fill('a long enough password');
    await page.getByLabel('New password, again').fill('a long enough password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Your password is changed.')).toBeVisible();

    const { tokens } = await connectApp(page, client);
    await page.goto('/account/apps');
    await page.getByText(`Revoke access… for ${client.name}`).click();
    await page.getByLabel(/its tokens stop working/).check();
    await page.getByRole('button', { name: `Revoke access for ${client.name}` }).click();
    await expect(page.getByText('Access revoked.')).toBeVisible();
    expect(await introspect(client, tokens.access_token)).toEqual({ active: false });

    const elsewhere = await newSignedInPage(browser, { ...user, password: 'a long enough password' });
    await page.goto('/account/sessions');
    await expect(page.getByRole('heading', { name: 'Active sessions (2)' })).toBeVisible();
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(page.getByText('Tick the box to confirm: every other browser and device is signed out.'), 'unticked, nothing ends').toBeVisible();
    await page.getByLabel('Sign out every other browser and device where I am signed in.').check();
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(page.getByText('Signed out of one other session.')).toBeVisible();
    await elsewhere.page.reload();
    await expect(elsewhere.page).toHaveURL(/\/interaction\/[^/?]+$/);
    await elsewhere.context.close();
  });

  test('"sign out everywhere else" posted from another site is refused (server actions check Origin)', async ({ page, browser }) => {
    test.slow(); // two browsers, each signing in through Gatehouse
    const user = await makeUser();
    const elsewhere = await newSignedInPage(browser, user);
    await accountSignIn(page, user, { path: '/account/sessions' });
    const hidden = page
      .locator('form')
      .filter({ has: page.getByRole('button', { name: 'Sign out everywhere else' }) })
      .locator('input[type=hidden]');
    const fields: Record<string, string> = {};
    for (let i = 0; i < (await hidden.count()); i++) fields[(await hidden.nth(i).getAttribute('name'))!] = (await hidden.nth(i).getAttribute('value')) ?? '';
    fields.confirm = 'on'; // the box a person ticks: what is refused here is the origin
    const submit = (origin: string) => page.request.post(page.url(), { multipart: fields, headers: { origin }, maxRedirects: 0 });

    expect((await submit('http://evil.example')).status()).toBeGreaterThanOrEqual(400);
    await elsewhere.page.reload();
    await expect(elsewhere.page.getByRole('heading', { name: 'Profile', level: 1 }), 'still signed in elsewhere').toBeVisible();

    expect((await submit(new URL(page.url()).origin)).status(), 'the same post from our own origin goes through').toBe(303);
    await elsewhere.page.reload();
    await expect(elsewhere.page).toHaveURL(/\/interaction\/[^/?]+$/);
    await elsewhere.context.close();
  });
});
