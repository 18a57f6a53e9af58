/**
 * The account chooser (issue 23, item 7; the test servers run with ACCOUNT_CHOOSER=on): a browser
 * remembers the accounts signed in on it, the sign-in page lists them (name, email, initial) above
 * the form; picking one fills its username and still asks for its password; Remove takes one off
 * the list; signing out leaves the list. Scanned by axe in both schemes.
 */
import { type Browser, expect, type Page, test } from '@playwright/test';
import * as oidc from 'openid-client';
import { controlFindings, describeFindings, wcagFindings } from '../support/axe.ts';
import { authorizationRequest, makeClient, makeUser } from '../support/fixtures.ts';
import { portalSignOut, screenshots } from '../support/pages.ts';

const shoot = screenshots('account-chooser');
const callbackPattern = /^http:\/\/127\.0\.0\.1:9\/callback\?/;

type User = Awaited<ReturnType<typeof makeUser>>;

async function typePassword(page: Page, user: User, username = true) {
  if (username) await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** Signs `user` in to /account with the empty form, then signs out (one click): the browser remembers them. */
async function signInAndOut(page: Page, user: User) {
  await page.goto('/account');
  await typePassword(page, user);
  await expect(page).toHaveURL(/\/account$/);
  await portalSignOut(page, '/account/signed-out');
}

const chooser = (page: Page) => page.getByRole('region', { name: 'Signed in on this device before' });

async function newPage(browser: Browser, colorScheme: 'light' | 'dark') {
  return (await browser.newContext({ colorScheme })).newPage();
}

for (const colorScheme of ['light', 'dark'] as const) {
  test(`two accounts remembered (${colorScheme}): pick one, its password is asked and the app gets it; remove the other`, async ({ browser }) => {
    test.slow(); // four sign-ins and three sign-outs
    const a = await makeUser({ name: `Ada ${Date.now()}` });
    const b = await makeUser({ name: `Bob ${Date.now()}` });
    const page = await newPage(browser, colorScheme);
    await signInAndOut(page, a);
    await signInAndOut(page, b);

    const client = await makeClient();
    const flow = await authorizationRequest(client, { scope: 'openid' });
    await page.goto(flow.url.href);
    const list = chooser(page);
    await expect(list.getByRole('link')).toHaveText([new RegExp(`${b.name}.*${b.email}`), new RegExp(`${a.name}.*${a.email}`)]);
    await expect(page.getByLabel('Username'), 'the form is there for another account').toHaveValue('');
    const findings = [...(await wcagFindings(page, 'chooser', colorScheme)), ...(await controlFindings(page, 'chooser', colorScheme))];
    expect(findings.length, describeFindings(findings)).toBe(0);
    await shoot(page, `list-${colorScheme}`);

    // Picking Ada: her username is filled in, and her password is asked.
    await list.getByRole('link', { name: new RegExp(a.name!) }).click();
    await expect(page.getByLabel('Username')).toHaveValue(a.username);
    await expect(chooser(page)).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Choose another account' })).toBeVisible();
    await shoot(page, `picked-${colorScheme}`);
    const callback = page.waitForRequest(callbackPattern);
    const failed = page.waitForEvent('requestfailed', (r) => callbackPattern.test(r.url()));
    await typePassword(page, a, false);
    await page.getByRole('button', { name: 'Allow' }).click();
    // Nothing listens at the app: Chromium's error page follows, and would cut short the next navigation.
    await failed;
    await page.waitForURL(/^chrome-error:/);
    const tokens = await oidc.authorizationCodeGrant(flow.config, new URL((await callback).url()), {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
    });
    expect(tokens.claims()?.sub).toBe(a.id);

    // Remove Bob (signed out of /account first: a signed-in browser is not asked to sign in).
    await page.goto('/account');
    await portalSignOut(page, '/account/signed-out');
    await page.goto((await authorizationRequest(client, { scope: 'openid' })).url.href);
    await chooser(page)
      .getByRole('button', { name: `Remove ${b.name} from this list` })
      .click();
    await expect(chooser(page).getByRole('link')).toHaveText([new RegExp(a.name!)]);
  });
}
