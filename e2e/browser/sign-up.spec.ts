/**
 * Self-service sign-up in Chromium (scripts/test.ts turns SIGN_UP on for the
 * fixtures' domain), with the mails read from the test run's SMTP server: from
 * a relying party's authorization request, Create an account, follow the link
 * out of the mail, continue, and the app gets its code, and its tokens say the
 * address is verified; with and without JavaScript. Then what goes wrong: a used,
 * tampered or expired link, a link for another account, signing in before
 * confirming, and a mail server that is down. Screenshots of every page and of
 * the mail land in e2e/screenshots/sign-up-*.png.
 */
import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import * as oidc from 'openid-client';
import { database } from '../../lib/db/database.ts';
import { authorizationRequest, databaseUrl, makeClient } from '../support/fixtures.ts';
import { linkIn, mailApi, nextMail, refuseMail } from '../support/mail.ts';
import { alert, callbackReached, screenshots, status } from '../support/pages.ts';

const shoot = screenshots('sign-up');
const callbackPattern = /^http:\/\/127\.0\.0\.1:9\/callback\?/;

test.skip(!mailApi, 'needs the test run’s SMTP server (scripts/test.ts sets GATEHOUSE_TEST_MAIL_URL)');

type Client = Awaited<ReturnType<typeof makeClient>>;

const newPerson = () => {
  const username = `new-${randomBytes(5).toString('hex')}`;
  return { username, email: `${username}@example.test`, name: 'Nora New', password: `pw-${randomBytes(9).toString('base64url')}` };
};
type Person = ReturnType<typeof newPerson>;

/** Opens the app's authorization request and goes to Create an account. */
async function startSignUp(page: Page, client: Client) {
  const flow = await authorizationRequest(client);
  await page.goto(flow.url.href);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  await expect(page).toHaveURL(/\/interaction\/[^/]+\/sign-up$/);
  return flow;
}

async function fillSignUp(page: Page, person: Person) {
  await page.getByLabel('Username').fill(person.username);
  await page.getByLabel('Email address').fill(person.email);
  await page.getByLabel('Name (optional)').fill(person.name);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('Password again').fill(person.password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

/** The verification link of the newest mail to `person`, after `after` mails. */
async function verificationLink(page: Page, person: Person, after = 0) {
  const mail = await nextMail(person.email, after);
  expect(mail.subject).toBe('Confirm your email address to finish signing up for Gatehouse');
  return { mail, link: linkIn(mail, `${new URL(page.url()).origin}/verify-email/`) };
}

/** Opens the link in another tab of the same browser, as a mail reader would, and confirms. */
async function confirmInAnotherTab(page: Page, link: string, email: string, shot?: string) {
  const tab = await page.context().newPage();
  await tab.goto(link);
  await expect(tab.getByRole('heading', { name: 'Confirm your email address' })).toBeVisible();
  if (shot) await shoot(tab, shot);
  await tab.getByRole('button', { name: `Confirm ${email}` }).click();
  await expect(tab.getByText('is confirmed')).toBeVisible();
  if (shot) await shoot(tab, `${shot}-done`);
  await tab.close();
}

/**
 * Continue, Allow, and the code the app receives, redeemed: the ID token names the new account, its address verified.
 * With JavaScript the waiting page moves on by itself once the link is used (components/interaction/verification-watch.tsx);
 * without, it is loaded again, as a person would.
 */
async function continueToApp(page: Page, client: Client, flow: Awaited<ReturnType<typeof startSignUp>>, person: Person, scripted = true) {
  if (!scripted) await page.reload();
  await expect(page.getByRole('heading', { name: 'Email address confirmed' })).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: `Continue to ${client.name}` }).click();
  await expect(page.getByRole('heading', { name: `Allow ${client.name}?` })).toBeVisible();
  const callback = page.waitForRequest(callbackPattern);
  await page.getByRole('button', { name: 'Allow' }).click();
  const url = new URL(await callbackReached(page, callback));
  expect(url.searchParams.get('code')).toBeTruthy();
  const tokens = await oidc.authorizationCodeGrant(flow.config, url, { pkceCodeVerifier: flow.verifier, expectedState: flow.state });
  const claims = tokens.claims();
  const account = await database(databaseUrl).prisma.user.findUnique({ where: { username: person.username }, select: { id: true } });
  expect(claims?.sub).toBe(account?.id);
  expect(claims?.amr).toEqual(['pwd']);
  // Code flow: the email scope's claims come from UserInfo (oidc-provider's conformIdTokenClaims, OIDC Core §5.4).
  const userinfo = await oidc.fetchUserInfo(flow.config, tokens.access_token, account!.id);
  expect(userinfo.email).toBe(person.email);
  expect(userinfo.email_verified).toBe(true);
}

test('from an app’s sign-in page: create an account, confirm from the mail, continue, and the app gets its code', async ({ page }) => {
  test.slow();
  const client = await makeClient({ name: 'Signup Notes' });
  const person = newPerson();
  const flow = await startSignUp(page, client);
  await shoot(page, 'form');

  await page.getByLabel('Username').fill(person.username);
  await page.getByLabel('Email address').fill(`${person.username}@elsewhere.test`);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('Password again').fill('not the same');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByText('Sign-up is open to addresses at example.test only')).toBeVisible();
  await expect(page.getByText('The two passwords do not match')).toBeVisible();
  await expect(page.getByLabel('Username')).toHaveValue(person.username);
  await expect(page.getByLabel('Password', { exact: true })).toHaveValue('');
  await shoot(page, 'form-errors');

  await fillSignUp(page, person);
  await expect(page.getByRole('heading', { name: 'Check your mail' })).toBeVisible();
  await expect(page.getByText(person.email)).toBeVisible();
  await shoot(page, 'check-mail');

  // Not confirmed yet: continuing says so, and nothing is issued.
  await page.getByRole('button', { name: 'I’ve confirmed — continue' }).click();
  await expect(alert(page, 'Your email address is not confirmed yet.')).toBeVisible();
  await shoot(page, 'not-confirmed');

  const { mail, link } = await verificationLink(page, person);
  expect(mail.text).toContain(person.username);
  const here = page.url();
  await page.goto('about:blank'); // no page CSP: the mail as a mail reader shows it
  await page.setContent(mail.html);
  await shoot(page, 'mail');
  await page.goto(here);

  await confirmInAnotherTab(page, link, person.email, 'verify');
  await shoot(page, 'confirmed');
  await continueToApp(page, client, flow, person);

  // The link works once: opened again, it says so, and that the address is confirmed.
  await page.goto(link);
  await expect(page.getByText('This link was used:')).toBeVisible();
  await expect(page.getByRole('button', { name: `Confirm ${person.email}` })).toHaveCount(0);
  await shoot(page, 'used-link');
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the same sign-up with plain form posts', async ({ page }) => {
    const client = await makeClient();
    const person = newPerson();
    const flow = await startSignUp(page, client);
    await fillSignUp(page, person);
    await expect(page.getByRole('heading', { name: 'Check your mail' })).toBeVisible();
    const { link } = await verificationLink(page, person);
    await confirmInAnotherTab(page, link, person.email);
    await continueToApp(page, client, flow, person, false);
  });
});

test('signing in before confirming: the right password says so and sends the link again; a wrong one says nothing about it', async ({ page, browser }) => {
  test.slow(); // two browsers, two sign-ups and their mails
  const client = await makeClient();
  const person = newPerson();
  await startSignUp(page, client);
  await fillSignUp(page, person);
  await expect(page.getByRole('heading', { name: 'Check your mail' })).toBeVisible();
  const first = await verificationLink(page, person);

  const other = await browser.newContext();
  try {
    const them = await other.newPage();
    const flow = await authorizationRequest(client);
    await them.goto(flow.url.href);
    await them.getByLabel('Username').fill(person.username);
    await them.getByLabel('Password', { exact: true }).fill('not the password');
    await them.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(alert(them, 'The username or password is not right.')).toBeVisible();
    await expect(them.getByText(person.email)).toHaveCount(0);

    await them.getByLabel('Password', { exact: true }).fill(person.password);
    await them.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(them.getByRole('heading', { name: 'Confirm your email address first' })).toBeVisible();
    await expect(them.getByText(person.email)).toBeVisible();
    await shoot(them, 'unverified-sign-in');
    await them.getByRole('button', { name: 'Send the link again' }).click();
    await expect(status(them, 'A new link is on its way')).toBeVisible();
    await shoot(them, 'resent');
    const second = await verificationLink(them, person, 1);

    // The first link was replaced; the new one confirms, and this browser continues too.
    await them.goto(first.link);
    await expect(them.getByText('It is not a link we sent, or a newer one replaced it.')).toBeVisible();
    await shoot(them, 'replaced-link');
    await them.goBack();
    await confirmInAnotherTab(them, second.link, person.email);
    await continueToApp(them, client, flow, person);
  } finally {
    await other.close();
  }
});

test('a tampered, an expired and another account’s link: each explained, and nobody continues as another account', async ({ page, browser }) => {
  test.slow(); // two browsers, two sign-ups and their mails
  const client = await makeClient();
  const ann = newPerson();
  await startSignUp(page, client);
  await fillSignUp(page, ann);
  await expect(page.getByRole('heading', { name: 'Check your mail' })).toBeVisible();
  const { link } = await verificationLink(page, ann);

  const tampered = `${link.slice(0, -1)}${link.endsWith('A') ? 'B' : 'A'}`;
  const tab = await page.context().newPage();
  await tab.goto(tampered);
  await expect(tab.getByText('It is not a link we sent, or a newer one replaced it.')).toBeVisible();
  await shoot(tab, 'tampered-link');

  // Another person signs up in another browser and confirms their own link: Ann's page still waits.
  const other = await browser.newContext();
  try {
    const ben = newPerson();
    const theirs = await other.newPage();
    await startSignUp(theirs, client);
    await fillSignUp(theirs, ben);
    await expect(theirs.getByRole('heading', { name: 'Check your mail' })).toBeVisible();
    const bens = await verificationLink(theirs, ben);
    await tab.goto(bens.link);
    await tab.getByRole('button', { name: `Confirm ${ben.email}` }).click();
    await expect(tab.getByText('is confirmed')).toBeVisible();
    await page.getByRole('button', { name: 'I’ve confirmed — continue' }).click();
    await expect(alert(page, 'Your email address is not confirmed yet.')).toBeVisible();
    // Ben's page moves on by itself.
    await expect(theirs.getByRole('heading', { name: 'Email address confirmed' })).toBeVisible({ timeout: 20_000 });
  } finally {
    await other.close();
  }

  // Ann's link, expired (a link works 24 hours: moved into the past here).
  const account = await database(databaseUrl).prisma.user.findUnique({ where: { username: ann.username }, select: { id: true } });
  await database(databaseUrl).prisma.mailLink.updateMany({ where: { userId: account!.id, usedAt: null }, data: { expiresAt: new Date(Date.now() - 1000) } });
  await tab.goto(link);
  await expect(tab.getByText('It expired')).toBeVisible();
  await shoot(tab, 'expired-link');
  await tab.close();
});

test('a mail server that is down: a clear message, no account kept, and the same sign-up works afterwards', async ({ page }) => {
  const client = await makeClient();
  const person = newPerson();
  await startSignUp(page, client);
  await refuseMail(person.email, 60_000);
  try {
    await fillSignUp(page, person);
    await expect(page.getByText('The email could not be sent just now, so no account was created.')).toBeVisible();
    await expect(page.getByLabel('Username')).toHaveValue(person.username);
    await shoot(page, 'mail-down');
  } finally {
    await refuseMail(person.email, 0);
  }
  expect(await database(databaseUrl).prisma.user.count({ where: { username: person.username } })).toBe(0);
  await fillSignUp(page, person);
  await expect(page.getByRole('heading', { name: 'Check your mail' })).toBeVisible();
  await verificationLink(page, person);
});
