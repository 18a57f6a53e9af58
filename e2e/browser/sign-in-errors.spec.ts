/**
 * Sign-in failures as a person meets them: a disabled account is told so once its password was
 * right (a wrong password gets the usual answer), and the error is tied to the fields it is about.
 */
import { expect, test } from '@playwright/test';
import { database } from '../../lib/db/database.ts';
import { disableUser } from '../../lib/users/manage.ts';
import { authorizationRequest, databaseUrl, makeClient, makeUser } from '../support/fixtures.ts';
import { alert, screenshots } from '../support/pages.ts';

const shoot = screenshots('sign-in-errors');

test('a disabled account: its own message after the right password, the generic one after a wrong password', async ({ page }) => {
  const user = await makeUser();
  await disableUser(database(databaseUrl), user.id);
  const { url } = await authorizationRequest(await makeClient());
  await page.goto(url.href);

  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(alert(page, 'The username or password is not right.')).toBeVisible();
  await expect(alert(page, 'disabled')).toHaveCount(0);

  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(alert(page, 'This account is disabled. Contact your administrator if you need it again.')).toBeVisible();
  await expect(alert(page, 'username or password')).toHaveCount(0);
  await shoot(page, 'disabled');
});

for (const javaScriptEnabled of [true, false]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled });

    test('a refused sign-in is tied to both fields (aria-invalid, aria-describedby), and focus is on the password', async ({ page }) => {
      const user = await makeUser();
      const { url } = await authorizationRequest(await makeClient());
      await page.goto(url.href);
      const username = page.getByLabel('Username');
      const password = page.getByLabel('Password');
      await expect(username).not.toHaveAttribute('aria-invalid', /.*/);
      await expect(password).not.toHaveAttribute('aria-invalid', /.*/);

      await username.fill(user.username);
      await password.fill('not-the-password');
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(alert(page, 'The username or password is not right.')).toBeVisible();
      for (const field of [username, password]) {
        await expect(field).toHaveAttribute('aria-invalid', 'true');
        await expect(field).toHaveAttribute('aria-describedby', 'sign-in-error');
        await expect(field).toHaveAccessibleDescription('The username or password is not right.');
      }
      await expect(username).toHaveValue(user.username);
      await expect(password).toBeFocused();
      await shoot(page, `refused${javaScriptEnabled ? '' : '-no-js'}`);
    });

    test('with login_hint the username is filled in and focus starts on the password', async ({ page }) => {
      const { url } = await authorizationRequest(await makeClient(), { login_hint: 'grace' });
      await page.goto(url.href);
      await expect(page.getByLabel('Username')).toHaveValue('grace');
      await expect(page.getByLabel('Password')).toBeFocused();
    });

    test('without login_hint focus starts on the username', async ({ page }) => {
      const { url } = await authorizationRequest(await makeClient());
      await page.goto(url.href);
      await expect(page.getByLabel('Username')).toBeFocused();
    });
  });
}
