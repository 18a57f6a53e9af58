// Sign-in's password check on SQLite and PostgreSQL: usernames in any case, the account's own spelling back, nothing about unknown ones.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { testDatabases } from '../db/testing.ts';
import { authenticate } from './authentication.ts';
import { createUser, disableUser } from './users.ts';

const tag = () => randomBytes(4).toString('hex');

for (const storage of testDatabases('authentication')) {
  describe(`authenticate on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('a username matches in any case and comes back as the account spells it', async () => {
      const db = await storage.open();
      const t = tag();
      const user = await createUser(db, { username: `Mixed.Case-${t}`, password: 'the right password' });
      for (const typed of [user.username, `mixed.case-${t}`, `MIXED.CASE-${t.toUpperCase()}`]) {
        assert.deepEqual(await authenticate(db, typed, 'the right password'), { ok: true, accountId: user.id, username: user.username }, typed);
      }
      assert.deepEqual(await authenticate(db, `MIXED.case-${t}`, 'the wrong password'), { ok: false, reason: 'wrong_password', accountId: user.id, username: user.username });
      await disableUser(db, user.id);
      assert.deepEqual(await authenticate(db, user.username, 'the right password'), { ok: false, reason: 'disabled', accountId: user.id, username: user.username });
    });

    test('an unknown username fails with nothing about what was typed', async () => {
      const db = await storage.open();
      assert.deepEqual(await authenticate(db, `nobody-${tag()}`, 'whatever'), { ok: false, reason: 'unknown_user' });
    });
  });
}
