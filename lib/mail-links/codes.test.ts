// Codes mailed beside a link, on SQLite and PostgreSQL: one row with the link (either spends both), a shorter life
// than the link's, a few wrong tries per mail then the mail is spent, wrong codes counted per source, and only a keyed
// hash at rest, compared in constant time.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { beforeEach, describe, test } from 'node:test';
import { testDatabases } from '../db/testing.ts';
import type { Database } from '../db/database.ts';
import type { Mail, Mailer } from '../mail/mailer.ts';
import { capturingMailer, TEST_ISSUER, testContext } from '../testing.ts';
import { person } from '../account/testing.ts';
import { findAccount } from '../users/repository.ts';
import { CODE_MINUTES, hashMailCode, MAX_CODE_FAILURES, readMailCode, sameCodeHash, spendMailCode } from './codes.ts';
import { confirmEmail, confirmEmailWithCode, sendEmailVerification, VERIFICATION_LINK_HOURS } from './email-verification.ts';
import { mailLinkState } from './repository.ts';

const context = { ip: '198.51.100.31', userAgent: 'codes-test' };
const T0 = Date.UTC(2026, 10, 27, 9, 0, 0);
let clock = T0;

const contextFor = (db: Database, mailer: Mailer) => ({ ...testContext(db), mailer, now: () => clock });

const tokenIn = (mail: Mail) => {
  const link = mail.text.split(/\s+/).find((w) => w.startsWith(`${TEST_ISSUER}/verify-email/`));
  assert.ok(link, 'the mail carries the link');
  return link.slice(`${TEST_ISSUER}/verify-email/`.length);
};
const codeIn = (mail: Mail) => {
  const code = /^(\d{6})$/m.exec(mail.text)?.[1];
  assert.ok(code, 'the mail carries a 6-digit code on a line of its own');
  return code;
};
/** A code that is not the one mailed. */
const otherThan = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

test('what is typed is read as six digits, or refused without counting', () => {
  assert.deepEqual(readMailCode(' 123 456 '), { ok: true, code: '123456' });
  assert.deepEqual(readMailCode('012-345'), { ok: true, code: '012345' });
  assert.deepEqual(readMailCode(''), { ok: false, problem: 'code_missing' });
  assert.deepEqual(readMailCode('12a456'), { ok: false, problem: 'code_letters' });
  assert.deepEqual(readMailCode('12345'), { ok: false, problem: 'code_length' });
});

test('hashes compare equal only when equal, and hashes of another length are unequal without throwing', () => {
  const a = createHash('sha256').update('a').digest('hex');
  const b = createHash('sha256').update('b').digest('hex');
  assert.equal(sameCodeHash(a, a), true);
  assert.equal(sameCodeHash(a, b), false);
  assert.equal(sameCodeHash(a, a.slice(0, 32)), false);
  assert.equal(sameCodeHash('', ''), false, 'an empty stored hash matches nothing');
});

for (const storage of testDatabases('mail-codes')) {
  describe(`codes by mail on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    beforeEach(() => {
      clock = T0;
    });

    async function mailed(db: Database) {
      const { user, holder } = await person(db);
      const { sent, mailer } = capturingMailer();
      const ctx = contextFor(db, mailer);
      assert.equal(await sendEmailVerification(ctx, holder, user.email!, { withCode: true }), 'sent');
      const [mail] = sent;
      return { ctx, holder, email: user.email!, mail, token: tokenIn(mail), code: codeIn(mail) };
    }

    test('the code works once, and spends the link of the same mail', async () => {
      const db = await storage.open();
      const { ctx, holder, email, mail, token, code } = await mailed(db);
      assert.match(mail.text, new RegExp(`${CODE_MINUTES} minutes`), 'the mail says how long the code works');
      assert.deepEqual(await confirmEmailWithCode(ctx, holder.id, code, context), { status: 'verified', email });
      assert.equal((await findAccount(db, holder.id))?.emailVerified, true);
      assert.deepEqual(await spendMailCode(db, holder.id, 'email_verification', code, new Date(clock)), { status: 'none' }, 'once');
      assert.equal((await mailLinkState(db, token, 'email_verification', clock)).status, 'used', 'the link went with it');
    });

    test('the link spends the code of the same mail', async () => {
      const db = await storage.open();
      const { ctx, holder, token, code } = await mailed(db);
      assert.equal((await confirmEmail(ctx, token, context)).status, 'verified');
      assert.deepEqual(await spendMailCode(db, holder.id, 'email_verification', code, new Date(clock)), { status: 'none' });
    });

    test('a new mail replaces the code of the earlier one', async () => {
      const db = await storage.open();
      const { ctx, holder, email, code } = await mailed(db);
      const { sent, mailer } = capturingMailer();
      assert.equal(await sendEmailVerification({ ...ctx, mailer }, holder, email, { withCode: true }), 'sent');
      const newer = codeIn(sent[0]);
      if (newer !== code) assert.equal((await spendMailCode(db, holder.id, 'email_verification', code, new Date(clock))).status, 'wrong');
      assert.equal((await spendMailCode(db, holder.id, 'email_verification', newer, new Date(clock))).status, 'spent');
    });

    test(`the code stops after ${CODE_MINUTES} minutes; the link works on for its ${VERIFICATION_LINK_HOURS} hours`, async () => {
      const db = await storage.open();
      const { ctx, holder, token, code } = await mailed(db);
      clock = T0 + CODE_MINUTES * 60_000 - 1;
      assert.equal((await spendMailCode(db, holder.id, 'email_verification', otherThan(code), new Date(clock))).status, 'wrong', 'the control: still on');
      clock = T0 + CODE_MINUTES * 60_000;
      assert.deepEqual(await confirmEmailWithCode(ctx, holder.id, code, context), { status: 'code', problem: 'mail_code_expired' });
      assert.equal((await findAccount(db, holder.id))?.emailVerified, false);
      assert.equal((await mailLinkState(db, token, 'email_verification', clock)).status, 'open');
      assert.equal((await confirmEmail(ctx, token, context)).status, 'verified');
    });

    test(`after ${MAX_CODE_FAILURES} wrong codes the mail is spent, the right code and the link with it`, async () => {
      const db = await storage.open();
      const { ctx, holder, token, code } = await mailed(db);
      const wrong = otherThan(code);
      for (let left = MAX_CODE_FAILURES - 1; left > 0; left--) {
        assert.deepEqual(await spendMailCode(db, holder.id, 'email_verification', wrong, new Date(clock)), { status: 'wrong', left });
      }
      assert.deepEqual(await confirmEmailWithCode(ctx, holder.id, wrong, context), { status: 'code', problem: 'mail_code_exhausted' });
      assert.deepEqual(await confirmEmailWithCode(ctx, holder.id, code, context), { status: 'code', problem: 'mail_code_wrong' });
      assert.equal((await findAccount(db, holder.id))?.emailVerified, false);
      assert.equal((await mailLinkState(db, token, 'email_verification', clock)).status, 'used', 'a new mail is needed');
    });

    test('a malformed code is refused without spending a try', async () => {
      const db = await storage.open();
      const { ctx, holder, code } = await mailed(db);
      for (let i = 0; i < MAX_CODE_FAILURES + 2; i++) {
        assert.deepEqual(await confirmEmailWithCode(ctx, holder.id, '12ab56', context), { status: 'code', problem: 'mail_code_letters' });
      }
      assert.equal((await confirmEmailWithCode(ctx, holder.id, code, context)).status, 'verified');
    });

    test('only a keyed hash of the code is stored, bound to its row', async () => {
      const db = await storage.open();
      const { holder, code } = await mailed(db);
      const row = await db.prisma.mailLink.findFirstOrThrow({ where: { userId: holder.id, purpose: 'email_verification' } });
      assert.ok(row.codeHash);
      assert.ok(!row.codeHash.includes(code));
      assert.notEqual(row.codeHash, createHash('sha256').update(code).digest('hex'), 'not a plain hash, undone by trying a million codes');
      assert.equal(row.codeHash, await hashMailCode(db, row.id, code));
      assert.notEqual(row.codeHash, await hashMailCode(db, `${row.id}x`, code), 'the same code on another row hashes otherwise');
    });

    test('wrong codes are counted per source address, over every mail', async () => {
      const db = await storage.open();
      const source = { ...context, ip: '198.51.100.99' };
      const answers: string[] = [];
      for (let i = 0; i < 12 && !answers.includes('throttled'); i++) {
        const { ctx, holder, code } = await mailed(db);
        for (let j = 0; j < MAX_CODE_FAILURES; j++) answers.push((await confirmEmailWithCode(ctx, holder.id, otherThan(code), source)).status);
      }
      assert.equal(answers[0], 'code');
      assert.ok(answers.includes('throttled'), 'the source is made to wait');
    });

    test('a disabled account’s code verifies nothing', async () => {
      const db = await storage.open();
      const { ctx, holder, code } = await mailed(db);
      await db.prisma.user.update({ where: { id: holder.id }, data: { disabled: true } });
      assert.deepEqual(await confirmEmailWithCode(ctx, holder.id, code, context), { status: 'code', problem: 'mail_code_wrong' });
    });
  });
}
