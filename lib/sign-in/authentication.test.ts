// Sign-in's password check on SQLite and PostgreSQL: usernames in any case, the account's own spelling back, nothing about unknown ones.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { testDatabases } from '../db/testing.ts';
import { setTracingForTests } from '../ops/tracing.ts';
import { authenticate } from './authentication.ts';
import { testContext } from '../testing.ts';
import { createUser, disableUser } from '../users/manage.ts';

const tag = () => randomBytes(4).toString('hex');

/**
 * Whether two kinds of refused attempt take the same time: `a(n)` and `b(n)` each make the n-th attempt of their kind
 * (n from 0 to 14, each from an address of its own), interleaved so a change in the machine's load weighs on both
 * alike, compared by median in rounds of five. A skipped verification makes one side cost nearly nothing in every
 * round; a busy machine can skew one round, so the sides must agree within half a verification in one of three.
 */
async function sameTime(names: [string, string], a: (n: number) => Promise<unknown>, b: (n: number) => Promise<unknown>) {
  const timed = async (attempt: () => Promise<unknown>) => {
    const started = performance.now();
    await attempt();
    return performance.now() - started;
  };
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  const rounds: string[] = [];
  for (let round = 0; round < 3; round++) {
    const [as, bs]: number[][] = [[], []];
    for (let i = 0; i < 5; i++) {
      as.push(await timed(() => a(5 * round + i)));
      bs.push(await timed(() => b(5 * round + i)));
    }
    const [ma, mb] = [median(as), median(bs)];
    rounds.push(`median ${ma.toFixed(1)} ms for ${names[0]}, ${mb.toFixed(1)} ms for ${names[1]}`);
    if (Math.abs(ma - mb) <= Math.max(0.5 * mb, 5)) return;
  }
  assert.fail(rounds.join('; '));
}

for (const storage of testDatabases('authentication')) {
  describe(`authenticate on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('a username matches in any case and comes back as the account spells it', async () => {
      const db = await storage.open();
      const t = tag();
      const user = await createUser(db, { username: `Mixed.Case-${t}`, password: 'the right password' });
      for (const typed of [user.username, `mixed.case-${t}`, `MIXED.CASE-${t.toUpperCase()}`]) {
        assert.deepEqual(await authenticate(testContext(db), typed, 'the right password'), { ok: true, accountId: user.id, username: user.username }, typed);
      }
      assert.deepEqual(await authenticate(testContext(db), `MIXED.case-${t}`, 'the wrong password'), {
        ok: false,
        reason: 'wrong_password',
        accountId: user.id,
        username: user.username,
      });
      await disableUser(db, user.id);
      assert.deepEqual(await authenticate(testContext(db), user.username, 'the right password'), {
        ok: false,
        reason: 'disabled',
        accountId: user.id,
        username: user.username,
      });
    });

    test('a disabled account is named as such only after its right password; a wrong one is refused like any other, in the same time', async () => {
      const db = await storage.open();
      const ctx = testContext(db);
      const users = await Promise.all(Array.from({ length: 31 }, () => createUser(db, { username: `off-${tag()}`, password: 'the right password' })));
      for (const user of users.slice(0, 16)) await disableUser(db, user.id);
      const [disabled, enabled] = [users.slice(0, 16), users.slice(16)];
      const wrong = await authenticate(ctx, disabled[0].username, 'a wrong password', '203.0.113.1');
      assert.deepEqual(wrong, { ok: false, reason: 'wrong_password', accountId: disabled[0].id, username: disabled[0].username });
      const right = await authenticate(ctx, disabled[0].username, 'the right password', '203.0.113.2');
      assert.deepEqual(right, { ok: false, reason: 'disabled', accountId: disabled[0].id, username: disabled[0].username });

      // The answers that must not differ, the generic refusal of a wrong password, take one verification each, disabled or not.
      const wrongPassword = async (username: string, ip: string) => {
        const result = await authenticate(ctx, username, 'a wrong password', ip);
        assert.equal(result.ok ? 'ok' : result.reason, 'wrong_password');
      };
      await sameTime(
        ["a disabled account's wrong password", "an enabled one's"],
        (n) => wrongPassword(disabled[n + 1].username, `203.0.113.${2 * n + 10}`),
        (n) => wrongPassword(enabled[n].username, `203.0.113.${2 * n + 11}`),
      );
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

    test('a username that names no account costs what a wrong password for one costs: the same steps, one argon2id verification, the same time', async () => {
      const db = await storage.open();
      const ctx = testContext(db);
      const users = await Promise.all(Array.from({ length: 16 }, () => createUser(db, { username: `timed-${tag()}`, password: 'the right password' })));
      const attempt = async (username: string, ip: string) => {
        const result = await authenticate(ctx, username, 'a wrong password', ip);
        assert.equal(result.ok, false);
        if (!result.ok) assert.notEqual(result.reason, 'throttled');
      };

      // The steps, read from the spans each attempt starts (lib/ops/tracing.ts): what a clock cannot tell on a busy
      // machine, that neither side skips the verification or does work the other does not.
      const steps = async (username: string, ip: string) => {
        const names: string[] = [];
        setTracingForTests({
          endpoint: 'memory',
          requestSpan: () => assert.fail('no request span here'),
          inSpan: (name, _kind, _attributes, fn) => {
            names.push(name);
            return fn();
          },
          logIds: () => undefined,
          shutdown: async () => undefined,
        });
        try {
          await attempt(username, ip);
        } finally {
          setTracingForTests(undefined);
        }
        return names;
      };
      const knownSteps = await steps(users[0].username, '198.51.100.200');
      assert.deepEqual(
        knownSteps.filter((name) => name.includes('verify')),
        ['argon2id verify'],
      );
      assert.deepEqual(await steps(`nobody-${tag()}`, '198.51.100.201'), knownSteps);

      // And the clock, as the disabled-account test above.
      await sameTime(
        ['a known username', 'an unknown one'],
        (n) => attempt(users[n + 1].username, `198.51.100.${2 * n + 1}`),
        (n) => attempt(`nobody-${tag()}`, `198.51.100.${2 * n + 2}`),
      );
    });
  });
}
