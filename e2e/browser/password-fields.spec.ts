/**
 * The password fields people choose a password in (sign-up, /account), and the sign-in page's: Show/Hide
 * once JavaScript runs (a plain password field without it), strength guidance as the person types
 * (zxcvbn-ts, in the page's language), the operator's policy checked by the server too (a common password
 * is refused, with or without JavaScript), every problem of a form at once, and what was typed kept after a
 * refusal except the passwords. In English and German, light and dark; axe finds no serious or critical
 * violation in any of these states. Screenshots land in e2e/screenshots/password-fields-*.png.
 */
import { randomBytes } from 'node:crypto';
import { expect as baseExpect, type Page, test } from '@playwright/test';
import { describeFindings, wcagFindings } from '../support/axe.ts';
import { authorizationRequest, makeClient, makeUser } from '../support/fixtures.ts';
import { gatehouseLogin, screenshots } from '../support/pages.ts';

// Several sign-ins and form posts per test, on a machine the other suites share: more time than the defaults.
test.describe.configure({ timeout: 120_000 });
const expect = baseExpect.configure({ timeout: 30_000 });

const shoot = screenshots('password-fields');

/** axe's serious and critical findings on the page as it is now: none. */
async function accessible(page: Page, name: string) {
  const findings = await wcagFindings(page, name, 'password-fields');
  expect(findings, describeFindings(findings)).toEqual([]);
}

/** An authorization request's sign-up form (the test servers offer sign-up). */
async function openSignUp(page: Page, words: { signIn: string; create: string; heading: string }) {
  const { url } = await authorizationRequest(await makeClient({ name: 'Acme Shop' }));
  await page.goto(url.href);
  await expect(page.getByRole('heading', { name: words.signIn })).toBeVisible();
  await page.getByRole('link', { name: words.create }).click();
  await expect(page.getByRole('heading', { name: words.heading })).toBeVisible();
}

const english = { signIn: 'Sign in', create: 'Create an account', heading: 'Create an account' };
const german = { signIn: 'Anmelden', create: 'Konto erstellen', heading: 'Konto erstellen' };

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(`${colorScheme} scheme`, () => {
    test.use({ colorScheme });

    test('sign-up: Show/Hide, guidance as typed, every problem at once, values kept but the passwords', async ({ page }) => {
      await openSignUp(page, english);
      const password = page.getByLabel('Password', { exact: true });
      await expect(password).toHaveAttribute('type', 'password');
      const show = page.getByRole('button', { name: 'Show password' }).first();
      await show.click();
      await expect(password).toHaveAttribute('type', 'text');
      await expect(page.getByRole('button', { name: 'Hide password' })).toBeVisible();

      await password.fill('short');
      await expect(page.getByText('3 more characters to reach the minimum of 8.')).toBeVisible();
      await password.fill('Password1');
      await expect(page.getByText('One of the most common passwords: it will be refused.')).toBeVisible();
      await expect(page.getByText('Strength: very weak')).toBeVisible();
      await accessible(page, 'sign-up-guidance-common');
      await password.fill('velvet harbour pumpkin lantern');
      await expect(page.getByText('Strength: strong')).toBeVisible();
      await shoot(page, `sign-up-strong-${colorScheme}`);
      await page.getByRole('button', { name: 'Hide password' }).click();
      await expect(password).toHaveAttribute('type', 'password');

      // Several problems: all of them in one answer; what was typed comes back, the passwords do not.
      const username = `pf-${randomBytes(4).toString('hex')}`;
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Email address').fill('not an address');
      await page.getByLabel('Name (optional)').fill('Nora New');
      await password.fill('iloveyou1');
      await page.getByLabel('Password again').fill('something else');
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(page.getByText('Email is not a valid address.')).toBeVisible();
      await expect(page.getByText(/This password is one of the most commonly used/)).toBeVisible();
      await expect(page.getByText('The two passwords do not match.')).toBeVisible();
      await expect(page.getByLabel('Username')).toHaveValue(username);
      await expect(page.getByLabel('Email address')).toHaveValue('not an address');
      await expect(page.getByLabel('Name (optional)')).toHaveValue('Nora New');
      await expect(password).toHaveValue('');
      await expect(page.getByLabel('Password again')).toHaveValue('');
      await shoot(page, `sign-up-refused-${colorScheme}`);
      await accessible(page, 'sign-up-refused');

      // A taken username is said with the other problems, and clears nothing but the passwords.
      const taken = await makeUser();
      await page.getByLabel('Username').fill(taken.username);
      await password.fill('velvet harbour pumpkin lantern');
      await page.getByLabel('Password again').fill('velvet harbour pumpkin lantern');
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(page.getByText('This username is taken: choose another.')).toBeVisible();
      await expect(page.getByText('Email is not a valid address.')).toBeVisible();
      await expect(page.getByLabel('Username')).toHaveValue(taken.username);
      await expect(page.getByLabel('Email address')).toHaveValue('not an address');
      await expect(page.getByLabel('Name (optional)')).toHaveValue('Nora New');
      await expect(password).toHaveValue('');
    });

    test('in German: Anzeigen/Verbergen and the guidance in German', async ({ browser }) => {
      const context = await browser.newContext({ locale: 'de-DE', colorScheme });
      const page = await context.newPage();
      await openSignUp(page, german);
      const password = page.getByLabel('Passwort', { exact: true });
      await page.getByRole('button', { name: 'Passwort anzeigen' }).first().click();
      await expect(password).toHaveAttribute('type', 'text');
      await password.fill('passwort1');
      await expect(page.getByText('Eines der häufigsten Passwörter: Es wird abgelehnt.')).toBeVisible();
      await password.fill('samtener hafen kürbis laterne');
      await expect(page.getByText(/Stärke: (gut|stark)/)).toBeVisible();
      await shoot(page, `sign-up-de-${colorScheme}`);
      await accessible(page, 'sign-up-de');
      await context.close();
    });
  });
}

test('the sign-in page’s password field has Show; /account’s change refuses a common password with every field’s problem at once', async ({ page }) => {
  const user = await makeUser();
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  const password = page.getByLabel('Password', { exact: true });
  await password.fill(user.password);
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(password).toHaveAttribute('type', 'text');
  await expect(password).toHaveValue(user.password);
  await accessible(page, 'sign-in-shown');
  await page.getByRole('button', { name: 'Hide password' }).click();
  await gatehouseLogin(page, user);
  await expect(page).toHaveURL(/\/account$/);

  await page.goto('/account/password');
  await page.getByLabel('Current password').fill('not my password');
  await page.getByLabel('New password', { exact: true }).fill('qwertyuiop');
  await expect(page.getByText('One of the most common passwords: it will be refused.')).toBeVisible();
  await page.getByLabel('New password, again').fill('qwertyuiop');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByText('This is not your current password.')).toBeVisible();
  await expect(page.getByText(/This password is one of the most commonly used/)).toBeVisible();
  await expect(page.getByLabel('New password', { exact: true })).toHaveValue('');
  await accessible(page, 'account-password-refused');
  await shoot(page, 'account-refused');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('a plain password field, no button; the server still refuses a common password and keeps the other fields', async ({ page }) => {
    await openSignUp(page, english);
    const password = page.getByLabel('Password', { exact: true });
    await expect(password).toHaveAttribute('type', 'password');
    await expect(page.getByRole('button', { name: /Show password/ })).toHaveCount(0);
    const username = `pf-${randomBytes(4).toString('hex')}`;
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Email address').fill(`${username}@example.test`);
    await password.fill('password123');
    await page.getByLabel('Password again').fill('password123');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByText(/This password is one of the most commonly used/)).toBeVisible();
    await expect(page.getByLabel('Username')).toHaveValue(username);
    await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
    await shoot(page, 'sign-up-no-script');
  });
});
