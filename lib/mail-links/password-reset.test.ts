// "Forgot your password?" on SQLite and PostgreSQL: the link mailed once, spent once, within 30 minutes; the same
// answer for unknown addresses; a failed send keeping nothing; every session ending; the mail itself.
import assert from 'node:assert/strict';
import { beforeEach, describe, test } from 'node:test';
import { findArtifactByUid } from '../db/artifacts.ts';
import { findCredentials } from '../users/repository.ts';
import { testDatabases } from '../db/testing.ts';
import type { Database } from '../db/database.ts';
import type { Mail, Mailer } from '../mail/mailer.ts';
import { handedOff } from '../mail/hand-off.ts';
import { memoryLog } from '../ops/log.ts';
import { capturingMailer } from '../testing.ts';
import { person, session } from '../account/testing.ts';
import { auditEventsFor } from '../audit/log.ts';
import { verifyPassword } from '../platform/passwords.ts';
import { RESET_LINK_MINUTES, requestPasswordReset, resetPassword, viewResetLink } from './password-reset.ts';
import { TEST_ISSUER, testContext } from '../testing.ts';

const formOf = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
};

const context = { ip: '198.51.100.23', userAgent: 'Mozilla/5.0 (test browser)' };
const T0 = Date.UTC(2026, 10, 23, 12, 0, 0);
let clock = T0;

function contextFor(db: Database, mailer: Mailer) {
  return { ...testContext(db), mailer, now: () => clock };
}

const tokenIn = (mail: Mail) => {
  const link = mail.text.split(/\s+/).find((w) => w.startsWith(`${TEST_ISSUER}/password-reset/`));
  assert.ok(link, 'the mail carries the link');
  return link.slice(`${TEST_ISSUER}/password-reset/`.length);
};

for (const storage of testDatabases('password-reset')) {
  describe(`password reset by mail on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    beforeEach(() => {
      clock = T0;
    });
    test('the link arrives once, names the request’s time, address and browser, works once and ends every session', async () => {
      const db = await storage.open();
      const { user, holder, password } = await person(db);
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      const signedIn = await session(db, holder.id);
      assert.ok(await findArtifactByUid(db.sql, 'Session', signedIn, Date.now()), 'the control: signed in before');

      assert.deepEqual(await requestPasswordReset(ctx, formOf({ identifier: user.email!.toUpperCase() }), context), { status: 'sent' });
      assert.equal(sent.length, 0, 'answered before the mail is made');
      await handedOff(mailer);
      assert.equal(sent.length, 1);
      const [mail] = sent;
      assert.equal(mail.to, user.email);
      assert.match(mail.subject, /Reset your Gatehouse password/);
      assert.match(mail.text, /Nov 23, 2026, 12:00\sPM UTC from 198\.51\.100\.23, using “Mozilla\/5\.0 \(test browser\)”/);
      assert.match(mail.text, new RegExp(`for ${RESET_LINK_MINUTES} minutes`));
      assert.match(mail.html, /<a href="https:\/\/id\.gatehouse\.test\/password-reset\/[A-Za-z0-9_-]{43}"/);
      assert.doesNotMatch(mail.html, /<img|https?:\/\/(?!id\.gatehouse\.test)/, 'nothing loaded from anywhere: no tracking');
      const token = tokenIn(mail);
      assert.equal(await db.prisma.mailLink.count({ where: { id: token } }), 0, 'only the hash is stored');

      assert.deepEqual(await viewResetLink(ctx, token), { status: 'valid', username: holder.username });
      assert.deepEqual(await viewResetLink(ctx, token), { status: 'valid', username: holder.username }, 'looking spends nothing');

      const mismatch = await resetPassword(ctx, token, formOf({ password: 'a brand new password', confirmPassword: 'something else' }), context);
      assert.equal(mismatch.status, 'invalid');
      const short = await resetPassword(ctx, token, formOf({ password: 'short', confirmPassword: 'short' }), context);
      assert.equal(short.status, 'invalid');
      assert.deepEqual(await viewResetLink(ctx, token), { status: 'valid', username: holder.username }, 'a refused form keeps the link');

      const done = await resetPassword(ctx, token, formOf({ password: 'a brand new password', confirmPassword: 'a brand new password' }), context);
      assert.deepEqual(done, { status: 'done', username: holder.username });
      const credentials = await findCredentials(db, holder.username);
      assert.ok(await verifyPassword(credentials!.passwordHash!, 'a brand new password'));
      assert.ok(!(await verifyPassword(credentials!.passwordHash!, password)));
      assert.equal(await findArtifactByUid(db.sql, 'Session', signedIn, Date.now()), undefined, 'every session ended');

      const again = await resetPassword(ctx, token, formOf({ password: 'yet another password', confirmPassword: 'yet another password' }), context);
      assert.deepEqual(again, { status: 'link', problem: 'used' });
      const events = await auditEventsFor(db, { involvingUserId: holder.id });
      const actions = events.map((e) => e.action);
      assert.ok(actions.includes('password_reset.requested'));
      assert.deepEqual(events.find((e) => e.action === 'user.password_changed')?.details, { self: true, viaMailLink: true });
      assert.ok(!JSON.stringify(events).includes(token), 'never the link in the log');
    });

    test('an unknown address, a disabled account or one without email: the same answer and no mail', async () => {
      const db = await storage.open();
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      for (const identifier of ['nobody@example.com', 'no-such-user']) {
        assert.deepEqual(await requestPasswordReset(ctx, formOf({ identifier }), context), { status: 'sent' });
      }
      await handedOff(mailer);
      assert.equal(sent.length, 0);
      const empty = await requestPasswordReset(ctx, formOf({ identifier: '  ' }), context);
      assert.equal(empty.status, 'invalid');
    });

    test('expired after 30 minutes, a newer link replaces the older, a tampered token is unknown', async () => {
      const db = await storage.open();
      const { user, holder } = await person(db);
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      await requestPasswordReset(ctx, formOf({ identifier: holder.username }), context);
      await handedOff(mailer);
      await requestPasswordReset(ctx, formOf({ identifier: user.email! }), context);
      await handedOff(mailer);
      const [older, newer] = sent.map(tokenIn);
      assert.deepEqual(await viewResetLink(ctx, older), { status: 'unknown' }, 'only the newest mail works');
      const tampered = `${newer.slice(0, -1)}${newer.endsWith('A') ? 'B' : 'A'}`;
      assert.deepEqual(await viewResetLink(ctx, tampered), { status: 'unknown' });
      const form = formOf({ password: 'a brand new password', confirmPassword: 'a brand new password' });
      assert.deepEqual(await resetPassword(ctx, tampered, form, context), { status: 'link', problem: 'unknown' });
      clock += RESET_LINK_MINUTES * 60_000 + 1;
      assert.deepEqual(await viewResetLink(ctx, newer), { status: 'expired' });
      assert.deepEqual(await resetPassword(ctx, newer, form, context), { status: 'link', problem: 'expired' });
    });

    test('a mail server that is down: the same answer, no link kept, the failure logged without the link, and trying again works', async () => {
      const db = await storage.open();
      const { holder } = await person(db);
      const { sent, mailer } = capturingMailer();
      const { log, lines } = memoryLog();
      const ctx = { ...contextFor(db, mailer), log };
      mailer.down = true;
      assert.deepEqual(await requestPasswordReset(ctx, formOf({ identifier: holder.username }), context), { status: 'sent' });
      await handedOff(mailer);
      assert.equal(await db.prisma.mailLink.count({ where: { userId: holder.id } }), 0, 'nothing half-created');
      const failure = lines.find((l) => l.msg === 'a password reset mail could not be sent');
      assert.equal(failure?.account_id, holder.id);
      assert.doesNotMatch(JSON.stringify(lines), /password-reset\/|@/, 'neither the link nor the address in the log');
      mailer.down = false;
      assert.deepEqual(await requestPasswordReset(ctx, formOf({ identifier: holder.username }), context), { status: 'sent' });
      await handedOff(mailer);
      assert.equal(sent.length, 1);
      assert.equal((await viewResetLink(ctx, tokenIn(sent[0]))).status, 'valid');
    });

    test('a mail server that takes its time: the answer does not wait for it', async () => {
      const db = await storage.open();
      const { holder } = await person(db);
      const { sent, mailer } = capturingMailer();
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const slow = { ...mailer, send: async (mail: Mail) => held.then(() => mailer.send(mail)) };
      const ctx = contextFor(db, slow);
      assert.deepEqual(await requestPasswordReset(ctx, formOf({ identifier: holder.username }), context), { status: 'sent' });
      assert.equal(sent.length, 0);
      release();
      await handedOff(slow);
      assert.equal(sent.length, 1);
    });

    test('a name without an account is counted as one with: the same answers, request after request', async () => {
      const db = await storage.open();
      const { holder } = await person(db);
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      const answers = async (identifier: string) => {
        const statuses = [];
        // From a new address each time: only the name's own counter can refuse.
        for (let i = 0; i < 8; i++)
          statuses.push(JSON.stringify(await requestPasswordReset(ctx, formOf({ identifier }), { ...context, ip: `198.51.100.${100 + i}` })));
        return statuses.map((s) => s.replaceAll(identifier, 'NAME'));
      };
      const known = await answers(holder.username);
      const unknown = await answers(`nobody-${holder.username}`);
      assert.ok(
        known.some((a) => a.includes('throttled')),
        `the known name is refused at some point: ${known.join(' ')}`,
      );
      assert.deepEqual(unknown, known);
      // The same name in other letters is the same name.
      assert.match(JSON.stringify(await requestPasswordReset(ctx, formOf({ identifier: `NOBODY-${holder.username}` }), context)), /throttled/);
      await handedOff(mailer);
      assert.ok(sent.length > 0);
    });

    test('requests are throttled per account: a mailbox is not flooded', async () => {
      const db = await storage.open();
      const { holder } = await person(db);
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      const answers = [];
      for (let i = 0; i < 8; i++) {
        answers.push((await requestPasswordReset(ctx, formOf({ identifier: holder.username }), { ...context, ip: `198.51.100.${100 + i}` })).status);
      }
      await handedOff(mailer);
      assert.ok(answers.includes('invalid'), `refused at some point: ${answers.join(' ')}`);
      assert.ok(sent.length <= 6, `at most a handful sent (${sent.length})`);
    });
  });
}
