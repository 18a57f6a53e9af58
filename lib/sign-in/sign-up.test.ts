// Self-service sign-up on SQLite and PostgreSQL: an account that signs in only once its address is verified; the
// domain limit; a taken username said, a taken address not; a mail server that is down leaving nothing; the
// per-address throttle; the resend; and a password reset by mail verifying the address and forgetting the
// interaction that waited for it (squatting).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Database } from '../db/database.ts';
import { deletePendingEmailVerificationsOf, savePendingEmailVerification } from './pending-email-verifications.ts';
import { findUserById } from '../users/repository.ts';
import { testDatabases } from '../db/testing.ts';
import type { Mail, Mailer } from '../mail/mailer.ts';
import { person } from '../account/testing.ts';
import { auditEventsFor } from '../audit/log.ts';
import { authenticate } from './authentication.ts';
import { confirmEmail, viewVerificationLink } from '../mail-links/email-verification.ts';
import { Conflict, Forbidden, InvalidRequest } from '../platform/errors.ts';
import { handedOff } from '../mail/hand-off.ts';
import { requestPasswordReset, resetPassword } from '../mail-links/password-reset.ts';
import { emailDomainAllowed, resendSignUpLink, signUp, signUpFields, signUpOffered, signUpStartupLine, type SignUpInput } from './sign-up.ts';
import { formProblems } from '../platform/forms.ts';
import { capturingMailer, TEST_ISSUER, testContext } from '../testing.ts';

const tag = () => randomBytes(4).toString('hex');
let ipCounter = 0;
/** A request from an address of its own, so the per-address throttle of one test does not reach the next. */
const from = () => ({ ip: `198.51.100.${++ipCounter}`, userAgent: 'sign-up-test' });

function contextFor(db: Database, mailer: Mailer, settings: { SIGN_UP?: 'on' | 'off'; SIGN_UP_EMAIL_DOMAINS?: string[] } = {}) {
  const base = testContext(db);
  return { ...base, mailer, now: Date.now, config: { ...base.config, SIGN_UP: 'on' as const, SIGN_UP_EMAIL_DOMAINS: [], ...settings } };
}

const input = (overrides: Partial<SignUpInput> = {}): SignUpInput => {
  const username = `s-${tag()}`;
  return {
    username,
    email: `${username}@example.com`,
    name: 'Sam Signup',
    password: 'a long enough password',
    confirmPassword: 'a long enough password',
    ...overrides,
  };
};

const linkIn = (mail: Mail, path: string) => {
  const link = mail.text.split(/\s+/).find((w) => w.startsWith(`${TEST_ISSUER}${path}`));
  assert.ok(link, `the mail carries a ${path} link:\n${mail.text}`);
  return link.slice(`${TEST_ISSUER}${path}`.length);
};

for (const storage of testDatabases('sign-up')) {
  describe(`sign-up on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('the account is made unverified, gets its link, and signs in only once the link is used', async () => {
      const db = await storage.open();
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      const typed = input();
      const context = from();
      const outcome = await signUp(ctx, typed, context, { clientId: 'app-1', clientName: 'App One' });
      assert.equal(outcome.status, 'sent');
      assert.ok(outcome.status === 'sent' && outcome.accountId);
      const user = await findUserById(db, outcome.accountId);
      assert.equal(user?.username, typed.username);
      assert.equal(user?.requiresVerifiedEmail, true);
      assert.equal(user?.emailVerified, false);
      assert.equal(user?.name, 'Sam Signup');

      assert.equal(sent.length, 1);
      assert.equal(sent[0].to, typed.email);
      assert.match(sent[0].subject, /finish signing up for Gatehouse/);
      const token = linkIn(sent[0], '/verify-email/');

      const right = await authenticate(ctx, typed.username, typed.password, context.ip);
      assert.deepEqual(
        { ok: right.ok, reason: !right.ok && right.reason, awaitingEmail: !right.ok && right.awaitingEmail },
        { ok: false, reason: 'email_unverified', awaitingEmail: typed.email },
      );
      const wrong = await authenticate(ctx, typed.username, 'not the password', context.ip);
      assert.equal(!wrong.ok && wrong.reason, 'wrong_password', 'a wrong password says nothing about the address');
      assert.equal(!wrong.ok && wrong.awaitingEmail, undefined);

      assert.deepEqual(await confirmEmail(ctx, token, context), { status: 'verified', email: typed.email });
      assert.deepEqual(await viewVerificationLink(ctx, token), { status: 'confirmed', email: typed.email }, 'opened again: used, and why that is fine');
      assert.deepEqual(await confirmEmail(ctx, token, context), { status: 'link', problem: 'used' });
      assert.equal((await authenticate(ctx, typed.username, typed.password, context.ip)).ok, true);

      const events = await auditEventsFor(db, { involvingUserId: outcome.accountId });
      const signedUp = events.find((e) => e.action === 'user.signed_up');
      assert.deepEqual(signedUp?.details, { email: typed.email, clientId: 'app-1', clientName: 'App One' });
      assert.equal(signedUp?.actor?.id, outcome.accountId);
      assert.ok(!JSON.stringify(events).includes(typed.password), 'never the password in the log');
      assert.ok(!JSON.stringify(events).includes(token), 'never the link in the log');
    });

    test('SIGN_UP_EMAIL_DOMAINS: the domain compared without case and exactly; bad input named by field', async () => {
      const db = await storage.open();
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer, { SIGN_UP_EMAIL_DOMAINS: ['example.com', 'example.org'] });
      const upper = input();
      const ok = await signUp(ctx, { ...upper, email: `${upper.username}@EXAMPLE.Org` }, from());
      assert.equal(ok.status, 'sent');
      for (const email of ['x@sub.example.com', 'x@example.com.evil.test', 'x@other.test']) {
        await assert.rejects(
          signUp(ctx, input({ email }), from()),
          (e: unknown) => e instanceof InvalidRequest && e.validation?.issues[0]?.path[0] === 'email',
        );
      }
      await assert.rejects(
        signUp(ctx, input({ email: 'x@other.test', confirmPassword: 'another password' }), from()),
        (e: unknown) =>
          e instanceof InvalidRequest && JSON.stringify(e.validation?.issues.map((i) => i.path[0]).sort()) === JSON.stringify(['confirmPassword', 'email']),
        'both problems at once',
      );
      await assert.rejects(signUp(ctx, input({ password: 'short', confirmPassword: 'short' }), from()), (e: unknown) => e instanceof InvalidRequest);
      await assert.rejects(signUp(ctx, input({ email: 'not an address' }), from()), (e: unknown) => e instanceof InvalidRequest);
      assert.equal(sent.length, 1, 'only the accepted one was mailed');
      assert.equal(emailDomainAllowed('a@anything.test', []), true, 'no domains: any');
    });

    test('a taken username is said with the form’s other problems, in one answer', async () => {
      const db = await storage.open();
      const { user: owner } = await person(db);
      const ctx = contextFor(db, capturingMailer().mailer);
      const refused = await signUp(ctx, input({ username: owner.username, email: 'not an address', confirmPassword: 'other' }), from()).catch(
        (e: unknown) => e,
      );
      assert.ok(refused instanceof InvalidRequest);
      assert.deepEqual(formProblems(refused, signUpFields), {
        username: [{ code: 'conflict' }],
        email: [{ code: 'invalid_email' }],
        confirmPassword: [{ code: 'mismatch' }],
      });
    });

    test('a taken username is said; a taken address gets the same answer, no account, and a note to its owner', async () => {
      const db = await storage.open();
      const { user: owner } = await person(db);
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      await assert.rejects(
        signUp(ctx, input({ username: owner.username.toUpperCase() }), from()),
        (e: unknown) => e instanceof Conflict && e.field === 'username',
      );
      const before = await db.prisma.user.count();
      const outcome = await signUp(ctx, input({ email: owner.email!.toUpperCase() }), from());
      assert.deepEqual(outcome, { status: 'sent', email: owner.email!.toUpperCase() }, 'the same answer, without an account');
      assert.equal(await db.prisma.user.count(), before, 'no account made');
      assert.equal(sent.length, 1);
      assert.match(sent[0].subject, /Someone tried to sign up/);
      assert.match(sent[0].text, new RegExp(`your account ${owner.username}`));
      assert.ok(sent[0].text.includes(`${TEST_ISSUER}/password-reset`));
      const events = await auditEventsFor(db, { involvingUserId: owner.id });
      assert.ok(events.some((e) => e.action === 'sign_up.address_taken'));
    });

    test('the mails are in the language of the page signed up from', async () => {
      const db = await storage.open();
      const { user: owner } = await person(db);
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      const typed = input();
      assert.equal((await signUp(ctx, typed, from(), {}, 'de')).status, 'sent');
      assert.equal(sent[0].subject, 'Bestätigen Sie Ihre E-Mail-Adresse, um Ihre Registrierung bei Gatehouse abzuschließen');
      assert.ok(sent[0].text.includes(`Willkommen, ${typed.username}.`), sent[0].text);
      assert.ok(sent[0].html.includes('<html lang="de">'));
      await signUp(ctx, input({ email: owner.email! }), from(), {}, 'de');
      assert.equal(sent[1].subject, 'Jemand wollte sich mit Ihrer E-Mail-Adresse bei Gatehouse registrieren');
      assert.ok(sent[1].text.includes(`Ihrem Konto ${owner.username}`), sent[1].text);
    });

    test('a mail server that is down: nothing is kept, and the same sign-up works afterwards', async () => {
      const db = await storage.open();
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      const typed = input();
      mailer.down = true;
      assert.deepEqual(await signUp(ctx, typed, from()), { status: 'failed', email: typed.email });
      assert.equal(await db.prisma.user.count({ where: { username: typed.username } }), 0, 'no half-made account');
      mailer.down = false;
      const again = await signUp(ctx, typed, from());
      assert.equal(again.status, 'sent');
      assert.equal(sent.length, 1);
    });

    test('off, or without mail: not offered, and refused', async () => {
      const db = await storage.open();
      const off = contextFor(db, capturingMailer().mailer, { SIGN_UP: 'off' });
      const noMail = contextFor(db, capturingMailer('off').mailer);
      assert.equal(signUpOffered(off), false);
      assert.equal(signUpOffered(noMail), false);
      assert.equal(signUpOffered(contextFor(db, capturingMailer().mailer)), true);
      assert.equal(signUpStartupLine(off), undefined);
      assert.match(signUpStartupLine(noMail) ?? '', /sign-up is NOT offered/);
      assert.equal(
        signUpStartupLine(contextFor(db, capturingMailer().mailer, { SIGN_UP_EMAIL_DOMAINS: ['example.com'] })),
        'sign-up is on, for addresses at example.com',
      );
      await assert.rejects(signUp(off, input(), from()), Forbidden);
      await assert.rejects(signUp(noMail, input(), from()), Forbidden);
    });

    test('throttled per source address: ten an hour, taken usernames counted too', async () => {
      const db = await storage.open();
      const { mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      const context = from();
      const { user: owner } = await person(db);
      const answers: string[] = [];
      for (let i = 0; i < 11; i++) {
        const attempt = i % 2 === 0 ? signUp(ctx, input(), context) : signUp(ctx, input({ username: owner.username }), context);
        answers.push(await attempt.then((o) => o.status).catch((e: unknown) => (e instanceof Conflict ? 'taken' : 'other')));
      }
      assert.deepEqual(answers.slice(0, 10), ['sent', 'taken', 'sent', 'taken', 'sent', 'taken', 'sent', 'taken', 'sent', 'taken']);
      assert.equal(answers[10], 'throttled');
      assert.equal((await signUp(ctx, input(), from())).status, 'sent', 'another address is not held up');
    });

    test('send it again: a new link replaces the old; nothing for a taken address, with the same answer', async () => {
      const db = await storage.open();
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      const typed = input();
      const outcome = await signUp(ctx, typed, from());
      assert.ok(outcome.status === 'sent' && outcome.accountId);
      const pending = { accountId: outcome.accountId, email: typed.email };
      assert.deepEqual(await resendSignUpLink(ctx, pending, from()), { status: 'sent' });
      await handedOff(mailer);
      assert.equal(sent.length, 2);
      const [older, newer] = sent.map((m) => linkIn(m, '/verify-email/'));
      assert.deepEqual(await confirmEmail(ctx, older, from()), { status: 'link', problem: 'unknown' }, 'only the newest works');
      assert.equal((await confirmEmail(ctx, newer, from())).status, 'verified');
      assert.deepEqual(await resendSignUpLink(ctx, pending, from()), { status: 'sent' }, 'verified: nothing more to send');
      assert.deepEqual(await resendSignUpLink(ctx, { email: `taken-${typed.email}` }, from()), { status: 'sent' });
      await handedOff(mailer);
      assert.equal(sent.length, 2);
    });

    test('send it again, request after request: a new account and a taken address get the same answers, and neither waits for the mail server', async () => {
      const db = await storage.open();
      const { sent, mailer } = capturingMailer();
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const slow = { ...mailer, send: async (mail: Mail) => held.then(() => mailer.send(mail)) };
      const ctx = contextFor(db, mailer);
      const typed = input();
      const outcome = await signUp(ctx, typed, from());
      assert.ok(outcome.status === 'sent' && outcome.accountId);
      const answers = async (pending: { accountId?: string; email: string }) => {
        const statuses = [];
        // From a new address each time: only the counter of the account (or of the taken address) can refuse.
        for (let i = 0; i < 8; i++) statuses.push((await resendSignUpLink({ ...ctx, mailer: slow }, pending, from())).status);
        return statuses;
      };
      const fresh = await answers({ accountId: outcome.accountId, email: typed.email });
      const taken = await answers({ email: `taken-${typed.email}` });
      assert.ok(fresh.includes('throttled'), `the account's resends are refused at some point: ${fresh.join(' ')}`);
      assert.deepEqual(taken, fresh);
      assert.equal(sent.length, 1, 'only the sign-up’s own mail so far: the resends wait for the mail server, the answers did not');
      release();
      await handedOff(slow);
      assert.equal(sent.length, 1 + fresh.filter((a) => a === 'sent').length);
    });

    test('a password reset by mail verifies the address: whoever signed up with it loses the account to its owner', async () => {
      const db = await storage.open();
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      const squatter = input();
      const outcome = await signUp(ctx, squatter, from());
      assert.ok(outcome.status === 'sent' && outcome.accountId);
      const form = (fields: Record<string, string>) => {
        const f = new FormData();
        for (const [k, v] of Object.entries(fields)) f.append(k, v);
        return f;
      };
      // The squatter's browser waits in an interaction for the address's verification (lib/sign-in/sign-up-interaction.ts).
      await savePendingEmailVerification(db, `i-${tag()}`, { accountId: outcome.accountId, email: squatter.email, via: 'sign_up' }, Date.now() + 600_000);
      assert.deepEqual(await requestPasswordReset(ctx, form({ identifier: squatter.email }), from()), { status: 'sent' });
      await handedOff(mailer);
      const token = linkIn(sent[1], '/password-reset/');
      const done = await resetPassword(ctx, token, form({ password: 'the owner’s password', confirmPassword: 'the owner’s password' }), from());
      assert.equal(done.status, 'done');
      assert.equal((await findUserById(db, outcome.accountId))?.emailVerified, true);
      assert.equal(await deletePendingEmailVerificationsOf(db, outcome.accountId), 0, 'the reset forgot the waiting interaction: it cannot continue');
      assert.equal((await authenticate(ctx, squatter.username, squatter.password)).ok, false, 'the old password is gone');
      assert.equal((await authenticate(ctx, squatter.username, 'the owner’s password')).ok, true);
      const events = await auditEventsFor(db, { involvingUserId: outcome.accountId });
      assert.deepEqual(events.find((e) => e.action === 'user.email_verified')?.details, { email: squatter.email });
    });
  });
}
