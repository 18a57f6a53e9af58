// Sign-in's password check on SQLite and PostgreSQL: usernames in any case, the account's own spelling back, nothing about unknown ones.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { testDatabases } from '../db/testing.ts';
import { authenticate } from './authentication.ts';
import { testContext } from './testing.ts';
import { createUser, disableUser } from './users.ts';

const tag = () => randomBytes(4).toString('hex');

for (const storage of testDatabases('authentication')) {
  describe(`authenticate on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('a username matches in any case and comes back as the account spells it', async () => {
      const db = await storage.open();
      const t = tag();
      const user = await createUser(db, { username: `Mixed.Case-${t}`, password: 'the right password' });
      for (const typed of [user.username, `mixed.case-${t}`, `MIXED.CASE-${t.toUpperCase()}`]) {
        assert.deepEqual(await authenticate(testContext(db), typed, 'the right password'), { ok: true, accountId: user.id, username: user.username }, typed);
      }
      assert.deepEqual(await authenticate(testContext(db), `MIXED.case-${t}`, 'the wrong password'), { ok: false, reason: 'wrong_password', accountId: user.id, username: user.username });
      await disableUser(db, user.id);
      assert.deepEqual(await authenticate(testContext(db), user.username, 'the right password'), { ok: false, reason: 'disabled', accountId: user.id, username: user.username });
    });

    test('an unknown username fails with nothing about what was typed', async () => {
      const db = await storage.open();
      assert.deepEqual(await authenticate(testContext(db), `nobody-${tag()}`, 'whatever'), { ok: false, reason: 'unknown_user' });
    });

    test('past the free failures an attempt is refused before any check, the right password too; an unknown username takes the same steps', async () => {
      const db = await storage.open();
      const ctx = testContext(db);
      const user = await createUser(db, { username: `guessed-${tag()}`, password: 'the right password' });
      const ip = `192.0.2.${Math.floor(Math.random() * 250) + 1}`;
      const steps = async (username: string) => {
        const reasons: string[] = [];
        for (let i = 0; i < 7; i++) {
          const result = await authenticate(ctx, username, `guess ${i}`, ip);
          reasons.push(result.ok ? 'ok' : result.reason);
        }
        const right = await authenticate(ctx, username, 'the right password', ip);
        assert.equal(right.ok, false, 'refused while throttled');
        if (!right.ok) assert.ok(right.refusal && right.refusal.retryAfterSeconds >= 1, 'says when to try again');
        return reasons;
      };
      const known = await steps(user.username);
      assert.deepEqual(known, [...Array(6).fill('wrong_password'), 'throttled'], 'five free failures, the sixth earns a wait, the seventh is refused');
      const unknown = await steps(`nobody-${tag()}`);
      assert.deepEqual(unknown, [...Array(6).fill('unknown_user'), 'throttled']);
    });
  });
}
