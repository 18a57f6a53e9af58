/**
 * "Forgot your password?" in Chromium, with the mails read from the test
 * run's SMTP server (e2e/support/mail-sink.ts): a person asks from the
 * sign-in page, follows the link out of the mail, chooses a new password and
 * signs in with it; the old one no longer works and the link works once. An
 * unknown address gets the same answer and no mail, and so does a mail server
 * that is down (asking again works); a tampered link is explained. Screenshots of the pages and
 * of the mail land in e2e/screenshots/password-reset-*.png.
 */
import { expect, type Page, test } from '@playwright/test';
import { makeUser } from '../support/fixtures.ts';
import { linkIn, mailApi, mailCount, nextMail, refuseMail } from '../support/mail.ts';
import { alert, gatehouseLogin, portalSignOut, screenshots } from '../support/pages.ts';

const shoot = screenshots('password-reset');

test.skip(!mailApi, 'needs the test run’s SMTP server (scripts/test.ts sets GATEHOUSE_TEST_MAIL_URL)');

async function toLoginPage(page: Page) {
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
}

async function askForLink(page: Page, identifier: string) {
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await page.getByLabel('Username or email address').fill(identifier);
  await page.getByRole('button', { name: 'Send me a link' }).click();
}

test('a person resets a forgotten password from a mailed link, once, and signs in with the new one', async ({ page }) => {
  test.slow();
  const user = await makeUser();
  const email = user.email!;
  const before = await mailCount(email);
  await toLoginPage(page);
  await shoot(page, 'sign-in-link');
  await askForLink(page, user.username);
  await expect(page.getByText('If an account has that username or email address')).toBeVisible();
  await shoot(page, 'requested');

  const mail = await nextMail(email, before);
  expect(mail.subject).toBe('Reset your Gatehouse password');
  expect(mail.text).toContain(user.username);
  const link = linkIn(mail, `${new URL(page.url()).origin}/password-reset/`);
  await page.goto('about:blank'); // no page CSP: the mail as a mail reader shows it
  await page.setContent(mail.html);
  await shoot(page, 'mail');

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('New password', { exact: true }).fill('a long new password');
  await page.getByLabel('New password again').fill('not the same');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByText('The two passwords do not match')).toBeVisible();
  await shoot(page, 'mismatch');
  await page.getByLabel('New password', { exact: true }).fill('a long new password');
  await page.getByLabel('New password again').fill('a long new password');
  await page.getByRole('button', { name: 'Set the new password' }).click();
  await expect(page.getByText('Your password is changed, and you are signed out everywhere.')).toBeVisible();
  await shoot(page, 'done');

  // The link works once.
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'This link has been used' })).toBeVisible();
  await expect(page.getByText('The password was changed with it')).toBeVisible();

  // The old password no longer works; the new one does.
  await toLoginPage(page);
  await gatehouseLogin(page, user);
  await expect(alert(page, 'The username or password is not right.')).toBeVisible();
  await gatehouseLogin(page, { username: user.username, password: 'a long new password' });
  await expect(page).toHaveURL(/\/account$/);
  await portalSignOut(page, '/account/signed-out');
});

test('an unknown address gets the same answer and no mail; a tampered link is explained', async ({ page }) => {
  const unknown = `nobody-${Date.now()}@example.test`;
  await toLoginPage(page);
  await askForLink(page, unknown);
  await expect(page.getByText('If an account has that username or email address')).toBeVisible();
  await page.waitForTimeout(500);
  expect(await mailCount(unknown)).toBe(0);

  await page.goto('/password-reset/not-a-token-we-sent');
  await expect(page.getByRole('heading', { name: 'This link no longer works' })).toBeVisible();
  await expect(page.getByText('It is not a link we sent')).toBeVisible();
  await shoot(page, 'unknown-link');
});

test('a mail server that is down: the same answer as ever (it must not tell the account exists), and asking again later works', async ({ page }) => {
  const user = await makeUser();
  const before = await mailCount(user.email!);
  await refuseMail(user.email!, 60_000);
  try {
    await toLoginPage(page);
    await askForLink(page, user.email!);
    await expect(page.getByText('If an account has that username or email address')).toBeVisible();
    await shoot(page, 'mail-down');
    await page.waitForTimeout(1000);
    expect(await mailCount(user.email!)).toBe(before);
  } finally {
    await refuseMail(user.email!, 0);
  }
  await toLoginPage(page);
  await askForLink(page, user.email!);
  await expect(page.getByText('If an account has that username or email address')).toBeVisible();
  const mail = await nextMail(user.email!, before);
  expect(mail.subject).toBe('Reset your Gatehouse password');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the link sets the new password, and the page drawn again after the post says the link did it', async ({ page }) => {
    const user = await makeUser();
    const before = await mailCount(user.email!);
    await toLoginPage(page);
    await askForLink(page, user.email!);
    await expect(page.getByText('If an account has that username or email address')).toBeVisible();
    const link = linkIn(await nextMail(user.email!, before), `${new URL(page.url()).origin}/password-reset/`);
    await page.goto(link);
    await page.getByLabel('New password', { exact: true }).fill('another long new password');
    await page.getByLabel('New password again').fill('another long new password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    // The plain post spends the link, and the page is drawn again from the server: it must not read as a failure.
    await expect(page.getByRole('heading', { name: /This link has been used|Choose a new password/ })).toBeVisible();
    await expect(page.getByText(/The password was changed with it|Your password is changed/)).toBeVisible();
    await toLoginPage(page);
    await gatehouseLogin(page, { username: user.username, password: 'another long new password' });
    await expect(page).toHaveURL(/\/account$/);
  });
});
