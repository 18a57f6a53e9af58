/**
 * Sign-in in a real browser: the login and consent pages a person sees, with
 * and without JavaScript, by mouse and by keyboard. Every test makes its own
 * user and client, builds the authorization request the way a relying party
 * would (openid-client, by discovery, with PKCE and state), and catches the
 * redirect back to the client at http://127.0.0.1:9/callback (where nothing
 * listens) from the browser's request for it.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import * as oidc from 'openid-client';
import { authorizationRequest, makeClient, makeUser } from '../support/fixtures.ts';

type User = Awaited<ReturnType<typeof makeUser>>;
type Client = Awaited<ReturnType<typeof makeClient>>;

const callbackPattern = /^http:\/\/127\.0\.0\.1:9\/callback\?/;

/** Builds an authorization request for `client` and opens it; the page lands on the login form. */
async function startSignIn(page: Page, client: Client) {
  const { config, verifier, state, url } = await authorizationRequest(client);
  await page.goto(url.href);
  await expect(page).toHaveURL(/\/interaction\/[^/?]+$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  return { config, verifier, state };
}

/** The sign-in error (Next.js's empty route announcer is a role=alert too, so match by text). */
const wrongPasswordAlert = (page: Page) => page.getByRole('alert').filter({ hasText: 'The username or password is not right.' });

/**
 * Does `act`, which submits one of the interaction forms (…/login, …/confirm,
 * …/abort), and checks the server took the post: a 303 onwards, not the 403 it
 * gives posts it believes come from another site.
 */
async function submits(page: Page, form: 'login' | 'confirm' | 'abort', act: () => Promise<unknown>) {
  const response = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith(`/${form}`));
  await act();
  const answer = await response;
  const body = answer.status() === 303 ? '' : await answer.text().catch(() => '');
  expect(answer.status(), `POST …/${form} answered ${answer.status()} ${body}`).toBe(303);
}

async function signIn(page: Page, user: { username: string; password: string }) {
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await submits(page, 'login', () => page.getByRole('button', { name: 'Sign in', exact: true }).click());
}

/**
 * Does `act` and returns the URL the browser is then sent to at the client.
 * Taken from the request, not from a loaded page: Playwright never routes the
 * hops of a redirect chain, so the 303 to the redirect_uri cannot be answered
 * with page.route(), and the browser's own attempt to load it fails (nothing
 * listens there; Chromium even refuses port 9 as unsafe). Only the URL matters.
 */
async function returnToClient(page: Page, act: () => Promise<unknown>): Promise<URL> {
  const request = page.waitForRequest(callbackPattern);
  await act();
  return new URL((await request).url());
}

/** The code in the callback is good: openid-client redeems it and the ID token names the user. */
async function redeem(flow: Awaited<ReturnType<typeof startSignIn>>, url: URL, user: User) {
  const tokens = await oidc.authorizationCodeGrant(flow.config, url, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  expect(tokens.access_token).toBeTruthy();
  expect(tokens.claims()?.sub).toBe(user.id);
  return tokens;
}

/** On the consent page: clicks Allow and returns the callback URL. */
async function allow(page: Page, client: Client): Promise<URL> {
  await expect(page.getByRole('heading', { name: `Allow ${client.name}?` })).toBeVisible();
  return returnToClient(page, () => submits(page, 'confirm', () => page.getByRole('button', { name: 'Allow' }).click()));
}

/** Login, consent, back with a code that redeems: the same whether or not scripts run. */
async function fullSignIn(page: Page) {
  const user = await makeUser({ name: 'Grace Hopper' });
  const client = await makeClient();
  const flow = await startSignIn(page, client);
  await expect(page.getByText(client.name)).toBeVisible();
  await signIn(page, user);
  const url = await allow(page, client);
  expect(url.searchParams.get('code')).toBeTruthy();
  expect(url.searchParams.get('state')).toBe(flow.state);
  await redeem(flow, url, user);
}

test('signs in and consents, and the code redeems for tokens', async ({ page }) => {
  await fullSignIn(page);
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('signs in and consents with plain form posts', async ({ page }) => {
    await fullSignIn(page);
  });

  test('a wrong password shows the error without JavaScript too', async ({ page }) => {
    const user = await makeUser();
    const client = await makeClient();
    await startSignIn(page, client);
    await signIn(page, { username: user.username, password: 'not-the-password' });
    await expect(wrongPasswordAlert(page)).toBeVisible();
    await expect(page.getByLabel('Password')).toHaveValue('');
  });
});

test('a wrong password is refused and not echoed; the right one then works', async ({ page }) => {
  const user = await makeUser();
  const client = await makeClient();
  const flow = await startSignIn(page, client);
  const wrong = `wrong-${user.password}`;

  await signIn(page, { username: user.username, password: wrong });
  await expect(wrongPasswordAlert(page)).toBeVisible();
  await expect(page).toHaveURL(/\/interaction\/[^/]+\?error=invalid_credentials$/);
  await expect(page.getByLabel('Password')).toHaveValue('');
  expect(await page.content(), 'the rejected password appears nowhere in the page').not.toContain(wrong);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  await signIn(page, user);
  const url = await allow(page, client);
  await redeem(flow, url, user);
});

test('Deny sends the person back with access_denied', async ({ page }) => {
  const user = await makeUser();
  const client = await makeClient();
  const flow = await startSignIn(page, client);
  await signIn(page, user);
  await expect(page.getByRole('heading', { name: `Allow ${client.name}?` })).toBeVisible();
  const url = await returnToClient(page, () => submits(page, 'abort', () => page.getByRole('button', { name: 'Deny' }).click()));
  expect(url.searchParams.get('error')).toBe('access_denied');
  expect(url.searchParams.get('state')).toBe(flow.state);
  expect(url.searchParams.has('code')).toBe(false);
});

test('a first-party client skips the consent page', async ({ page }) => {
  const user = await makeUser();
  const client = await makeClient({ firstParty: true });
  const flow = await startSignIn(page, client);
  // Every page the browser loads from here on: the login POST, the resume, then the client's callback.
  const loaded: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame()) loaded.push(`${request.method()} ${new URL(request.url()).pathname}`);
  });
  const url = await returnToClient(page, () => signIn(page, user));
  expect(url.searchParams.get('code')).toBeTruthy();
  expect(
    loaded.filter((l) => /^GET \/interaction\//.test(l)),
    'no consent page between login and the callback',
  ).toEqual([]);
  expect(loaded.at(-1)).toBe('GET /callback');
  await redeem(flow, url, user);
});

test('keyboard only: Tab between fields, Enter submits', async ({ page }) => {
  const user = await makeUser();
  const client = await makeClient();
  const flow = await startSignIn(page, client);
  const username = page.getByLabel('Username');
  const password = page.getByLabel('Password');

  // The username field has autofocus; Tab goes through the form in reading order (the passkey button once the page is live).
  const passkey = page.getByRole('button', { name: 'Sign in with a passkey' });
  await expect(passkey).toBeEnabled();
  await expect(username).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(password).toBeFocused();
  // The password's Show button (once the page is live), then the checkbox.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Show password' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Keep me signed in')).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeFocused();
  // "Forgot your password?" when the server can send mail (the test run's SMTP server).
  const forgot = page.getByRole('link', { name: 'Forgot your password?' });
  const mail = (await forgot.count()) === 1;
  if (mail) {
    await page.keyboard.press('Tab');
    await expect(forgot).toBeFocused();
  }
  // "Create an account" when sign-up is on (scripts/test.ts turns it on).
  const create = page.getByRole('link', { name: 'Create an account' });
  const signUp = (await create.count()) === 1;
  if (signUp) {
    await page.keyboard.press('Tab');
    await expect(create).toBeFocused();
  }
  await page.keyboard.press('Tab');
  await expect(passkey).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Cancel' })).toBeFocused();
  for (let i = 0; i < 6 + Number(mail) + Number(signUp); i++) await page.keyboard.press('Shift+Tab');
  await expect(username).toBeFocused();

  await page.keyboard.type(user.username);
  await page.keyboard.press('Tab');
  await expect(password).toBeFocused();
  await page.keyboard.type(user.password);
  await submits(page, 'login', () => page.keyboard.press('Enter'));

  // Consent: Allow has autofocus, Deny is one Tab away; Enter on Allow consents.
  await expect(page.getByRole('heading', { name: `Allow ${client.name}?` })).toBeVisible();
  const allowButton = page.getByRole('button', { name: 'Allow' });
  await expect(allowButton).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Deny' })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(allowButton).toBeFocused();
  const url = await returnToClient(page, () => submits(page, 'confirm', () => page.keyboard.press('Enter')));
  await redeem(flow, url, user);
});

test('screenshots of the login and consent pages for a person to look at', async ({ page }) => {
  const dir = resolve(test.info().project.testDir, '..', 'screenshots');
  mkdirSync(dir, { recursive: true });
  const user = await makeUser({ name: 'Grace Hopper' });
  const client = await makeClient({ name: 'Screenshot Notes' });
  await startSignIn(page, client);
  await page.screenshot({ path: join(dir, 'login.png'), fullPage: true });

  await signIn(page, { username: user.username, password: 'not-the-password' });
  await expect(wrongPasswordAlert(page)).toBeVisible();
  await page.screenshot({ path: join(dir, 'login-error.png'), fullPage: true });

  await signIn(page, user);
  await expect(page.getByRole('heading', { name: 'Allow Screenshot Notes?' })).toBeVisible();
  await page.screenshot({ path: join(dir, 'consent.png'), fullPage: true });
});
