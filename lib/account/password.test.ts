// A person changes their own password, on SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findArtifactByUid } from '../db/artifacts.ts';
import { findCredentials } from '../users/repository.ts';
import { testDatabases } from '../db/testing.ts';
import { auditEventsFor } from '../audit/log.ts';
import { verifyPassword } from '../platform/passwords.ts';
import { changeOwnPassword } from './password.ts';
import { testContext } from '../testing.ts';
import { person, session } from './testing.ts';

const form = (currentPassword: string, newPassword: string, confirmPassword = newPassword) => {
  const data = new FormData();
  data.append('currentPassword', currentPassword);
  data.append('newPassword', newPassword);
  data.append('confirmPassword', confirmPassword);
  return data;
};

for (const storage of testDatabases('account-password')) {
  describe(`password change on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    const passwordIs = async (db: Awaited<ReturnType<typeof storage.open>>, username: string, password: string) =>
      verifyPassword((await findCredentials(db, username))!.passwordHash!, password);

    test('the current password must be right; nothing typed comes back; nothing changes; every wrong guess is in the log', async () => {
      const db = await storage.open();
      const { holder, by, password } = await person(db);
      const wrong = await changeOwnPassword(testContext(db), holder, form('not my password', 'a brand new password'), by);
      assert.deepEqual(wrong, { status: 'invalid', errors: { currentPassword: [{ code: 'wrong_password' }] } });
      assert.ok(!JSON.stringify(wrong).includes('brand new'), 'no password in the answer');
      await changeOwnPassword(testContext(db), holder, form('another guess', 'short'), by);
      assert.ok(await passwordIs(db, holder.username, password));
      const events = await auditEventsFor(db, { involvingUserId: holder.id });
      assert.deepEqual(
        events.map((e) => [e.action, e.actor, e.target, e.ip, e.userAgent, e.details]),
        Array(2).fill([
          'password.check_failed',
          { id: holder.id, username: holder.username },
          { type: 'user', id: holder.id, label: holder.username },
          '203.0.113.7',
          'account-test',
          {},
        ]),
      );
      assert.doesNotMatch(JSON.stringify(events), /not my password|another guess|brand new/, 'nothing typed in the log');
    });

    test('policy, confirmation and sameness are checked with the current password, each on its field', async () => {
      const db = await storage.open();
      const { holder, password } = await person(db);
      const short = await changeOwnPassword(testContext(db), holder, form('', 'short', 'other'));
      assert.deepEqual(short, {
        status: 'invalid',
        errors: {
          currentPassword: [{ code: 'required' }],
          newPassword: [{ code: 'too_short', values: { minimum: 8 } }],
          confirmPassword: [{ code: 'mismatch' }],
        },
      });
      const mismatch = await changeOwnPassword(testContext(db), holder, form(password, 'a brand new password', 'a brand new passw0rd'));
      assert.deepEqual(mismatch, { status: 'invalid', errors: { confirmPassword: [{ code: 'mismatch' }] } });
      const same = await changeOwnPassword(testContext(db), holder, form(password, password));
      assert.deepEqual(same, { status: 'invalid', errors: { newPassword: [{ code: 'same_password' }] } });
      const huge = await changeOwnPassword(testContext(db), holder, form(password, 'x'.repeat(100_000)));
      assert.deepEqual(huge, { status: 'invalid', errors: { newPassword: [{ code: 'too_long', values: { maximum: 256 } }] } }, 'cut before argon2 sees it');
      assert.ok(await passwordIs(db, holder.username, password));
    });

    test('a change takes effect, ends every other session but the current one, and is recorded as self-made', async () => {
      const db = await storage.open();
      const { holder, by, password } = await person(db);
      const current = await session(db, holder.id);
      const elsewhere = await session(db, holder.id);
      const state = await changeOwnPassword(testContext(db), { ...holder, sessionUid: current }, form(password, 'a brand new password'), by);
      assert.deepEqual(state, { status: 'changed', endedSessions: 1 });
      assert.ok(await passwordIs(db, holder.username, 'a brand new password'));
      assert.ok(!(await passwordIs(db, holder.username, password)), 'the old password no longer works');
      assert.ok(await findArtifactByUid(db.sql, 'Session', current, Date.now()));
      assert.equal(await findArtifactByUid(db.sql, 'Session', elsewhere, Date.now()), undefined);
      const events = await auditEventsFor(db, { involvingUserId: holder.id });
      assert.deepEqual(
        events.map((e) => [e.action, e.details]),
        [
          ['session.ended', { count: 1, scope: 'others' }],
          ['user.password_changed', { self: true }],
        ],
      );
      assert.ok(!JSON.stringify(events).includes('brand new'), 'no password in the log');
    });
  });
}
