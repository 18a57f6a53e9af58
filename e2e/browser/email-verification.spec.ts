/**
 * Email verification an admin starts, in Chromium with the test run's SMTP
 * server: a user whose address nobody verified (made by the fixtures with the
 * bare use case, which mails nothing) gets the link again from the admin's Resend, follows it
 * out of the mail, and the admin then sees the address as verified. A tampered
 * link is explained. (A person changing their own address is in account.spec.ts.)
 */
import { expect, test } from '@playwright/test';
import { makeUser } from '../support/fixtures.ts';
import { linkIn, mailApi, nextMail } from '../support/mail.ts';
import { screenshots, status } from '../support/pages.ts';
import { asAdmin } from '../support/signed-in.ts';

const shoot = screenshots('email-verification');

test.skip(!mailApi, 'needs the test run’s SMTP server (scripts/test.ts sets GATEHOUSE_TEST_MAIL_URL)');

asAdmin('an admin sends the verification link again; the person confirms; the admin sees it verified', async ({ page, browser }) => {
  test.slow();
  const person = await makeUser({ name: 'Vera Fication' });
  await page.goto('/admin/users');
  await page.getByRole('searchbox', { name: 'Search users by username, email or name' }).fill(person.username);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: person.username, exact: true }).click();
  await expect(page.getByText('Not verified')).toBeVisible();
  await page.getByRole('button', { name: 'Send the verification link again' }).click();
  await expect(status(page, 'A new verification link is on its way')).toBeVisible();
  await shoot(page, 'resent');

  const mail = await nextMail(person.email!);
  expect(mail.text).toContain(person.username);
  const theirs = await browser.newContext();
  try {
    const their = await theirs.newPage();
    await their.goto(linkIn(mail, `${new URL(page.url()).origin}/verify-email/`));
    await their.getByRole('button', { name: `Confirm ${person.email}` }).click();
    await expect(their.getByText('is confirmed')).toBeVisible();
    await their.goto('/verify-email/not-a-token-we-sent');
    await expect(their.getByRole('heading', { name: 'This link no longer works' })).toBeVisible();
  } finally {
    await theirs.close();
  }
  await page.reload();
  await expect(page.getByText('Verified', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send the verification link again' })).toHaveCount(0);
});
