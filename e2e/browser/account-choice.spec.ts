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
