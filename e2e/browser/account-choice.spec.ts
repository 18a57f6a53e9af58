/**
 * Choosing the account in the browser: "Not you? Use another account" on the consent and sign-in
 * pages, with and without JavaScript. Requests are built as a relying party builds them, and the
 * redirect back to http://127.0.0.1:9/callback is caught from the browser's request for it.
 */
import { expect, type Page, test } from '@playwright/test';
import * as oidc from 'openid-client';
import { authorizationRequest, makeClient, makeUser } from '../support/fixtures.ts';
import { screenshots } from '../support/pages.ts';

type User = Awaited<ReturnType<typeof makeUser>>;
type Flow = Awaited<ReturnType<typeof authorizationRequest>>;

const shoot = screenshots('account-choice');
const callbackPattern = /^http:\/\/127\.0\.0\.1:9\/callback\?/;

async function signIn(page: Page, user: User) {
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** The subject of the ID token the code in the callback redeems for. */
async function subjectOf(flow: Flow, callback: string) {
  const tokens = await oidc.authorizationCodeGrant(flow.config, new URL(callback), { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  return tokens.claims()?.sub;
}

/**
 * Past the provider's logout hop, which ends the earlier account's session when another signs
 * in: it submits itself with JavaScript; without, it shows one Continue button.
 */
async function pastLogoutHop(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) await page.getByRole('button', { name: 'Continue' }).click();
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled });

    test('Not you? on the consent page: the empty sign-in form, and the app gets the other person', async ({ page }) => {
      const [a, b] = [await makeUser(), await makeUser()];
      const client = await makeClient();
      const flow = await authorizationRequest(client);
      await page.goto(flow.url.href);
      await signIn(page, a);
      await expect(page.getByRole('heading', { name: `Allow ${client.name}?` })).toBeVisible();
      await expect(page.getByText(`Signed in as ${a.username}. Not you?`)).toBeVisible();
      await shoot(page, `consent${javaScriptEnabled ? '' : '-no-js'}`);

      await page.getByRole('button', { name: 'Use another account' }).click();
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      await expect(page.getByLabel('Username')).toHaveValue('');
      await expect(page.getByRole('button', { name: 'Use another account' })).toHaveCount(0);
      await signIn(page, b);
      await pastLogoutHop(page, javaScriptEnabled);
      await expect(page.getByText(`Signed in as ${b.username}. Not you?`)).toBeVisible();
      const callback = page.waitForRequest(callbackPattern);
      await page.getByRole('button', { name: 'Allow' }).click();
      expect(await subjectOf(flow, (await callback).url())).toBe(b.id);
    });

    test('Use another account on a sign-in page filled in from login_hint', async ({ page }) => {
      const flow = await authorizationRequest(await makeClient(), { login_hint: 'grace-hopper' });
      await page.goto(flow.url.href);
      await expect(page.getByLabel('Username')).toHaveValue('grace-hopper');
      await page.getByRole('button', { name: 'Use another account' }).click();
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      await expect(page.getByLabel('Username')).toHaveValue('');
      await expect(page.getByLabel('Username')).toBeFocused();
    });
  });
}

/**
 * Does `act` and returns the URL the browser is then sent to at the app, once the browser has
 * given up loading it (nothing listens there), so that the next navigation is not cut short.
 */
async function atApp(page: Page, act: () => Promise<unknown>): Promise<string> {
  const request = page.waitForRequest(callbackPattern);
  const failed = page.waitForEvent('requestfailed', (r) => callbackPattern.test(r.url()));
  await act();
  const url = (await request).url();
  await failed;
  // Chromium then shows its error page: wait for it, or it cuts short whatever the test opens next.
  await page.waitForURL(/^chrome-error:/);
  return url;
}

/** Presses Tab until `target` has focus (at most `max` times): it is reachable by keyboard, in reading order. */
async function tabTo(page: Page, target: ReturnType<Page['getByRole']>, max = 10) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/** The sign-in form by keyboard alone: focus starts on the empty username, Tab to the password, Enter sends. */
async function keyboardSignIn(page: Page, user: User) {
  await expect(page.getByLabel('Username')).toBeFocused();
  await page.keyboard.type(user.username);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Password')).toBeFocused();
  await page.keyboard.type(user.password);
  await page.keyboard.press('Enter');
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`keyboard only, ${javaScriptEnabled ? 'with' : 'without'} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test('prompt=select_account with two accounts: A signs in; the chooser, another account, B; the next chooser shows B and continues', async ({ page }) => {
      const [a, b] = [await makeUser(), await makeUser()];
      const client = await makeClient();

      // A signs in and consents, by keyboard: Allow has focus, Enter allows.
      const first = await authorizationRequest(client);
      await page.goto(first.url.href);
      await keyboardSignIn(page, a);
      await expect(page.getByRole('button', { name: 'Allow' })).toBeFocused();
      expect(await subjectOf(first, await atApp(page, () => page.keyboard.press('Enter')))).toBe(a.id);

      // prompt=select_account: the chooser names A, with focus on Continue; Tab reaches "Use another account".
      const second = await authorizationRequest(client, { prompt: 'select_account' });
      await page.goto(second.url.href);
      await expect(page.getByRole('heading', { name: 'Choose an account' })).toBeVisible();
      await expect(page.getByRole('button', { name: `Continue as ${a.username}` })).toBeFocused();
      await shoot(page, `chooser${javaScriptEnabled ? '' : '-no-js'}`);
      await tabTo(page, page.getByRole('button', { name: 'Use another account' }), 2);
      await page.keyboard.press('Enter');
      await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
      await keyboardSignIn(page, b);
      // The provider's hop that ends A's session: it submits itself, or (without JavaScript) its Continue button has focus.
      if (!javaScriptEnabled) {
        await expect(page.getByRole('button', { name: 'Continue' })).toBeFocused();
        await page.keyboard.press('Enter');
      }
      // Consent for B: "Not you?" sits before Allow in the reading order; Enter on Allow.
      await expect(page.getByText(`Signed in as ${b.username}. Not you?`)).toBeVisible();
      const allow = page.getByRole('button', { name: 'Allow' });
      await expect(allow).toBeFocused();
      await page.keyboard.press('Shift+Tab');
      await expect(page.getByRole('button', { name: 'Use another account' })).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(allow).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: 'Deny' })).toBeFocused();
      await page.keyboard.press('Shift+Tab');
      expect(await subjectOf(second, await atApp(page, () => page.keyboard.press('Enter')))).toBe(b.id);

      // Again: the chooser now names B, and Continue goes on as B without a password.
      const third = await authorizationRequest(client, { prompt: 'select_account' });
      await page.goto(third.url.href);
      const continueAsB = page.getByRole('button', { name: `Continue as ${b.username}` });
      await expect(continueAsB).toBeFocused();
      expect(await subjectOf(third, await atApp(page, () => page.keyboard.press('Enter')))).toBe(b.id);
    });

    test('sign-in with login_hint by keyboard: focus on the password, and Tab reaches "Use another account"', async ({ page }) => {
      const flow = await authorizationRequest(await makeClient(), { login_hint: 'grace-hopper' });
      await page.goto(flow.url.href);
      await expect(page.getByLabel('Password')).toBeFocused();
      // With JavaScript the password's Show button comes next, reachable by keyboard as every control must be.
      if (javaScriptEnabled) {
        // The button is added once the page's script runs: a Tab pressed before that skips it (CI saw it once).
        await expect(page.getByRole('button', { name: 'Show password' })).toBeVisible();
        await page.keyboard.press('Tab');
        await expect(page.getByRole('button', { name: 'Show password' })).toBeFocused();
      }
      await page.keyboard.press('Tab');
      await expect(page.getByLabel('Keep me signed in')).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeFocused();
      await tabTo(page, page.getByRole('button', { name: 'Use another account' }), 3);
      await page.keyboard.press('Enter');
      await expect(page.getByLabel('Username')).toHaveValue('');
      await expect(page.getByLabel('Username')).toBeFocused();
    });
  });
}
