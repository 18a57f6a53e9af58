// The logout queue on SQLite and PostgreSQL: what a session's end queues, and claims that never hand one row to two instances.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testDatabases } from '../db/testing.ts';
import { endOneSession, endOtherSessions } from '../account/sessions.ts';
import { app, person, session } from '../account/testing.ts';
import { registerClient } from '../clients/manage.ts';
import { claimDueLogouts, dropQueuedLogouts, insertLogouts, removeLogout, retryLogoutLater } from './queue.ts';
import { logoutsOfSessions } from './sessions.ts';
import { retryDelay } from './delivery.ts';

test('a session owes a logout to each client signed in through it, with that client’s sid; payloads without an account owe none', () => {
  assert.deepEqual(
    logoutsOfSessions([{ accountId: 'u1', authorizations: { a: { sid: 's-a' }, b: {} } }, { accountId: 'u2' }, { authorizations: { a: { sid: 'x' } } }]),
    [
      { clientId: 'a', accountId: 'u1', sid: 's-a' },
      { clientId: 'b', accountId: 'u1', sid: null },
    ],
  );
});

test('the waits double from five seconds', () => {
  assert.deepEqual([1, 2, 3, 4].map(retryDelay), [5_000, 10_000, 20_000, 40_000]);
});

for (const storage of testDatabases('logout-queue')) {
  describe(`the logout queue on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('ending sessions queues one logout per client with a back-channel logout URI, none for the others or the kept session', async () => {
      const db = await storage.open();
      await dropQueuedLogouts(db);
      const { holder } = await person(db);
      const { client: receiver } = await registerClient(db, {
        name: 'Receiver',
        redirectUris: ['https://rp.example/cb'],
        backchannelLogoutUri: 'https://rp.example/bcl',
      });
      const plain = await app(db);
      const kept = await session(db, holder.id, { clients: [receiver.id, plain.id] });
      const other = await session(db, holder.id, { clients: [receiver.id, plain.id] });
      const third = await session(db, holder.id, { clients: [receiver.id] });

      assert.equal(await endOneSession(db, { ...holder, sessionUid: kept }, third).then((r) => r.status), 'ended');
      assert.equal(await endOtherSessions(db, { ...holder, sessionUid: kept }), 1);
      const queued = await db.prisma.backchannelLogout.findMany({ where: { accountId: holder.id } });
      assert.equal(queued.length, 2);
      assert.ok(queued.every((row) => row.clientId === receiver.id && row.attempts === 0 && row.sid));
      assert.ok(other && kept);
    });

    test('a due row is claimed once: a second claim meanwhile gets nothing; a retry waits, a removal ends it', async () => {
      const db = await storage.open();
      await dropQueuedLogouts(db);
      const now = Date.now();
      await insertLogouts(db, [{ clientId: 'c', accountId: 'u', sid: 's' }], now);
      const [claimed] = await claimDueLogouts(db, now, { limit: 10, leaseMs: 60_000 });
      assert.equal(claimed.clientId, 'c');
      assert.deepEqual(await claimDueLogouts(db, now + 1_000, { limit: 10, leaseMs: 60_000 }), [], 'held by the first claim');
      await retryLogoutLater(db, claimed.id, { attempts: 1, nextAttemptAt: now + 5_000, error: 'HTTP 503' });
      assert.deepEqual(await claimDueLogouts(db, now + 4_000, { limit: 10, leaseMs: 60_000 }), []);
      const [again] = await claimDueLogouts(db, now + 5_000, { limit: 10, leaseMs: 60_000 });
      assert.equal(again.attempts, 1);
      await removeLogout(db, again.id);
      assert.deepEqual(await claimDueLogouts(db, now + 600_000, { limit: 10, leaseMs: 60_000 }), []);
    });
  });
}
