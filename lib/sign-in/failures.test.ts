// Failed sign-ins in the audit log: strangers cannot flood it, and nothing typed for an unknown username is kept.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { testDatabases } from '../db/testing.ts';
import { auditEventsFor } from '../audit/log.ts';
import { sourceOf, unknownUsernameFailures } from '../platform/source-counts.ts';
import { countFailure, recordSignInFailure } from './failures.ts';

const client = { clientId: 'app', clientName: 'App' };
const from = (ip: string) => ({ ip, userAgent: 'guesser/1.0' });
const tag = () => randomBytes(4).toString('hex');
/** A source address no other test in this process used (the aggregation in recordSignInFailure is per process). */
let addresses = 0;
const freshIp = () => `10.${randomBytes(1)[0]}.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;

test('IPv6 sources count per /64; IPv4 per address', () => {
  assert.equal(sourceOf('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(sourceOf('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
  assert.equal(sourceOf('2001:db8::7'), '2001:db8:0:0::/64');
  assert.equal(sourceOf('::1'), '0:0:0:0::/64');
  assert.equal(sourceOf('203.0.113.9'), '203.0.113.9');
  assert.equal(sourceOf(null), 'unknown');
});

for (const storage of testDatabases('sign-in-failures')) {
  describe(`failed sign-ins on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    const unknownFrom = async (db: Awaited<ReturnType<typeof storage.open>>, ip: string) =>
      (await auditEventsFor(db, { actions: ['sign_in.failed'] }, 100)).filter((e) => e.ip === ip).map((e) => e.details);

    test('a flood of unknown usernames from one address is one entry a minute, with the count; another address has its own', async () => {
      const db = await storage.open();
      const failures = unknownUsernameFailures({ timer: false });
      const ip = freshIp();
      const start = Date.parse('2026-11-23T12:00:00Z');
      for (let i = 0; i < 200; i++) await countFailure(failures, db, client, from(ip), start + i * 100); // 20 s
      assert.deepEqual(await unknownFrom(db, ip), [{ reason: 'unknown_user', count: 1, ...client }], 'the first at once, the rest counted');
      await failures.flushDue(start + 30_000);
      assert.equal((await unknownFrom(db, ip)).length, 1, 'not before the minute ends');
      await failures.flushDue(start + 60_000);
      assert.deepEqual(
        (await unknownFrom(db, ip)).map((d) => d.count),
        [199, 1],
      );

      // The written count opened the next minute: more guesses in it wait for its end, then come in one entry.
      for (let i = 0; i < 5; i++) await countFailure(failures, db, client, from(ip), start + 61_000 + i);
      assert.equal((await unknownFrom(db, ip)).length, 2);
      await countFailure(failures, db, client, from(ip), start + 125_000);
      assert.deepEqual(
        (await unknownFrom(db, ip)).map((d) => d.count),
        [6, 199, 1],
        'a late guess carries the unwritten count',
      );

      const other = freshIp();
      await countFailure(failures, db, client, from(other), start + 1_000);
      assert.deepEqual(
        (await unknownFrom(db, other)).map((d) => d.count),
        [1],
      );
      await failures.flushDue(start + 10 * 60_000);
      await failures.flushDue(start + 20 * 60_000);
      assert.equal(failures.sources, 0, 'quiet sources are forgotten');
    });

    test("the count is written by a timer when the source's minute ends, without another failure", async () => {
      const db = await storage.open();
      // The test's own clock and timer: the machine's load cannot move a failure into another minute.
      let now = Date.parse('2026-11-23T12:00:00Z');
      const scheduled: { run: () => Promise<void>; at: number; cancelled: boolean }[] = [];
      const failures = unknownUsernameFailures({
        clock: () => now,
        timer: (run, ms) => {
          const entry = { run, at: now + ms, cancelled: false };
          scheduled.push(entry);
          return () => {
            entry.cancelled = true;
          };
        },
      });
      const ip = freshIp();
      for (let i = 0; i < 3; i++) {
        await countFailure(failures, db, client, from(ip));
        now += 1_000;
      }
      assert.deepEqual(
        (await unknownFrom(db, ip)).map((d) => d.count),
        [1],
        'the first at once',
      );
      assert.deepEqual(
        scheduled.map((t) => t.at),
        [Date.parse('2026-11-23T12:01:00Z')],
        'one timer, at the end of the minute the first failure opened',
      );
      now = scheduled[0].at;
      await scheduled[0].run();
      assert.deepEqual(
        (await unknownFrom(db, ip)).map((d) => d.count),
        [2, 1],
        'the two counted failures, written by the timer',
      );
      assert.equal(failures.sources, 1, 'the written entry opened the next minute');
    });

    test('what was typed for an unknown username is not stored; a failure naming an account is recorded at once under its name', async () => {
      const db = await storage.open();
      const ctx = { db, signInFailures: unknownUsernameFailures() };
      const ip = freshIp();
      const typed = `my-Secret-Passw0rd-${tag()}`;
      await recordSignInFailure(ctx, { ok: false, reason: 'unknown_user' }, client, from(ip));
      const accountId = `acct-${tag()}`;
      await recordSignInFailure(ctx, { ok: false, reason: 'wrong_password', accountId, username: 'Alice' }, client, from(ip));
      await recordSignInFailure(ctx, { ok: false, reason: 'wrong_password', accountId, username: 'Alice' }, client, from(ip));
      const events = (await auditEventsFor(db, { actions: ['sign_in.failed'] }, 100)).filter((e) => e.ip === ip);
      assert.deepEqual(
        events.map((e) => [e.target, e.details]),
        [
          [
            { type: 'user', id: accountId, label: 'Alice' },
            { username: 'Alice', reason: 'wrong_password', ...client },
          ],
          [
            { type: 'user', id: accountId, label: 'Alice' },
            { username: 'Alice', reason: 'wrong_password', ...client },
          ],
          [null, { reason: 'unknown_user', count: 1, ...client }],
        ],
      );
      assert.doesNotMatch(JSON.stringify(events), new RegExp(typed));
    });
  });
}
