/**
 * The admin portal in a real browser. Admins sign in through Gatehouse itself
 * (next-auth as an OIDC client of this issuer), register a client, read its
 * secret once, and the client then works with openid-client; rotating the
 * secret stops the old one; non-admins get the 403 page; signing out ends the
 * portal and the Gatehouse sessions. Every test makes its own clients; those that test the portal's pages
 * rather than its sign-in share their worker's signed-in admin (e2e/support/signed-in.ts).
 * Screenshots of each page land in e2e/screenshots/admin-*.png.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { decodeProtectedHeader } from 'jose';
import * as oidc from 'openid-client';
import { database } from '../../lib/db/database.ts';
import { recordAudit } from '../../lib/audit/log.ts';
import { authorizationRequest, basic, databaseUrl, makeClient, makeUser, post, redirectUri } from '../support/fixtures.ts';
import { alert, gatehouseLogin, portalSignOut, screenshots } from '../support/pages.ts';
import { asAdmin } from '../support/signed-in.ts';

type User = Awaited<ReturnType<typeof makeUser>>;

const shoot = screenshots('admin');

/** From a signed-out browser: /admin/clients → portal sign-in page → Gatehouse login → back, with no consent screen. */
async function portalSignIn(page: Page, user: User, { screenshot = false } = {}) {
  await page.goto('/admin/clients');
  await expect(page).toHaveURL(/\/interaction\/[^/?]+$/);
  await expect(page.getByText('to continue to Gatehouse account portal')).toBeVisible();
  if (screenshot) await shoot(page, 'sign-in');
  await gatehouseLogin(page, user);
}

async function adminSignIn(page: Page, options: { screenshot?: boolean } = {}) {
  const admin = await makeUser({ role: 'admin', name: 'Ada Admin' });
  await portalSignIn(page, admin, options);
  await expect(page).toHaveURL(/\/admin\/clients$/);
  await expect(page.getByRole('heading', { name: 'Clients', level: 1 })).toBeVisible();
  await expect(page.getByText('Signed in as Ada Admin')).toBeVisible();
  return admin;
}

/** Fills the registration form (defaults: confidential, code + refresh token, openid profile email offline_access). */
async function fillClientForm(page: Page, fields: { name: string; redirectUris?: string; grantTypes?: string[] }) {
  await page.getByLabel('Name', { exact: true }).fill(fields.name);
  if (fields.redirectUris !== undefined) await page.getByLabel('Redirect URIs', { exact: true }).fill(fields.redirectUris);
  for (const grant of fields.grantTypes ?? []) await page.getByRole('checkbox', { name: grant }).check();
}

/** The secret panel after create or rotate: the values, read as a person would copy them. */
async function revealedSecret(page: Page) {
  await expect(page.getByText('Gatehouse stores only a hash of it and will never show it again.')).toBeVisible();
  return page.getByRole('textbox', { name: 'Client secret' }).inputValue();
}

/** A new person signs in to `client` in a browser of their own and consents; openid-client redeems the code. */
async function appSignsIn(browser: Browser, client: { id: string; clientSecret: string; name: string }) {
  const { config, verifier, state, url } = await authorizationRequest({
    id: client.id,
    clientSecret: client.clientSecret,
    tokenEndpointAuthMethod: 'client_secret_basic',
  });
  const person = await makeUser({ name: 'Grace Hopper' });
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(url.href);
    await expect(page.getByText(client.name)).toBeVisible();
    await gatehouseLogin(page, person);
    await expect(page.getByRole('heading', { name: `Allow ${client.name}?` })).toBeVisible();
    const callback = page.waitForRequest(/^http:\/\/127\.0\.0\.1:9\/callback\?/);
    await page.getByRole('button', { name: 'Allow' }).click();
    const tokens = await oidc.authorizationCodeGrant(config, new URL((await callback).url()), { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.claims()?.sub).toBe(person.id);
    return tokens;
  } finally {
    await context.close();
  }
}

const clientCredentials = (id: string, secret: string) => post('/oauth/token', { grant_type: 'client_credentials' }, { authorization: basic(id, secret) });

test('an admin signs in through Gatehouse, registers a client, reads its secret once, and the app signs a person in', async ({ page, browser }) => {
  test.slow(); // two sign-ins through Gatehouse (the admin's, then the app's person's in a browser of its own) and a registration
  await adminSignIn(page, { screenshot: true });
  await shoot(page, 'clients');

  await page.getByRole('link', { name: 'Register a client' }).click();
  await expect(page.getByRole('heading', { name: 'Register a client' })).toBeVisible();
  await shoot(page, 'client-kinds');
  await page.getByRole('link', { name: /^Web application/ }).click();
  await shoot(page, 'client-new');
  const name = `Notes ${Date.now()}`;
  await fillClientForm(page, { name, redirectUris: redirectUri });
  await expect(page.getByLabel('ID token signing algorithm')).toHaveValue('ES256');
  await page.getByRole('button', { name: 'Register client' }).click();

  const clientSecret = await revealedSecret(page);
  const clientId = await page.getByRole('textbox', { name: 'Client ID' }).inputValue();
  expect(Buffer.from(clientSecret, 'base64url')).toHaveLength(32);
  await shoot(page, 'client-created');

  await page.getByRole('link', { name: /show the client/ }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  expect(await page.content(), 'the secret is never shown again').not.toContain(clientSecret);
  await expect(page.getByText('ES256', { exact: true })).toBeVisible();
  await shoot(page, 'client');

  const tokens = await appSignsIn(browser, { id: clientId, clientSecret, name });
  expect(tokens.access_token).toBeTruthy();
  expect(tokens.refresh_token, 'the default grants include refresh_token').toBeTruthy();
  expect(decodeProtectedHeader(tokens.id_token!).alg, "a new client's ID tokens are ES256").toBe('ES256');
});

asAdmin('the ID token signing algorithm: RS256 on request; a forged value is refused next to the field', async ({ page }) => {
  await page.goto('/admin/clients/new?kind=web');
  const name = `Legacy RP ${Date.now()}`;
  await fillClientForm(page, { name, redirectUris: redirectUri });
  await expect(page.getByText('RS256 for relying parties that accept only RS256, e.g. next-auth v4 without configuration.')).toBeVisible();
  const select = page.getByLabel('ID token signing algorithm');
  // Only ES256 and RS256 are offered; a hand-made request could send anything.
  await select.evaluate((element: HTMLSelectElement) => {
    element.add(new Option('HS256', 'HS256'));
    element.value = 'HS256';
  });
  await page.getByRole('button', { name: 'Register client' }).click();
  await expect(alert(page, 'One field needs attention')).toBeVisible();
  await expect(page.getByText('The ID token signing algorithm is one of ES256, RS256.', { exact: true })).toBeVisible();
  await expect(select).toHaveAttribute('aria-invalid', 'true');

  await select.selectOption('RS256');
  await page.getByRole('button', { name: 'Register client' }).click();
  await revealedSecret(page);
  await page.getByRole('link', { name: /show the client/ }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  await expect(page.getByText('RS256', { exact: true })).toBeVisible();
});

asAdmin('rotating the secret: the old one gets 401 at the token endpoint, the new one works', async ({ page }) => {
  const client = await makeClient({ grantTypes: ['authorization_code', 'client_credentials'] });
  expect((await clientCredentials(client.id, client.clientSecret!)).status).toBe(200);
  await page.goto(`/admin/clients/${client.id}`);
  await expect(page.getByRole('heading', { name: client.name, level: 1 })).toBeVisible();

  await page.getByRole('button', { name: 'Rotate secret' }).click();
  await expect(alert(page, 'Tick the box to confirm')).toBeVisible();
  expect((await clientCredentials(client.id, client.clientSecret!)).status, 'nothing rotated without the tick').toBe(200);

  await page.getByLabel(/apps using the current secret stop working/).check();
  await page.getByRole('button', { name: 'Rotate secret' }).click();
  const rotated = await revealedSecret(page);
  expect(rotated).not.toBe(client.clientSecret);
  await shoot(page, 'secret-rotated');

  const old = await clientCredentials(client.id, client.clientSecret!);
  expect(old.status).toBe(401);
  expect((await old.json()).error).toBe('invalid_client');
  const fresh = await clientCredentials(client.id, rotated);
  expect(fresh.status).toBe(200);
  expect((await fresh.json()).access_token).toBeTruthy();

  await page.reload();
  expect(await page.content(), 'the rotated secret is not shown again').not.toContain(rotated);
});

test('a person without the admin role gets the 403 page, and can sign out from it', async ({ page }) => {
  const person = await makeUser();
  await portalSignIn(page, person);
  await expect(page.getByRole('heading', { name: "You don't have access to this page" })).toBeVisible();
  await expect(page.getByText('Signed in as')).toHaveCount(0);
  const response = await page.goto('/admin/clients/new');
  expect(response?.status()).toBe(403);
  await expect(page.getByRole('heading', { name: "You don't have access to this page" })).toBeVisible();
  await shoot(page, 'forbidden');

  await portalSignOut(page, '/admin/signed-out');
});

test('signing out ends the portal session and the Gatehouse session', async ({ page }) => {
  await adminSignIn(page);
  await portalSignOut(page, '/admin/signed-out');
  await shoot(page, 'signed-out');

  // The portal forgot the admin, and so did Gatehouse: signing in asks for the password again.
  await page.getByRole('link', { name: 'Sign in again' }).click();
  await expect(page).toHaveURL(/\/interaction\/[^/?]+$/);
  await expect(page.getByLabel('Password')).toBeVisible();
});

asAdmin('the form shows what is wrong next to each field, keeps what was typed, and registers nothing', async ({ page }) => {
  await page.goto('/admin/clients/new?kind=web');
  const name = `Bad ${Date.now()}`;
  await fillClientForm(page, { name, redirectUris: 'https://ok.example/cb\nhttp://evil.example/cb' });
  await page.getByRole('checkbox', { name: 'offline_access' }).uncheck();
  await page.getByLabel('Logo URI (optional)').fill('http://logo.example/x.png');
  await page.getByRole('button', { name: 'Register client' }).click();

  await expect(alert(page, '2 fields need attention')).toBeVisible();
  await expect(page.getByText('http://evil.example/cb must use https (http only for localhost, 127.0.0.1 and [::1]).', { exact: true })).toBeVisible();
  await expect(page.getByText('The logo URI must be an https URL.', { exact: true })).toBeVisible();
  await expect(page.getByLabel('Redirect URIs', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Name', { exact: true })).toHaveValue(name);
  await expect(page.getByLabel('Redirect URIs', { exact: true })).toHaveValue('https://ok.example/cb\nhttp://evil.example/cb');
  await expect(page.getByRole('checkbox', { name: 'offline_access' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'openid' })).toBeChecked();
  await shoot(page, 'client-new-errors');

  await page.goto(`/admin/clients?q=${encodeURIComponent(name)}`);
  await expect(page.getByText(`No client matches “${name}”.`)).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Pagination' }), 'the empty row says it, once').toHaveCount(0);
});

asAdmin.describe(() => {
  asAdmin.use({ javaScriptEnabled: false });

  asAdmin('the clients list sorts by name, type, status or registration, without JavaScript too', async ({ page }) => {
    const tag = `Sorted ${Date.now()}`;
    await makeClient({ name: `${tag} b` });
    await makeClient({ name: `${tag} a` });
    await page.goto(`/admin/clients?q=${encodeURIComponent(tag)}`);
    const names = () => page.getByRole('cell').getByRole('link').allInnerTexts();
    expect(await names()).toEqual([`${tag} a`, `${tag} b`]);
    await page.getByRole('columnheader', { name: /Name/ }).getByRole('link').click();
    await expect(page.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(await names()).toEqual([`${tag} a`, `${tag} b`]);
    await page.getByRole('columnheader', { name: /Name/ }).getByRole('link').click();
    await expect(page.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'descending');
    expect(await names()).toEqual([`${tag} b`, `${tag} a`]);
  });
});

asAdmin('the audit log at 1280 px keeps the actor “System” on one line', async ({ page }) => {
  const client = await makeClient();
  // What the CLI records: a change by the system itself, with no address.
  await recordAudit(database(databaseUrl), {
    action: 'client.enabled',
    actor: null,
    target: { type: 'client', id: client.id, label: client.name },
    context: { ip: null, userAgent: null },
    details: {},
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/admin/audit?target=${encodeURIComponent(client.id)}`);
  const system = page.getByRole('cell').getByText('System', { exact: true }).first();
  const lineHeight = await system.evaluate((e) => Number.parseFloat(getComputedStyle(e).lineHeight));
  expect((await system.boundingBox())!.height).toBeLessThan(lineHeight * 1.5);
});

asAdmin(
  'an admin-API client registered in the portal gets the admin scope and calls the admin API; without the flag the form refuses the scope',
  async ({ page }) => {
    // Every setting: this test builds an admin-API client by hand (the machine-to-machine kind has the same fields).
    await page.goto('/admin/clients/new?kind=custom');
    const name = `Automation ${Date.now()}`;
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByRole('checkbox', { name: /^Authorization code/ }).uncheck();
    await page.getByRole('checkbox', { name: /^Refresh token/ }).uncheck();
    await page.getByRole('checkbox', { name: /^Client credentials/ }).check();
    for (const scope of ['openid', 'profile', 'email', 'offline_access']) await page.getByRole('checkbox', { name: scope }).uncheck();
    await page.getByRole('checkbox', { name: /^admin Call the admin API/ }).check();
    await page.getByRole('button', { name: 'Register client' }).click();
    await expect(page.getByText('Only admin-API clients may have the admin scope.', { exact: true })).toBeVisible();

    await page.getByRole('checkbox', { name: /^Admin API/ }).check();
    await page.getByRole('button', { name: 'Register client' }).click();
    const clientSecret = await revealedSecret(page);
    const clientId = await page.getByRole('textbox', { name: 'Client ID' }).inputValue();
    const token = await post('/oauth/token', { grant_type: 'client_credentials', scope: 'admin' }, { authorization: basic(clientId, clientSecret) });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    const users = await page.request.get('/api/admin/users', { headers: { authorization: `Bearer ${access_token}` } });
    expect(users.status()).toBe(200);

    await page.getByRole('link', { name: /show the client/ }).click();
    await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
    await expect(page.getByText('Admin API', { exact: true })).toBeVisible();
    await shoot(page, 'client-admin-api');
  },
);

asAdmin('edit, disable, enable and delete a client', async ({ page }) => {
  const client = await makeClient({ grantTypes: ['authorization_code', 'client_credentials'] });
  await page.goto(`/admin/clients/${client.id}`);

  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { name: `Edit ${client.name}` })).toBeVisible();
  await expect(page.getByText('Client type: Confidential')).toBeVisible();
  await shoot(page, 'client-edit');
  const renamed = `${client.name} (renamed)`;
  await page.getByLabel('Name', { exact: true }).fill(renamed);
  await expect(page.getByLabel('ID token signing algorithm')).toHaveValue('ES256');
  await page.getByLabel('ID token signing algorithm').selectOption('RS256');
  await page.getByLabel('Post-logout redirect URIs').fill('https://app.example/bye');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/clients/${client.id}\\?notice=saved$`));
  await expect(page.getByRole('status').filter({ hasText: 'Changes saved.' })).toBeVisible();
  await expect(page.getByRole('heading', { name: renamed, level: 1 })).toBeVisible();
  await expect(page.getByText('https://app.example/bye')).toBeVisible();
  await expect(page.getByText('RS256', { exact: true })).toBeVisible();
  expect((await clientCredentials(client.id, client.clientSecret!)).status, 'an edit keeps the secret').toBe(200);

  await page.getByRole('button', { name: 'Disable client' }).click();
  await expect(alert(page, 'Tick the box to confirm: every token and grant of this client is revoked.')).toBeVisible();
  expect((await clientCredentials(client.id, client.clientSecret!)).status, 'an unconfirmed Disable changes nothing').toBe(200);
  await page.getByRole('checkbox', { name: /^Disable .* and revoke every token and grant it holds/ }).check();
  await page.getByRole('button', { name: 'Disable client' }).click();
  await expect(page.getByText('The client is disabled')).toBeVisible();
  expect((await clientCredentials(client.id, client.clientSecret!)).status, 'a disabled client is unknown to the provider').toBe(401);
  await page.getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByText('The client is enabled')).toBeVisible();
  expect((await clientCredentials(client.id, client.clientSecret!)).status).toBe(200);

  await page.getByRole('button', { name: 'Delete client' }).click();
  await expect(alert(page, 'Tick the box to confirm the deletion.')).toBeVisible();
  await page.getByLabel(/This cannot be undone/).check();
  await page.getByRole('button', { name: 'Delete client' }).click();
  await expect(page).toHaveURL(/\/admin\/clients\?notice=deleted$/);
  await expect(page.getByText('The client is deleted')).toBeVisible();
  expect((await clientCredentials(client.id, client.clientSecret!)).status).toBe(401);
  expect((await page.goto(`/admin/clients/${client.id}`))?.status()).toBe(404);
});

asAdmin('the client list searches by name and pages through the results', async ({ page }) => {
  const tag = `paging-${Date.now().toString(36)}`;
  for (let i = 0; i < 23; i++) await makeClient({ name: `App ${tag} ${String(i).padStart(2, '0')}` });
  await page.goto('/admin/clients');
  await page.getByRole('searchbox', { name: 'Search clients by name or client ID' }).fill(tag.toUpperCase());
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`q=${tag.toUpperCase()}`));
  await expect(page.getByText('Showing 1–20 of 23')).toBeVisible();
  await expect(page.getByRole('link', { name: `App ${tag} 22` })).toBeVisible(); // newest first
  await expect(page.getByRole('link', { name: 'Previous' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Next' }).click();
  await expect(page.getByText('Showing 21–23 of 23')).toBeVisible();
  await expect(page.getByRole('link', { name: `App ${tag} 00` })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Next' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Previous' }).click();
  await expect(page.getByText('Showing 1–20 of 23')).toBeVisible();
});

asAdmin('the navigation reaches the Users, Audit log and System sections, marking the current one', async ({ page }) => {
  await page.goto('/admin/clients');
  await page.getByRole('link', { name: 'Users' }).click();
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Users' })).toHaveAttribute('aria-current', 'page');
  await shoot(page, 'users');
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  await shoot(page, 'audit');
  // Where mail goes: the test run's SMTP server, named without credentials; the policy at its default.
  await page.getByRole('link', { name: 'System' }).click();
  await expect(page.getByRole('heading', { name: 'System', level: 1 })).toBeVisible();
  await expect(page.getByText(/^SMTP server smtp:\/\/127\.0\.0\.1:\d+$|^nowhere: SMTP_URL is not set/)).toBeVisible();
  await expect(page.getByText('Administrators (the default)')).toBeVisible();
  await shoot(page, 'system');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  asAdmin('the client form offers a public client only what applies to it, with CSS alone', async ({ page }) => {
    await page.goto('/admin/clients');
    await page.getByRole('link', { name: 'Register a client' }).click();
    await page.getByRole('link', { name: /^Other: every setting/ }).click();
    const confidentialOnly = [
      page.getByRole('checkbox', { name: /Client credentials/ }),
      page.getByRole('checkbox', { name: /^introspect/ }),
      page.getByRole('checkbox', { name: /^admin/ }),
      page.getByRole('checkbox', { name: /^Resource server/ }),
      page.getByRole('checkbox', { name: /^Admin API/ }),
      page.getByLabel('Token endpoint authentication'),
    ];
    for (const field of confidentialOnly) await expect(field).toBeVisible();
    await page.getByRole('checkbox', { name: /Client credentials/ }).check();
    await page.getByRole('radio', { name: /^Public/ }).check();
    for (const field of confidentialOnly) await expect(field).toBeHidden();
    await shoot(page, 'client-new-public');
    await fillClientForm(page, { name: 'No-JS SPA', redirectUris: 'http://localhost:5173/cb' });
    await page.getByRole('button', { name: 'Register client' }).click();
    await expect(page.getByText('No-JS SPA is registered'), 'the hidden, ticked client_credentials is not sent on').toBeVisible();
    await page.getByRole('link', { name: /show the client/ }).click();
    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByRole('checkbox', { name: /Client credentials/ }), 'a public client’s edit form leaves it out').toHaveCount(0);
    await expect(page.getByLabel('Token endpoint authentication')).toHaveCount(0);
  });

  test('signs in, shows form errors, registers a client and shows its secret once', async ({ page }) => {
    await adminSignIn(page);
    await page.getByRole('link', { name: 'Register a client' }).click();
    await page.getByRole('link', { name: /^Web application/ }).click();
    await fillClientForm(page, { name: 'No-JS App', redirectUris: 'http://evil.example/cb' });
    await page.getByRole('button', { name: 'Register client' }).click();
    await expect(page.getByText('http://evil.example/cb must use https (http only for localhost, 127.0.0.1 and [::1]).', { exact: true })).toBeVisible();
    await expect(page.getByLabel('Name', { exact: true })).toHaveValue('No-JS App');

    await page.getByLabel('Redirect URIs', { exact: true }).fill(redirectUri);
    await page.getByRole('button', { name: 'Register client' }).click();
    const clientSecret = await revealedSecret(page);
    const clientId = await page.getByRole('textbox', { name: 'Client ID' }).inputValue();
    await expect(page.getByRole('button', { name: /^Copy/ }), 'no copy button that cannot work').toHaveCount(0);
    expect((await clientCredentials(clientId, clientSecret)).status, 'the secret authenticates (the grant is not allowed)').toBe(400);
    expect((await clientCredentials(clientId, `${clientSecret}x`)).status).toBe(401);
  });

  asAdmin('rotates a secret and deletes a client with plain form posts', async ({ page }) => {
    const client = await makeClient({ grantTypes: ['authorization_code', 'client_credentials'] });
    await page.goto(`/admin/clients/${client.id}`);
    await page.getByLabel(/apps using the current secret stop working/).check();
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotated = await revealedSecret(page);
    expect((await clientCredentials(client.id, client.clientSecret!)).status).toBe(401);
    expect((await clientCredentials(client.id, rotated)).status).toBe(200);

    await page.goto(`/admin/clients/${client.id}`);
    await page.getByLabel(/This cannot be undone/).check();
    await page.getByRole('button', { name: 'Delete client' }).click();
    await expect(page.getByText('The client is deleted')).toBeVisible();
  });

  asAdmin('the same form posted from another site is refused (server actions check Origin)', async ({ page }) => {
    const client = await makeClient({ grantTypes: ['authorization_code', 'client_credentials'] });
    await page.goto(`/admin/clients/${client.id}`);
    // The Disable form as the page renders it for a browser without JavaScript: the action's id in hidden fields.
    const hidden = page
      .locator('form')
      .filter({ has: page.getByRole('button', { name: 'Disable client' }) })
      .locator('input[type=hidden]');
    const fields: Record<string, string> = {};
    for (let i = 0; i < (await hidden.count()); i++) {
      fields[(await hidden.nth(i).getAttribute('name'))!] = (await hidden.nth(i).getAttribute('value')) ?? '';
    }
    fields.confirm = 'on'; // the box a person ticks: what is refused here is the origin
    const submit = (origin: string) => page.request.post(page.url(), { multipart: fields, headers: { origin }, maxRedirects: 0 });

    const forged = await submit('http://evil.example');
    expect(forged.status()).toBeGreaterThanOrEqual(400);
    expect((await clientCredentials(client.id, client.clientSecret!)).status, 'still enabled').toBe(200);

    const genuine = await submit(new URL(page.url()).origin);
    expect(genuine.status(), 'the same post from our own origin goes through').toBe(303);
    expect((await clientCredentials(client.id, client.clientSecret!)).status, 'now disabled').toBe(401);
  });
});

test('/admin/sign-in and /account/sign-in go straight to Gatehouse’s sign-in, with no page in between, and back to their callbackUrl', async ({ page }) => {
  const user = await makeUser();
  const start = await page.request.get('/account/sign-in?callbackUrl=%2Faccount%2Fsessions', { maxRedirects: 0 });
  expect(start.status(), 'a redirect, no page').toBe(302);
  expect(new URL(start.headers().location).pathname).toBe('/oauth/authorize');
  await page.goto('/account/sign-in?callbackUrl=%2Faccount%2Fsessions');
  await expect(page).toHaveURL(/\/interaction\/[^/?]+$/);
  await gatehouseLogin(page, user);
  await expect(page).toHaveURL(/\/account\/sessions$/);
  await page.goto('/account/sign-in');
  await expect(page, 'signed in already: straight back').toHaveURL(/\/account$/);
});

test('a failed portal sign-in says so in the words of its area, with Try again', async ({ page }) => {
  await page.goto('/sign-in?error=OAuthCallback');
  await expect(page.getByRole('heading', { name: 'Gatehouse admin' })).toBeVisible();
  await page.goto('/sign-in?error=OAuthCallback&callbackUrl=%2Faccount%2Fapps');
  await expect(page.getByRole('heading', { name: 'Your Gatehouse account' })).toBeVisible();
  await expect(page.getByText('The sign-in did not complete.')).toBeVisible();
  await shoot(page, 'sign-in-failed');
  await page.getByRole('link', { name: 'Try again' }).click();
  await expect(page).toHaveURL(/\/interaction\/[^/?]+$/);
});
