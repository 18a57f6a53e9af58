/**
 * The account chooser (issue 23, item 7; the test servers run with ACCOUNT_CHOOSER=on): a browser
 * remembers the accounts signed in on it, the sign-in page lists them (name, email, initial) above
 * the form; picking one fills its username and still asks for its password; Remove takes one off
 * the list; signing out leaves the list. Scanned by axe in English in the light scheme and in German in
 * the dark one.
 */
import { expect, type Page, test } from '@playwright/test';
import * as oidc from 'openid-client';
import { controlFindings, describeFindings, wcagFindings } from '../support/axe.ts';
import { ACCOUNTS_COOKIE } from '../../lib/sign-in/remembered-accounts.ts';
import { browserLocale, catalog } from '../support/catalog.ts';
import { authorizationRequest, makeClient, makeUser } from '../support/fixtures.ts';
import { portalSignOut, screenshots } from '../support/pages.ts';

const shoot = screenshots('account-chooser');
const callbackPattern = /^http:\/\/127\.0\.0\.1:9\/callback\?/;

type User = Awaited<ReturnType<typeof makeUser>>;

/** The login form, by its fields (the spec runs in English and German). */
async function typePassword(page: Page, user: User, username = true) {
  const form = page.locator('form[action$="/login"]');
  if (username) await form.locator('input[name=username]').fill(user.username);
  await form.locator('input[name=password]').fill(user.password);
  await form.locator('button[type=submit]').click();
}

/** Signs `user` in to /account with the empty form, then signs out (one click): the browser remembers them. */
async function signInAndOut(page: Page, user: User) {
  await page.goto('/account');
  await typePassword(page, user);
  await expect(page).toHaveURL(/\/account$/);
  await portalSignOut(page, '/account/signed-out');
}

/** English in the light scheme, German in the dark one: every word from the catalogs, every colour of both schemes. */
const variants = [
  { language: 'en', colorScheme: 'light' },
  { language: 'de', colorScheme: 'dark' },
] as const;

for (const { language, colorScheme } of variants) {
  test(`two accounts remembered (${language}, ${colorScheme}): pick one, its password is asked and the app gets it; remove the other`, async ({ browser }) => {
    test.slow(); // four sign-ins and two sign-outs
    const text = catalog(language);
    const chooser = (page: Page) => page.getByRole('region', { name: text('interaction.chooser.title') });
    const a = await makeUser({ name: `Ada ${Date.now()}` });
    const b = await makeUser({ name: `Bob ${Date.now()}` });
    // Both signed in and out of /account in this browser (in English: the portal is not what this tests), then seen in the test's language.
    const setup = await browser.newContext();
    const setupPage = await setup.newPage();
    await signInAndOut(setupPage, a);
    await signInAndOut(setupPage, b);
    const context = await browser.newContext({ colorScheme, locale: browserLocale(language) });
    await context.addCookies(await setup.cookies());
    await setup.close();
    const page = await context.newPage();

    const client = await makeClient();
    const flow = await authorizationRequest(client, { scope: 'openid' });
    await page.goto(flow.url.href);
    const list = chooser(page);
    await expect(list.getByRole('link')).toHaveText([new RegExp(`${b.name}.*${b.email}`), new RegExp(`${a.name}.*${a.email}`)]);
    await expect(page.locator('form[action$="/login"] input[name=username]'), 'the form is there for another account').toHaveValue('');
    const variant = `${language}-${colorScheme}`;
    const findings = [...(await wcagFindings(page, 'chooser', variant)), ...(await controlFindings(page, 'chooser', variant))];
    expect(findings.length, describeFindings(findings)).toBe(0);
    await shoot(page, `list-${variant}`);

    // Picking Ada: her username is filled in, and her password is asked.
    await list.getByRole('link', { name: new RegExp(a.name!) }).click();
    await expect(page.locator('form[action$="/login"] input[name=username]')).toHaveValue(a.username);
    await expect(chooser(page)).toHaveCount(0);
    await expect(page.getByRole('link', { name: text('interaction.chooser.chooseAnother') })).toBeVisible();
    await shoot(page, `picked-${variant}`);
    const callback = page.waitForRequest(callbackPattern);
    const failed = page.waitForEvent('requestfailed', (r) => callbackPattern.test(r.url()));
    await typePassword(page, a, false);
    await page.getByRole('button', { name: text('interaction.consent.allow') }).click();
    // Nothing listens at the app: Chromium's error page follows, and would cut short the next navigation.
    await failed;
    await page.waitForURL(/^chrome-error:/);
    const tokens = await oidc.authorizationCodeGrant(flow.config, new URL((await callback).url()), {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
    });
    expect(tokens.claims()?.sub).toBe(a.id);

    // Remove Bob, from a browser whose session ended and which kept its list (a signed-in browser is not asked to sign in).
    const keptList = (await context.cookies()).filter((cookie) => cookie.name === ACCOUNTS_COOKIE);
    await context.clearCookies();
    await context.addCookies(keptList);
    await page.goto((await authorizationRequest(client, { scope: 'openid' })).url.href);
    await chooser(page)
      .getByRole('button', { name: `${text('interaction.chooser.remove')}${text('interaction.chooser.removeWhich', { account: b.name! })}` })
      .click();
    await expect(chooser(page).getByRole('link')).toHaveText([new RegExp(a.name!)]);
    await context.close();
  });
}
