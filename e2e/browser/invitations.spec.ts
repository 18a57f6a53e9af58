/**
 * Invitations and the verification link of a portal-created user, in Chromium
 * with the test run's SMTP server (e2e/support/mail-sink.ts): an admin invites
 * a person from the portal, the person follows the link out of the mail,
 * chooses a password, sees the address confirmed and signs in; the link then
 * works no more, and an expired link is explained. An admin who creates a user
 * with a password and an address: that address gets a verification link, which
 * the person follows. Screenshots: e2e/screenshots/invitations-*.png.
 */
import { expect, type Page, test } from '@playwright/test';
import { database } from '../../lib/db/database.ts';
import { createLogger } from '../../lib/ops/log.ts';
import { INVITATION_LINK_DAYS, inviteUser } from '../../lib/users/invitations.ts';
import { capturingMailer } from '../../lib/testing.ts';
import { databaseUrl } from '../support/fixtures.ts';
import { linkIn, mailApi, nextMail } from '../support/mail.ts';
import { gatehouseLogin, portalSignOut, screenshots, status } from '../support/pages.ts';
import { asAdmin } from '../support/signed-in.ts';

const shoot = screenshots('invitations');

test.skip(!mailApi, 'needs the test run’s SMTP server (scripts/test.ts sets GATEHOUSE_TEST_MAIL_URL)');
test.slow(true, 'a mail sent, read and followed to a page of its own, with a sign-in');

/** The worker's signed-in admin (e2e/support/signed-in.ts) on the form that creates users. */
async function newUserForm(page: Page) {
  await page.goto('/admin/users/new');
  await expect(page.getByRole('heading', { name: 'Create a user' })).toBeVisible();
}

const origin = (page: Page) => new URL(page.url()).origin;

asAdmin('an admin invites a person; the person chooses their password from the mail, once, and signs in', async ({ page, browser }) => {
  test.slow();
  await newUserForm(page);
  const username = `ivy-${Date.now().toString(36)}`;
  const email = `${username}@example.test`;
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Name (optional)').fill('Ivy Invited');
  await page.getByLabel('Send an invitation').check();
  await page.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByText('An invitation needs an email address', { exact: false }).first()).toBeVisible();
  await page.getByLabel('Email (optional)').fill(email);
  await shoot(page, 'new-user');
  await page.getByRole('button', { name: 'Create user' }).click();
  await expect(status(page, `An invitation is on its way to ${email}`)).toBeVisible();
  await expect(page.getByText('They cannot sign in until they choose their password.')).toBeVisible();
  await shoot(page, 'created');

  await page.getByRole('link', { name: 'Show the user' }).click();
  await expect(page.getByText('Invited', { exact: true })).toBeVisible();
  await expect(page.getByText(/Invitation sent, not accepted yet \(expires .+\)/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Send the verification link again' }), 'the invitation verifies the address').toHaveCount(0);
  await shoot(page, 'user-invited');
  // Send again: the first mail's link is replaced by the second's.
  const first = linkIn(await nextMail(email), `${origin(page)}/invitation/`);
  await page.getByRole('button', { name: 'Send the invitation again' }).click();
  await expect(status(page, 'A new invitation is on its way')).toBeVisible();
  const mail = await nextMail(email, 1);
  expect(mail.subject).toBe('You are invited to Gatehouse');
  expect(mail.text).toContain(username);
  const link = linkIn(mail, `${origin(page)}/invitation/`);
  expect(link).not.toBe(first);
  const html = await page.content();
  expect(html, 'the admin never sees the link').not.toContain(link.split('/').pop()!);

  const theirs = await browser.newContext();
  try {
    const their = await theirs.newPage();
    await their.goto('about:blank'); // no page CSP: the mail as a mail reader shows it
    await their.setContent(mail.html);
    await shoot(their, 'mail');
    await their.goto(first);
    await expect(their.getByText('It is not a link we sent, or a newer invitation replaced it.')).toBeVisible();

    await their.goto(link);
    await expect(their.getByRole('heading', { name: 'Choose your password' })).toBeVisible();
    await expect(their.getByText(`this also confirms ${email} as your email address`)).toBeVisible();
    await shoot(their, 'choose-password');
    await their.getByLabel('New password', { exact: true }).fill('ivy’s own password');
    await their.getByLabel('New password again').fill('not the same');
    await their.getByRole('button', { name: 'Set my password' }).click();
    await expect(their.getByText('The two passwords do not match')).toBeVisible();
    await their.getByLabel('New password', { exact: true }).fill('ivy’s own password');
    await their.getByLabel('New password again').fill('ivy’s own password');
    await their.getByRole('button', { name: 'Set my password' }).click();
    await expect(their.getByText(`Your password is set and ${email} is confirmed: you can sign in now.`)).toBeVisible();
    await shoot(their, 'done');

    await their.goto(link);
    await expect(their.getByRole('heading', { name: 'This link no longer works' })).toBeVisible();
    await expect(their.getByText('It was used already')).toBeVisible();
    await shoot(their, 'used');

    await their.getByRole('link', { name: 'Open your account' }).click();
    await gatehouseLogin(their, { username, password: 'ivy’s own password' });
    await expect(their).toHaveURL(/\/account$/);
    await portalSignOut(their, '/account/signed-out');
  } finally {
    await theirs.close();
  }

  await page.reload();
  await expect(page.getByText('Verified', { exact: true })).toBeVisible();
  await expect(page.getByText('Invited', { exact: true })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Send the invitation again' })).toHaveCount(0);
});

test('an expired invitation link is explained', async ({ page }) => {
  await page.goto('/invitation/not-a-token-we-sent');
  await expect(page.getByRole('heading', { name: 'This link no longer works' })).toBeVisible();
  await expect(page.getByText('It is not a link we sent')).toBeVisible();
  // Sent 8 days ago, through the use case with a mailer of the test's own: the link is in the captured mail.
  const { sent, mailer } = capturingMailer();
  const eightDaysAgo = () => Date.now() - (INVITATION_LINK_DAYS + 1) * 86_400_000;
  const username = `late-${Date.now().toString(36)}`;
  await inviteUser(
    {
      db: database(databaseUrl),
      mailer,
      log: createLogger({ level: 'silent' }),
      now: eightDaysAgo,
      config: { ISSUER: origin(page), BRAND_NAME: 'Gatehouse', BRAND_ACCENT_COLOR: '#4f46e5' },
    },
    { username, email: `${username}@example.test` },
  );
  await page.goto(linkIn({ ...sent[0], from: '' }, `${origin(page)}/invitation/`));
  await expect(page.getByText(`It expired: an invitation works for ${INVITATION_LINK_DAYS} days.`)).toBeVisible();
  await expect(page.getByText('Ask your administrator to send the invitation again.')).toBeVisible();
  await shoot(page, 'expired');
});

asAdmin('a user an admin creates with a password and an address gets the verification link and confirms it', async ({ page, browser }) => {
  test.slow();
  await newUserForm(page);
  const username = `vera-${Date.now().toString(36)}`;
  const email = `${username}@example.test`;
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email (optional)').fill(email);
  await page.getByRole('button', { name: 'Create user' }).click();
  await expect(status(page, `A link to verify ${email} is on its way to it.`)).toBeVisible();
  await page.getByRole('link', { name: /show the user/i }).click();
  await expect(page.getByText('Not verified')).toBeVisible();

  const mail = await nextMail(email);
  expect(mail.subject).toBe('Confirm your email address for Gatehouse');
  const theirs = await browser.newContext();
  try {
    const their = await theirs.newPage();
    await their.goto(linkIn(mail, `${origin(page)}/verify-email/`));
    await their.getByRole('button', { name: `Confirm ${email}` }).click();
    await expect(their.getByText('is confirmed')).toBeVisible();
    await shoot(their, 'verified');
  } finally {
    await theirs.close();
  }
  await page.reload();
  await expect(page.getByText('Verified', { exact: true })).toBeVisible();
});
