// Invitations on SQLite and PostgreSQL: a person created without a password gets a 7-day single-use link that lets
// them choose it and verifies their address; resent links replace the old; a failed send keeps the person and the
// earlier link; no mail at all refuses inviting; and the admin surfaces' creation with a password mails the
// verification link (onboarding.ts).
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import type { Database } from '../db/database.ts';
import { findCredentials, findUserById } from './repository.ts';
import { testDatabases } from '../db/testing.ts';
import type { Mail, Mailer } from '../mail/mailer.ts';
import { tag } from '../account/testing.ts';
import { auditEventsFor, type AuditBy } from '../audit/log.ts';
import { authenticate } from '../sign-in/authentication.ts';
import { InvalidRequest } from '../platform/errors.ts';
import { acceptInvitation, INVITATION_LINK_DAYS, invitationOf, inviteUser, NO_MAIL, resendInvitation, viewInvitation } from './invitations.ts';
import { addUser, changeProfile } from './onboarding.ts';
import { verifyPassword } from '../platform/passwords.ts';
import { capturingMailer, TEST_ISSUER, testContext } from '../testing.ts';
import { changePassword, updateProfile } from './manage.ts';

const formOf = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
};
const chosen = (password: string) => formOf({ password, confirmPassword: password });

const context = { ip: '198.51.100.42', userAgent: 'Mozilla/5.0 (test browser)' };
const admin: AuditBy = { actor: { id: 'admin-id', username: 'ada' }, context: { ip: '203.0.113.1', userAgent: 'portal' } };
const T0 = Date.UTC(2026, 10, 24, 9, 0, 0);
let clock = T0;

function contextFor(db: Database, mailer: Mailer) {
  return { ...testContext(db), mailer, now: () => clock };
}

const linkIn = (mail: Mail, path: string) => {
  const link = mail.text.split(/\s+/).find((w) => w.startsWith(`${TEST_ISSUER}/${path}/`));
  assert.ok(link, `the mail carries a ${path} link`);
  return link.slice(`${TEST_ISSUER}/${path}/`.length);
};
const tokenIn = (mail: Mail) => linkIn(mail, 'invitation');

const newPerson = () => {
  const username = `inv-${tag()}`;
  return { username, email: `${username}@example.com`, name: 'Ivy Invited' };
};

for (const storage of testDatabases('invitations')) {
  describe(`invitations on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    beforeEach(() => {
      clock = T0;
    });

    test('invite: no password, one mail with a 7-day link; accepting sets the password, verifies the address, once', async () => {
      const db = await storage.open();
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      const input = newPerson();
      const { user, invitation } = await inviteUser(ctx, input, admin);
      assert.equal(user.invited, true);
      assert.equal(user.emailVerified, false);
      assert.deepEqual(invitation, { status: 'sent', expiresAt: new Date(T0 + INVITATION_LINK_DAYS * 86_400_000) });
      assert.deepEqual(await invitationOf(db, user), invitation.status === 'sent' ? invitation.expiresAt : undefined);
      assert.equal((await findCredentials(db, user.username))?.passwordHash, null);
      assert.equal((await authenticate(testContext(db), user.username, '', context.ip)).ok, false, 'no password signs in');

      assert.equal(sent.length, 1, 'the invitation, and no separate verification mail');
      const [mail] = sent;
      assert.equal(mail.to, input.email);
      assert.equal(mail.subject, 'You are invited to Gatehouse');
      assert.match(mail.text, new RegExp(`account ${user.username} for you`));
      assert.match(mail.text, /works once, for 7 days/);
      assert.match(mail.html, /<a href="https:\/\/id\.gatehouse\.test\/invitation\/[A-Za-z0-9_-]{43}"/);
      assert.doesNotMatch(mail.html, /<img|https?:\/\/(?!id\.gatehouse\.test)/, 'nothing loaded from anywhere');
      const token = tokenIn(mail);
      assert.equal(await db.prisma.mailLink.count({ where: { id: token } }), 0, 'only the hash is stored');

      const valid = { status: 'valid', username: user.username, email: input.email };
      assert.deepEqual(await viewInvitation(ctx, token), valid);
      assert.deepEqual(await viewInvitation(ctx, token), valid, 'looking spends nothing');
      assert.equal((await acceptInvitation(ctx, token, formOf({ password: 'a fine password', confirmPassword: 'another one' }), context)).status, 'invalid');
      assert.equal((await acceptInvitation(ctx, token, chosen('short'), context)).status, 'invalid');
      assert.deepEqual(await viewInvitation(ctx, token), valid, 'a refused form keeps the link');

      assert.deepEqual(await acceptInvitation(ctx, token, chosen('my own password'), context), { status: 'done', username: user.username });
      const after = await findUserById(db, user.id);
      assert.equal(after?.invited, false);
      assert.equal(after?.emailVerified, true, 'the link verified the address');
      assert.ok(await verifyPassword((await findCredentials(db, user.username))!.passwordHash!, 'my own password'));
      assert.equal((await authenticate(testContext(db), user.username, 'my own password', context.ip)).ok, true);
      assert.equal(await invitationOf(db, after!), undefined, 'no invitation for a person with a password');

      assert.deepEqual(await viewInvitation(ctx, token), { status: 'used' });
      assert.deepEqual(await acceptInvitation(ctx, token, chosen('yet another password'), context), { status: 'link', problem: 'used' });
      await assert.rejects(resendInvitation(ctx, user.id, admin), /has chosen a password already/);

      const events = await auditEventsFor(db, { involvingUserId: user.id });
      const byAction = Object.fromEntries(events.map((e) => [e.action, e]));
      assert.deepEqual(byAction['user.created'].details, { role: 'user', email: input.email, invited: true });
      assert.deepEqual(byAction['user.invited'].details, { email: input.email });
      assert.equal(byAction['user.invited'].actor?.username, 'ada');
      assert.deepEqual(byAction['invitation.accepted'].details, { email: input.email });
      assert.equal(byAction['invitation.accepted'].actor?.id, user.id, 'accepted by the person');
      assert.ok(!JSON.stringify(events).includes(token), 'never the link in the log');
    });

    test('an email is required, and without mail inviting is refused before anything is created', async () => {
      const db = await storage.open();
      const ctx = contextFor(db, capturingMailer().mailer);
      const { email: _, ...noEmail } = newPerson();
      await assert.rejects(
        inviteUser(ctx, noEmail, admin),
        (e: unknown) => e instanceof InvalidRequest && e.validation?.issues[0].path[0] === 'email' && /An invitation needs an email address/.test(e.message),
      );
      const off = contextFor(db, capturingMailer('off').mailer);
      const input = newPerson();
      await assert.rejects(inviteUser(off, input, admin), (e: unknown) => e instanceof InvalidRequest && e.message === NO_MAIL);
      assert.equal(await db.prisma.user.count({ where: { username: input.username } }), 0);
    });

    test('expired after 7 days; a tampered token is unknown; resending replaces the earlier link', async () => {
      const db = await storage.open();
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      const { user } = await inviteUser(ctx, newPerson(), admin);
      const first = tokenIn(sent[0]);
      const tampered = `${first.slice(0, -1)}${first.endsWith('A') ? 'B' : 'A'}`;
      assert.deepEqual(await viewInvitation(ctx, tampered), { status: 'unknown' });
      assert.deepEqual(await acceptInvitation(ctx, tampered, chosen('my own password'), context), { status: 'link', problem: 'unknown' });
      assert.deepEqual(await acceptInvitation(ctx, 'x'.repeat(65), chosen('my own password'), context), { status: 'link', problem: 'unknown' });

      clock += INVITATION_LINK_DAYS * 86_400_000 + 1;
      assert.deepEqual(await viewInvitation(ctx, first), { status: 'expired' });
      assert.deepEqual(await acceptInvitation(ctx, first, chosen('my own password'), context), { status: 'link', problem: 'expired' });
      assert.ok(((await invitationOf(db, user)) as Date).getTime() < clock, 'the admin sees it expired');

      const resent = await resendInvitation(ctx, user.id, admin);
      assert.equal(resent.invitation.status, 'sent');
      const second = tokenIn(sent[1]);
      assert.notEqual(second, first);
      assert.deepEqual(await viewInvitation(ctx, first), { status: 'unknown' }, 'the earlier link is replaced');
      assert.equal((await viewInvitation(ctx, second)).status, 'valid');
      const events = await auditEventsFor(db, { involvingUserId: user.id, actions: ['user.invited'] });
      assert.deepEqual(
        events.map((e) => e.details),
        [{ email: user.email, resent: true }, { email: user.email }],
      );
      assert.equal((await acceptInvitation(ctx, second, chosen('my own password'), context)).status, 'done');
    });

    test("a link for another account's address, or for an account given a password meanwhile, does not work", async () => {
      const db = await storage.open();
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      const { user: moved } = await inviteUser(ctx, newPerson(), admin);
      await updateProfile(db, moved.id, { name: moved.name, email: `elsewhere-${tag()}@example.com` }, admin);
      assert.deepEqual(await viewInvitation(ctx, tokenIn(sent[0])), { status: 'unknown' }, 'sent to an address the account no longer has');
      assert.deepEqual(await acceptInvitation(ctx, tokenIn(sent[0]), chosen('my own password'), context), { status: 'link', problem: 'unknown' });

      const { user: set } = await inviteUser(ctx, newPerson(), admin);
      await changePassword(db, set.id, 'an admin chose this', admin);
      assert.deepEqual(await viewInvitation(ctx, tokenIn(sent[1])), { status: 'used' });
      assert.deepEqual(await acceptInvitation(ctx, tokenIn(sent[1]), chosen('my own password'), context), { status: 'link', problem: 'used' });
      assert.ok(await verifyPassword((await findCredentials(db, set.username))!.passwordHash!, 'an admin chose this'), 'the admin’s password stays');

      // A link of another purpose is no invitation, and an invitation's token resets nothing.
      const { user: other } = await addUser(ctx, { ...newPerson(), password: 'a password of theirs' }, admin);
      const verification = linkIn(sent[2], 'verify-email');
      assert.equal(sent[2].to, other.email);
      assert.deepEqual(await viewInvitation(ctx, verification), { status: 'unknown' });
    });

    test('the mail server down: the person is kept without a link, told clearly, and sending again works; a failed resend keeps the earlier link', async () => {
      const db = await storage.open();
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      mailer.down = true;
      const { user, invitation } = await inviteUser(ctx, newPerson(), admin);
      assert.deepEqual(invitation, { status: 'failed' });
      assert.equal(await invitationOf(db, user), null, 'invitation not sent');
      assert.equal(await db.prisma.mailLink.count({ where: { userId: user.id } }), 0, 'no link without its mail');
      assert.equal((await auditEventsFor(db, { involvingUserId: user.id, actions: ['user.invited'] })).length, 0);

      mailer.down = false;
      assert.equal((await resendInvitation(ctx, user.id, admin)).invitation.status, 'sent');
      const first = tokenIn(sent[0]);
      mailer.down = true;
      assert.deepEqual((await resendInvitation(ctx, user.id, admin)).invitation, { status: 'failed' });
      assert.equal((await viewInvitation(ctx, first)).status, 'valid', 'the earlier mail still works');
      mailer.down = false;
      assert.equal((await acceptInvitation(ctx, first, chosen('my own password'), context)).status, 'done');
    });

    test('adding a user with a password and an address mails the verification link; without mail the user is still created', async () => {
      const db = await storage.open();
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      const withEmail = await addUser(ctx, { ...newPerson(), password: 'a password of theirs' }, admin);
      assert.equal(withEmail.verification, 'sent');
      assert.equal(sent.length, 1);
      assert.match(sent[0].subject, /Confirm your email address/);
      assert.equal(withEmail.user.invited, false);

      const { email: _, ...noEmail } = newPerson();
      assert.equal((await addUser(ctx, { ...noEmail, password: 'a password of theirs' }, admin)).verification, undefined);
      mailer.down = true;
      const failed = await addUser(ctx, { ...newPerson(), password: 'a password of theirs' }, admin);
      assert.equal(failed.verification, 'failed');
      assert.ok(await findUserById(db, failed.user.id), 'the user is kept: the link can be sent again');
      const off = await addUser(contextFor(db, capturingMailer('off').mailer), { ...newPerson(), password: 'a password of theirs' }, admin);
      assert.equal(off.verification, 'off');
    });

    test('an admin changing a user’s address mails the new address its link; the address counts as verified only once it is used', async () => {
      const db = await storage.open();
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      const { user } = await addUser(ctx, { ...newPerson(), password: 'a password of theirs' }, admin);
      sent.length = 0;
      const renamed = await changeProfile(ctx, user.id, { name: 'Another name', email: user.email }, admin);
      assert.equal(renamed.verification, undefined, 'the same address: no mail');
      assert.equal(sent.length, 0);

      const moved = await changeProfile(ctx, user.id, { name: 'Another name', email: `moved-${user.username}@example.org` }, admin);
      assert.equal(moved.verification, 'sent');
      assert.equal(moved.user.emailVerified, false);
      assert.deepEqual(
        sent.map((m) => m.to),
        [`moved-${user.username}@example.org`],
      );
      assert.match(sent[0].text, new RegExp(`${TEST_ISSUER}/verify-email/`));

      mailer.down = true;
      const refused = await changeProfile(ctx, user.id, { name: null, email: `again-${user.username}@example.org` }, admin);
      assert.equal(refused.verification, 'failed');
      assert.equal((await findUserById(db, user.id))?.email, `again-${user.username}@example.org`, 'the change is kept: the link can be sent again');
      assert.equal((await changeProfile(ctx, user.id, { name: null, email: null }, admin)).verification, undefined, 'no address: nothing to send');
    });

    test('wrong links are throttled per source address', async () => {
      const db = await storage.open();
      const ctx = contextFor(db, capturingMailer().mailer);
      const source = { ...context, ip: '198.51.100.77' };
      const answers: string[] = [];
      for (let i = 0; i < 40; i++) answers.push((await acceptInvitation(ctx, `wrong-${i}`, chosen('my own password'), source)).status);
      assert.equal(answers[0], 'link');
      assert.ok(answers.includes('invalid'), 'refused at some point: too many attempts');
    });
  });
}
