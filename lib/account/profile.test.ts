// A person edits their own profile, on SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findUserById } from '../users/repository.ts';
import { testDatabases } from '../db/testing.ts';
import { auditEventsFor } from '../audit/log.ts';
import type { Database } from '../db/database.ts';
import { confirmEmail, viewVerificationLink } from '../mail-links/email-verification.ts';
import { capturingMailer, TEST_ISSUER, testContext } from '../testing.ts';
import { profileValues, updateOwnProfile } from './profile.ts';
import { person, tag } from './testing.ts';

/** A server without mail: the address changes at once, unverified. */
const withoutMail = (db: Database) => ({ ...testContext(db), now: Date.now, mailer: capturingMailer('off').mailer });

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

for (const storage of testDatabases('account-profile')) {
  describe(`profile on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('saves name and email as the person typed them (trimmed), recorded as user.updated by themselves', async () => {
      const db = await storage.open();
      const { holder, by } = await person(db);
      const email = `new-${tag()}@example.com`;
      const state = await updateOwnProfile(withoutMail(db), holder, form({ name: '  Pat Doe  ', email: ` ${email} ` }), by);
      assert.deepEqual(state, { status: 'saved', values: { name: 'Pat Doe', email }, errors: {} });
      const user = await findUserById(db, holder.id);
      assert.deepEqual([user?.name, user?.email], ['Pat Doe', email]);
      const [event] = await auditEventsFor(db, { involvingUserId: holder.id, actions: ['user.updated'] });
      assert.deepEqual(event.details, { changed: ['name', 'email'] });
      assert.deepEqual(event.actor, { id: holder.id, username: holder.username });
      assert.equal(event.userAgent, 'account-test');
    });

    test('an invalid or taken email comes back on the email field, with what was typed, and nothing changes', async () => {
      const db = await storage.open();
      const { user, holder, by } = await person(db);
      const other = await person(db);
      const invalid = await updateOwnProfile(withoutMail(db), holder, form({ name: 'Pat', email: 'not-an-email' }), by);
      assert.deepEqual(invalid, { status: 'editing', values: { name: 'Pat', email: 'not-an-email' }, errors: { email: [{ code: 'invalid_email' }] } });
      const taken = await updateOwnProfile(withoutMail(db), holder, form({ name: 'Pat', email: other.user.email! }), by);
      assert.equal(taken.status, 'editing');
      assert.deepEqual(taken.errors, { email: [{ code: 'conflict' }] });
      assert.deepEqual(profileValues((await findUserById(db, holder.id))!), profileValues(user));
      const tooLong = await updateOwnProfile(withoutMail(db), holder, form({ name: 'x'.repeat(200), email: '' }), by);
      assert.deepEqual(Object.keys(tooLong.errors), ['name']);
      assert.deepEqual(await auditEventsFor(db, { involvingUserId: holder.id, actions: ['user.updated'] }), []);
    });

    test('with mail, a new address waits for its link; the link makes it the account’s, verified; a failed mail changes nothing', async () => {
      const db = await storage.open();
      const { user, holder, by } = await person(db);
      const { sent, mailer } = capturingMailer();
      const ctx = { ...testContext(db), now: Date.now, mailer };
      const email = `moved-${tag()}@example.com`;

      mailer.down = true;
      const failed = await updateOwnProfile(ctx, holder, form({ name: 'Pat', email }), by);
      assert.equal(failed.status, 'editing');
      assert.deepEqual(failed.errors, { email: [{ code: 'mail_failed' }] });
      assert.equal((await findUserById(db, holder.id))?.email, user.email, 'nothing changed');
      mailer.down = false;

      const state = await updateOwnProfile(ctx, holder, form({ name: 'Pat Moved', email }), by);
      assert.deepEqual(state, { status: 'saved', values: { name: 'Pat Moved', email: user.email! }, errors: {}, pendingEmail: email });
      assert.equal((await findUserById(db, holder.id))?.email, user.email, 'the old address stays until the link is used');
      assert.equal(sent.length, 1);
      assert.equal(sent[0].to, email);
      const token = sent[0].text
        .split(/\s+/)
        .find((w) => w.startsWith(`${TEST_ISSUER}/verify-email/`))!
        .split('/')
        .pop()!;
      assert.deepEqual(await viewVerificationLink(ctx, token), { status: 'valid', username: holder.username, email });
      const context = { ip: '203.0.113.9', userAgent: 'test' };
      assert.deepEqual(await confirmEmail(ctx, token, context), { status: 'verified', email });
      const after = await findUserById(db, holder.id);
      assert.deepEqual([after?.email, after?.emailVerified], [email, true]);
      assert.deepEqual(await confirmEmail(ctx, token, context), { status: 'link', problem: 'used' });
      assert.deepEqual(await confirmEmail(ctx, `${token}x`, context), { status: 'link', problem: 'unknown' });

      // A link whose address another account took meanwhile changes nothing.
      const next = `next-${tag()}@example.com`;
      await updateOwnProfile(ctx, holder, form({ name: 'Pat Moved', email: next }), by);
      const other = await person(db);
      await db.prisma.user.update({ where: { id: other.holder.id }, data: { email: next } });
      const nextToken = sent[1].text
        .split(/\s+/)
        .find((w) => w.startsWith(`${TEST_ISSUER}/verify-email/`))!
        .split('/')
        .pop()!;
      assert.deepEqual(await confirmEmail(ctx, nextToken, context), { status: 'taken' });
      assert.equal((await findUserById(db, holder.id))?.email, email);
    });

    test('empty fields clear the name and email', async () => {
      const db = await storage.open();
      const { holder } = await person(db);
      const state = await updateOwnProfile(withoutMail(db), holder, form({ name: '', email: '' }));
      assert.deepEqual(state.values, { name: '', email: '' });
      assert.deepEqual([(await findUserById(db, holder.id))?.email], [null]);
    });
  });
}
