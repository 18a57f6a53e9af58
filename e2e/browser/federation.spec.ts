/**
 * Signing in with another identity provider in Chromium, against the bare oidc-provider as the upstream
 * (e2e/support/upstreams.ts, on 127.0.0.2 with its development login and consent pages): the button on the
 * sign-in page, the upstream and back to the app signed in; identifier-first routing by email domain; linking
 * an existing account with its password; unlinking in /account (and the last way in refused); the admin
 * portal's connection pages (a preset, edit with the write-only secret, disable, delete) and a person's
 * identities on their page; the new pages in German, light and dark, with axe. The app's redirect to
 * http://127.0.0.1:9/callback is caught from the browser's request for it, its code redeemed with openid-client.
 */
import { randomBytes } from 'node:crypto';
import { type Page, expect, test } from '@playwright/test';
import * as oidc from 'openid-client';
import { PORTAL_CLIENT_ID } from '../../lib/clients/portal-client.ts';
import { database } from '../../lib/db/database.ts';
import { createConnection, type NewConnectionInput } from '../../lib/federation/manage.ts';
import { insertIdentity } from '../../lib/federation/repository.ts';
import { setVerifiedEmail } from '../../lib/users/repository.ts';
import { describeFindings, type Finding, wcagFindings } from '../support/axe.ts';
import { authorizationRequest, baseUrl, databaseUrl, makeClient, makeUser } from '../support/fixtures.ts';
import { callbackReached, gatehouseLogin, screenshots } from '../support/pages.ts';
import { asAdmin } from '../support/signed-in.ts';
import { startBareProvider, type UpstreamAccount } from '../support/upstreams.ts';

test.slow(true, 'a sign-in through an upstream provider started for the test, and back');

const shoot = screenshots('federation');
const db = () => database(databaseUrl);
const unique = () => randomBytes(5).toString('hex');
const upstreamSecret = randomBytes(24).toString('base64url');
const callbackPattern = /^http:\/\/127\.0\.0\.1:9\/callback\?/;

let bare: Awaited<ReturnType<typeof startBareProvider>>;
test.beforeAll(async () => {
  bare = await startBareProvider(new URL('/federation/callback', baseUrl).toString(), upstreamSecret);
});
test.afterAll(async () => bare?.close());

type Client = Awaited<ReturnType<typeof makeClient>>;
type Flow = Awaited<ReturnType<typeof authorizationRequest>>;

function connection(clientIds: string[], input: Partial<NewConnectionInput> = {}) {
  return createConnection(db(), {
    slug: `up-${unique()}`,
    displayName: `Corp ${unique()}`,
    issuer: bare.issuer,
    clientId: 'gatehouse',
    clientSecret: upstreamSecret,
    clientIds,
    ...input,
  });
}

/** An account at the bare provider (its login name is its subject). */
function upstreamAccount(account: UpstreamAccount = {}) {
  const login = `ext-${unique()}`;
  bare.accounts.set(login, { email: `${login}@upstream.example`, email_verified: true, name: 'Ext Person', preferred_username: login, ...account });
  return login;
}

/**
 * At the bare provider: its development login (any name) when it asks, and its consent page when it asks,
 * until the browser is sent back (an upstream session of this browser may skip either).
 */
async function atUpstream(page: Page, login: string) {
  await expect(page).toHaveURL(new RegExp(`^${bare.issuer}/`));
  const deadline = Date.now() + 20_000;
  while (page.url().startsWith(bare.issuer) && Date.now() < deadline) {
    const loginBox = page.locator('input[name=login]');
    const consent = page.getByRole('button', { name: 'Continue' });
    if (await loginBox.isVisible()) {
      await loginBox.fill(login);
      await page.locator('input[name=password]').fill('any');
      await page.locator('button[type=submit]').click();
    } else if (await consent.isVisible()) {
      await consent.click();
    }
    await page.waitForTimeout(200);
  }
  await expect(page).not.toHaveURL(new RegExp(`^${bare.issuer}/`));
}

async function claimsOf(flow: Flow, callback: string) {
  const tokens = await oidc.authorizationCodeGrant(flow.config, new URL(callback), { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  return tokens.claims()!;
}

/**
 * /account → Security, through the portal's sign-in: silent while Gatehouse's session lasts, else with the
 * password (`user`) or the connection's button (`viaConnection`, offered to the portal's client too).
 */
async function accountSecurity(page: Page, way: { user?: { username: string; password: string }; viaConnection?: { name: string; login: string } }) {
  await page.goto('/account/security');
  await page.waitForURL(/\/account\/security|\/interaction\//);
  if (/\/interaction\//.test(page.url())) {
    if (way.user) await gatehouseLogin(page, way.user);
    else if (way.viaConnection) {
      await page.getByRole('button', { name: `Continue with ${way.viaConnection.name}` }).click();
      await atUpstream(page, way.viaConnection.login);
    }
  }
  await expect(page).toHaveURL(/\/account\/security/);
}

test('the button, the upstream and back signed in; identifier-first by email domain; the last way in cannot be unlinked', async ({ page }) => {
  const client: Client = await makeClient({ firstParty: true });
  const domain = `corp-${unique()}.example`;
  const { displayName } = await connection([client.id, PORTAL_CLIENT_ID], { jitCreate: true, emailDomains: [domain] });
  const login = upstreamAccount();

  // The sign-in page offers it; the button goes upstream and the app gets a person created just in time (amr fed).
  const flow = await authorizationRequest(client);
  await page.goto(flow.url.href);
  const button = page.getByRole('button', { name: `Continue with ${displayName}` });
  await expect(button).toBeVisible();
  await expect(page.getByRole('button', { name: 'Continue with your organization’s sign-in' })).toBeVisible();
  await shoot(page, 'sign-in');
  await button.click();
  const callback = page.waitForRequest(callbackPattern);
  await atUpstream(page, login);
  const claims = await claimsOf(flow, await callbackReached(page, callback));
  expect(claims.amr).toContain('fed');
  expect(claims.acr).toBe('urn:gatehouse:acr:federated');

  // An address at the connection's domain typed as the username goes straight upstream, with it as login_hint.
  const routed = await authorizationRequest(client, { prompt: 'login' });
  await page.goto(routed.url.href);
  await page.getByLabel('Username').fill(`someone@${domain}`);
  const upstreamRequest = page.waitForRequest((request) => request.url().startsWith(`${bare.issuer}/`));
  await page.getByRole('button', { name: 'Continue with your organization’s sign-in' }).click();
  expect(new URL((await upstreamRequest).url()).searchParams.get('login_hint')).toBe(`someone@${domain}`);

  // /account lists the identity; it is the person's only way in, so it stays.
  await accountSecurity(page, { viaConnection: { name: displayName, login } });
  const identities = page.getByRole('list', { name: 'Other ways to sign in' });
  await expect(identities).toContainText(displayName);
  await page.getByRole('button', { name: `Unlink ${displayName}` }).click();
  await expect(page.getByText('That is the last way you can sign in')).toBeVisible();
  await expect(identities).toContainText(displayName);
});

test('an existing account is linked after its password, then unlinked in /account', async ({ page }) => {
  const client = await makeClient({ firstParty: true });
  const user = await makeUser();
  await setVerifiedEmail(db(), user.id, user.email!);
  const { displayName } = await connection([client.id, PORTAL_CLIENT_ID]);
  const login = upstreamAccount({ email: user.email!, email_verified: true });

  const flow = await authorizationRequest(client);
  await page.goto(flow.url.href);
  await page.getByRole('button', { name: `Continue with ${displayName}` }).click();
  await atUpstream(page, login);
  // Back at Gatehouse: the address names this account, so it asks for the account's own sign-in first.
  await expect(page.getByText(`Sign in to your account here to link it to your ${displayName} account`)).toBeVisible();
  await shoot(page, 'linking');
  const callback = page.waitForRequest(callbackPattern);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  expect((await claimsOf(flow, await callbackReached(page, callback))).sub).toBe(user.id);

  // From then on the upstream alone signs them in.
  const again = await authorizationRequest(client, { prompt: 'login' });
  await page.goto(again.url.href);
  const next = page.waitForRequest(callbackPattern);
  await page.getByRole('button', { name: `Continue with ${displayName}` }).click();
  await atUpstream(page, login);
  expect((await claimsOf(again, await callbackReached(page, next))).sub).toBe(user.id);

  await accountSecurity(page, { user });
  await page.getByRole('button', { name: `Unlink ${displayName}` }).click();
  await expect(page.getByText('Unlinked: that account no longer signs you in here.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Other ways to sign in' })).toHaveCount(0);
});

test('/account links another identity after a recent sign-in, asking for one when it is older; never by the address', async ({ page }) => {
  const user = await makeUser();
  const { displayName } = await connection([]);
  // The upstream's address is another one than the account's: the link is to whoever is signed in, not by email.
  const login = upstreamAccount({ email: `elsewhere-${unique()}@upstream.example`, email_verified: false });

  await accountSecurity(page, { user });
  // The Gatehouse sign-in behind this /account session is an hour old: linking asks for a new one first.
  const sessions = await db().prisma.oidcModelInstance.findMany({ where: { model: 'Session', accountId: user.id } });
  for (const row of sessions) {
    const payload = JSON.parse(row.payload) as { loginTs: number };
    await db().prisma.oidcModelInstance.update({
      where: { model_id: { model: row.model, id: row.id } },
      data: { payload: JSON.stringify({ ...payload, loginTs: payload.loginTs - 3600 }) },
    });
  }
  await page.reload();
  await expect(page.getByText('You will be asked to sign in here again first')).toBeVisible();
  await page.getByRole('button', { name: `Link ${displayName}` }).click();
  await gatehouseLogin(page, user);
  await expect(page).toHaveURL(/\/account\/security\?identity=reauthenticated/);

  // Recent now: on to the upstream and back, linked to this person.
  await expect(page.getByText('Link another account, so it signs you in here too:')).toBeVisible();
  await page.getByRole('button', { name: `Link ${displayName}` }).click();
  await atUpstream(page, login);
  await expect(page.getByText('Linked: that account signs you in here from now on.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Other ways to sign in' })).toContainText(displayName);
  await shoot(page, 'account-linked');
  const identity = await db().prisma.federatedIdentity.findUnique({ where: { issuer_subject: { issuer: bare.issuer, subject: login } } });
  expect(identity?.userId).toBe(user.id);
});

asAdmin(
  'admin: a connection from a preset, edited (the secret never shown), disabled (its button gone), deleted; a person’s identity unlinked',
  async ({ page, browser }) => {
    const client = await makeClient({ firstParty: true });
    const slug = `google-${unique()}`;
    await page.goto('/admin/connections');
    await page.getByRole('link', { name: 'Add a connection' }).click();
    await page.getByRole('link', { name: /^Google/ }).click();
    // The preset filled in the issuer; the admin adds what Google gave them and the app.
    await expect(page.getByLabel('Issuer', { exact: true })).toHaveValue('https://accounts.google.com');
    await expect(page.getByLabel('Display name', { exact: true })).toHaveValue('Google');
    await page.getByLabel('Slug', { exact: true }).fill(slug);
    await page.getByLabel('Client ID', { exact: true }).fill('1234.apps.googleusercontent.com');
    await page.getByLabel('Client secret', { exact: true }).fill('s3cret-from-google');
    await page.getByLabel('Apps that offer it', { exact: true }).fill(client.id);
    await page.getByRole('button', { name: 'Add connection' }).click();
    await expect(page.getByText('The connection is added.')).toBeVisible();
    await expect(page.getByText('Stored (sealed; never shown)')).toBeVisible();
    expect(await page.content()).not.toContain('s3cret-from-google');

    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByLabel('Client secret', { exact: true })).toHaveValue('');
    await page.getByLabel('Display name', { exact: true }).fill('Google Workspace');
    await page.getByLabel('Email domains', { exact: true }).fill('not a domain');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('This is not in the expected form.').or(page.getByText('This is not valid.')).first()).toBeVisible();
    await page.getByLabel('Email domains', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page.getByText('Changes saved.')).toBeVisible();

    // Someone signed out, at the app's sign-in page (the admin's own session would pass straight through it).
    const signedOut = await browser.newContext();
    const signInPage = await signedOut.newPage();
    await signInPage.goto((await authorizationRequest(client)).url.href);
    await expect(signInPage.getByRole('button', { name: 'Continue with Google Workspace' })).toBeVisible();

    await page.getByRole('button', { name: 'Disable connection' }).click();
    await expect(page.getByText('Tick the box to confirm: nobody can sign in')).toBeVisible();
    await page.getByLabel(/^Disable Google Workspace/).check();
    await page.getByRole('button', { name: 'Disable connection' }).click();
    await expect(page.getByText('The connection is disabled')).toBeVisible();
    await signInPage.goto((await authorizationRequest(client)).url.href);
    await expect(signInPage.getByRole('heading', { name: 'Sign in' })).toBeVisible();
    await expect(signInPage.getByRole('button', { name: /^Continue with/ })).toHaveCount(0);
    await signedOut.close();

    await page.getByLabel(/^Delete Google Workspace/).check();
    await page.getByRole('button', { name: 'Delete connection' }).click();
    await expect(page.getByText('The connection is deleted')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Google Workspace' })).toHaveCount(0);

    // A person's identities on their page, with Unlink (they keep their password).
    const person = await makeUser();
    const corp = await connection([]);
    await insertIdentity(db(), { userId: person.id, connectionId: corp.id, issuer: bare.issuer, subject: unique(), email: person.email, at: new Date() });
    await page.goto(`/admin/users/${person.id}`);
    await page.getByText(`Unlink… ${corp.displayName}`).click();
    await page.getByLabel(`Unlink their ${corp.displayName} account`).check();
    await page.getByRole('button', { name: `Unlink ${corp.displayName}` }).click();
    await expect(page.getByText('Unlinked: that account no longer signs them in here.')).toBeVisible();
    await expect(page.getByText('Other ways to sign in')).toHaveCount(0);
  },
);

asAdmin.describe('in German', () => {
  asAdmin.use({ locale: 'de-DE' });

  asAdmin('the connection pages and a person’s identities: German, light and dark, no serious or critical axe violation', async ({ page }) => {
    // Eight pages, each scanned in both schemes.
    asAdmin.setTimeout(180_000);
    const { slug } = await connection([], { displayName: 'Firmen-Login', emailDomains: ['firma.example'], jitCreate: true });
    const person = await makeUser();
    const corp = await connection([]);
    await insertIdentity(db(), { userId: person.id, connectionId: corp.id, issuer: bare.issuer, subject: unique(), email: person.email, at: new Date() });
    const findings: Finding[] = [];
    for (const [path, name] of [
      ['/admin/connections', 'list'],
      ['/admin/connections/new', 'presets'],
      ['/admin/connections/new?preset=microsoft', 'tenant'],
      ['/admin/connections/new?preset=github', 'github'],
      [`/admin/connections/${slug}`, 'connection'],
      [`/admin/connections/${slug}/edit`, 'edit'],
      [`/admin/users/${person.id}`, 'user'],
      ['/admin/connections/sign-in-pages', 'sign-in-pages'],
    ] as const) {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', 'de');
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        findings.push(...(await wcagFindings(page, `de-${name}`, colorScheme)));
      }
      await page.emulateMedia({ colorScheme: 'light' });
    }
    await page.goto('/admin/connections');
    await expect(page.getByRole('heading', { name: 'Verbindungen', level: 1 })).toBeVisible();
    await page.goto('/admin/connections/new?preset=github');
    await expect(page.getByLabel('Autorisierungs-Endpunkt')).toHaveValue('https://github.com/login/oauth/authorize');
    await shoot(page, 'de-github');
    expect(findings, describeFindings(findings)).toHaveLength(0);
  });
});
