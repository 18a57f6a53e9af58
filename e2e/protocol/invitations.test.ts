// runs-on: databases
// Invitations and verification links over the admin API, with the mails read back from the test run's SMTP server:
// "invite": true creates a user without a password and mails the link; POST .../invitation replaces it; a mail
// server that is down leaves the user invited and a resend works; a user created with a password gets the verification link, and so does a new address set by PATCH.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';
import { baseUrl, makeUser } from '../support/fixtures.ts';
import { linkIn, mailApi, mailCount, nextMail, refuseMail } from '../support/mail.ts';

const skip = mailApi ? false : 'needs the test run’s SMTP server (scripts/test.ts sets GATEHOUSE_TEST_MAIL_URL)';
const unique = () => `inv-${randomBytes(5).toString('hex')}`;
const DAY = 86_400_000;

/** The page the link opens, as text: what it says (opening it changes nothing). */
async function linkPage(link: string) {
  const response = await fetch(link);
  assert.equal(response.status, 200);
  return response.text();
}

test('"invite": true creates a user without a password and mails a 7-day link; the resend replaces it', { skip }, async () => {
  const token = await adminToken(await makeAdminApiClient());
  const username = unique();
  const email = `${username}@example.test`;
  const started = Date.now();
  const created = await api('POST', '/api/admin/users', { token, json: { username, email, name: 'Ivy', invite: true } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.invited, true);
  assert.equal(created.body.mail_sent, true);
  assert.equal(created.body.password, undefined, 'no password, generated or otherwise');
  assert.equal(created.body.email_verified, false);
  const expires = Date.parse(created.body.invitation_expires_at);
  assert.ok(Math.abs(expires - (started + 7 * DAY)) < 60_000, `expires in 7 days: ${created.body.invitation_expires_at}`);

  const mail = await nextMail(email);
  assert.equal(mail.subject, 'You are invited to Gatehouse');
  const first = linkIn(mail, `${baseUrl}/invitation/`);
  assert.ok(!JSON.stringify(created.body).includes(first.split('/').pop()!), 'never the link in the answer');
  assert.match(await linkPage(first), /Choose your password/);
  assert.match(await linkPage(first), /Choose your password/, 'opening the link spends nothing');

  const fetched = await api('GET', `/api/admin/users/${created.body.id}`, { token });
  assert.equal(fetched.body.invited, true);
  assert.equal(fetched.body.invitation_expires_at, created.body.invitation_expires_at);
  const listed = await api('GET', `/api/admin/users?q=${username}`, { token });
  assert.deepEqual(
    listed.body.data.map((u: { username: string; invited: boolean }) => [u.username, u.invited]),
    [[username, true]],
  );

  const resent = await api('POST', `/api/admin/users/${created.body.id}/invitation`, { token });
  assert.equal(resent.status, 200, JSON.stringify(resent.body));
  assert.equal(resent.body.mail_sent, true);
  assert.equal(resent.body.invited, true);
  const second = linkIn(await nextMail(email, 1), `${baseUrl}/invitation/`);
  assert.notEqual(second, first);
  assert.match(await linkPage(first), /newer invitation replaced it/);
  assert.match(await linkPage(second), /Choose your password/);
  assert.match(await linkPage(`${baseUrl}/invitation/${'A'.repeat(43)}`), /It is not a link we sent/);

  const log = await api('GET', `/api/admin/audit-events?target=${created.body.id}`, { token });
  const entries = log.body.data.map((e: { action: string; details: unknown }) => JSON.stringify([e.action, e.details]));
  assert.deepEqual(
    entries.sort(),
    [
      ['user.created', { role: 'user', email, invited: true }],
      ['user.invited', { email }],
      ['user.invited', { email, resent: true }],
    ]
      .map((e) => JSON.stringify(e))
      .sort(),
  );
});

test('an invitation needs an email and no password; a user with a password has none to resend', { skip }, async () => {
  const token = await adminToken(await makeAdminApiClient());
  const noEmail = await api('POST', '/api/admin/users', { token, json: { username: unique(), invite: true } });
  assert.equal(noEmail.status, 400);
  assert.match(noEmail.body.error_description, /An invitation needs an email address/);
  const both = await api('POST', '/api/admin/users', {
    token,
    json: { username: unique(), email: `${unique()}@example.test`, invite: true, password: 'a fine password' },
  });
  assert.equal(both.status, 400);
  assert.match(both.body.error_description, /leave out password, or invite/);

  const person = await makeUser();
  const conflict = await api('POST', `/api/admin/users/${person.id}/invitation`, { token });
  assert.equal(conflict.status, 409);
  assert.match(conflict.body.error_description, /has chosen a password already/);
  assert.equal((await api('POST', '/api/admin/users/no-such-user/invitation', { token })).status, 404);
});

test('the mail server down: the user is created invited, mail_sent false, nothing pending; a resend works', { skip }, async () => {
  const token = await adminToken(await makeAdminApiClient());
  const username = unique();
  const email = `${username}@example.test`;
  await refuseMail(email, 120_000);
  const created = await api('POST', '/api/admin/users', { token, json: { username, email, invite: true } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.mail_sent, false);
  assert.equal(created.body.invited, true);
  assert.equal(created.body.invitation_expires_at, null, 'no link without its mail');
  assert.equal(await mailCount(email), 0);

  const failed = await api('POST', `/api/admin/users/${created.body.id}/invitation`, { token });
  assert.equal(failed.status, 200);
  assert.equal(failed.body.mail_sent, false, 'still refused');
  await refuseMail(email, 0); // the mail server is back
  const resent = await api('POST', `/api/admin/users/${created.body.id}/invitation`, { token });
  assert.equal(resent.body.mail_sent, true);
  assert.ok(resent.body.invitation_expires_at);
  assert.match(await linkPage(linkIn(await nextMail(email), `${baseUrl}/invitation/`)), /Choose your password/);
});

test('a user created over the API with a password and an email gets the verification link', { skip }, async () => {
  const token = await adminToken(await makeAdminApiClient());
  const username = unique();
  const email = `${username}@example.test`;
  const created = await api('POST', '/api/admin/users', { token, json: { username, email } });
  assert.equal(created.status, 201);
  assert.equal(created.body.invited, false);
  assert.equal(created.body.mail_sent, true);
  assert.ok(created.body.password, 'generated');
  const mail = await nextMail(email);
  assert.equal(mail.subject, 'Confirm your email address for Gatehouse');
  assert.match(await linkPage(linkIn(mail, `${baseUrl}/verify-email/`)), /Confirm your email address/);
  const none = await api('POST', '/api/admin/users', { token, json: { username: unique() } });
  assert.equal(none.body.mail_sent, undefined, 'no address, no mail');
});

test('a PATCH that gives a user a new email mails that address its verification link; the same address mails nothing', { skip }, async () => {
  const token = await adminToken(await makeAdminApiClient());
  const username = unique();
  const created = await api('POST', '/api/admin/users', { token, json: { username } });
  assert.equal(created.status, 201);
  const email = `${username}@example.test`;
  const moved = await api('PATCH', `/api/admin/users/${created.body.id}`, { token, json: { email } });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  assert.equal(moved.body.mail_sent, true);
  assert.equal(moved.body.email_verified, false);
  const mail = await nextMail(email);
  assert.match(await linkPage(linkIn(mail, `${baseUrl}/verify-email/`)), /Confirm your email address/);
  const renamed = await api('PATCH', `/api/admin/users/${created.body.id}`, { token, json: { name: 'Renamed' } });
  assert.equal(renamed.status, 200);
  assert.equal(renamed.body.mail_sent, undefined, 'the address did not change: no mail');
  assert.equal(await mailCount(email), 1);
});
