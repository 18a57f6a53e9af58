// The webhook outbox on SQLite and PostgreSQL: what an audited change queues, claims that never hand one row
// to two instances, order per subject, signed deliveries with backoff, and endpoints disabled after failures.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { BY_CLI } from '../audit/log.ts';
import { testDatabases } from '../db/testing.ts';
import type { Database } from '../db/database.ts';
import { memoryLog } from '../ops/log.ts';
import { disableUser, insertNewUser, updateProfile } from '../users/manage.ts';
import { deliverDueWebhooks, retryDelay, type WebhookDeliverySettings } from './delivery.ts';
import { webhookEventOf } from './events.ts';
import { createEndpoint, deleteEndpoint, deliveryPage, listEndpoints, resendEndpointDelivery, updateEndpoint } from './manage.ts';
import { claimDueDeliveries, markAttemptFailed } from './outbox.ts';

test('the waits double from five seconds and stop growing at an hour', () => {
  assert.deepEqual([1, 2, 3, 4].map(retryDelay), [5_000, 10_000, 20_000, 40_000]);
  assert.equal(retryDelay(20), 3_600_000);
});

test('an event names its subject and carries the entry, not more; entries about nobody raise none', () => {
  const at = new Date('2026-11-27T20:00:00Z');
  const event = webhookEventOf({
    action: 'user.locked',
    at,
    actor: null,
    target: { type: 'user', id: 'u1', label: 'alice' },
    details: { until: '2026-11-27T20:15:00.000Z' },
  });
  assert.deepEqual(event, {
    type: 'user.locked',
    subject: 'user:u1',
    payload: {
      type: 'user.locked',
      timestamp: at.toISOString(),
      data: { user: { id: 'u1', username: 'alice' }, action: 'user.locked', actor: null, details: { until: '2026-11-27T20:15:00.000Z' } },
    },
  });
  assert.equal(webhookEventOf({ action: 'sign_in.failed', at, actor: null, target: null, details: { reason: 'unknown_user', count: 3 } }), undefined);
  assert.equal(webhookEventOf({ action: 'consent.granted', at, actor: null, target: { type: 'user', id: 'u1', label: 'a' }, details: {} }), undefined);
});

/** A receiver answering what `answer` says, keeping what it got. */
function receiver() {
  const got: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
  const state = { answer: 204 };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      res.writeHead(state.answer, { 'content-type': 'text/plain' });
      res.end(state.answer >= 300 ? `nope ${'x'.repeat(2_000)}` : 'ok');
    });
  });
  return {
    got,
    state,
    server,
    url: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
  };
}

const settings: WebhookDeliverySettings = { maxAttempts: 3, disableAfterFailures: 1_000, disableAfterMs: 0, historyMs: 86_400_000 };

for (const storage of testDatabases('webhooks')) {
  describe(`the webhook outbox on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    const hook = receiver();
    let db: Database;
    let clock = Date.now();
    const { log } = memoryLog('error');
    const deps = () => ({ db, now: () => clock, log });
    before(async () => {
      db = await storage.open();
      await new Promise<void>((resolve) => hook.server.listen(0, '127.0.0.1', resolve));
    });
    after(() => hook.server.close());

    // A person created as an admin would, recording user.created; without a password, whose hashing would only cost time here.
    const person = (username: string) => insertNewUser(db, { username, email: null, name: null, role: 'user' }, null, BY_CLI, {});
    const fresh = async (events: Parameters<typeof createEndpoint>[1]['events'], url = hook.url()) => {
      for (const endpoint of await listEndpoints(db)) await deleteEndpoint(db, endpoint.id);
      return createEndpoint(db, { url, events, description: 'test' }, BY_CLI);
    };

    test('an audited change queues one signed delivery per endpoint that wants it; the receiver verifies it with the Standard Webhooks library', async () => {
      const { endpoint, secret } = await fresh(['user.created', 'user.updated']);
      assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
      const other = await createEndpoint(db, { url: hook.url(), events: ['client.created'] });
      const stored = await db.prisma.webhookEndpoint.findUnique({ where: { id: endpoint.id } });
      assert.ok(stored && !stored.secret.includes(secret.slice(6)), 'the secret is sealed at rest');

      const user = await person(`wh-${clock}`);
      const queued = await db.prisma.webhookDelivery.findMany({ where: { subject: `user:${user.id}` } });
      assert.deepEqual(
        queued.map((row) => [row.endpointId, row.type]),
        [[endpoint.id, 'user.created']],
        'none for the endpoint that wants only client events',
      );
      assert.ok(other);

      hook.got.length = 0;
      hook.state.answer = 204;
      clock = Date.now() + 1_000;
      assert.equal(await deliverDueWebhooks(deps(), settings), 1);
      const [received] = hook.got;
      const verified = new Webhook(secret).verify(received.body, received.headers as Record<string, string>) as {
        type: string;
        data: { user: { id: string } };
      };
      assert.equal(verified.type, 'user.created');
      assert.equal(verified.data.user.id, user.id);
      assert.equal(received.headers['webhook-id'], queued[0].id);
      assert.doesNotMatch(received.body, /password|hash|whsec_/i);
      const page = await deliveryPage(db, endpoint.id);
      assert.equal(page.deliveries[0].status, 'delivered');
      assert.equal(page.deliveries[0].attempts, 1);
      assert.equal(page.deliveries[0].lastStatus, 204);
    });

    test('a due row is claimed once: a second instance claiming meanwhile gets nothing until the lease ends', async () => {
      await fresh(['user.created']);
      await person(`wh-claim-${clock}`);
      const now = Date.now() + 1_000;
      const first = await claimDueDeliveries(db, now, { limit: 10, leaseMs: 60_000 });
      assert.equal(first.length, 1);
      assert.deepEqual(await claimDueDeliveries(db, now + 1_000, { limit: 10, leaseMs: 60_000 }), [], 'held by the first claim');
      const [again] = await claimDueDeliveries(db, now + 61_000, { limit: 10, leaseMs: 60_000 });
      assert.equal(again.id, first[0].id, 'the lease ended: a crashed sender loses nothing');
    });

    test('a failing receiver: retried after doubling waits, then failed; a later event of the same person waits for the earlier one, another person’s does not', async () => {
      const { endpoint } = await fresh(['user.created', 'user.updated']);
      const alice = await person(`wh-a-${clock}`);
      await updateProfile(db, alice.id, { name: 'Alice' }, BY_CLI);
      const bob = await person(`wh-b-${clock}`);
      clock = Date.now() + 1_000;

      hook.state.answer = 503;
      hook.got.length = 0;
      assert.equal(await deliverDueWebhooks(deps(), settings), 2, "alice's first event and bob's, not alice's second");
      const received = hook.got.map((r) => JSON.parse(r.body) as { type: string; data: { user: { id: string } } });
      assert.deepEqual(
        received.map((e) => [e.type, e.data.user.id]).sort(),
        [
          ['user.created', alice.id],
          ['user.created', bob.id],
        ].sort(),
      );
      const first = (await deliveryPage(db, endpoint.id, { status: 'pending' })).deliveries.find(
        (d) => d.subject === `user:${alice.id}` && d.type === 'user.created',
      )!;
      assert.equal(first.attempts, 1);
      assert.equal(first.lastError, 'HTTP 503');
      assert.ok((first.responseExcerpt?.length ?? 0) <= 300, 'only an excerpt of the answer is kept');
      assert.equal(first.nextAttemptAt?.getTime(), clock + 5_000);

      assert.equal(await deliverDueWebhooks(deps(), settings), 0, 'nothing due before the wait; alice’s update waits behind her creation');
      hook.state.answer = 200;
      clock += 5_000;
      hook.got.length = 0;
      assert.equal(await deliverDueWebhooks(deps(), settings), 2, 'the two retries');
      assert.equal(await deliverDueWebhooks(deps(), settings), 1, 'then alice’s update');
      assert.deepEqual(
        hook.got.filter((r) => r.body.includes(alice.id)).map((r) => (JSON.parse(r.body) as { type: string }).type),
        ['user.created', 'user.updated'],
      );

      // Attempts exhausted: failed for good, and no longer in the way of what follows; "send again" re-queues it.
      hook.state.answer = 500;
      await disableUser(db, bob.id, BY_CLI);
      for (let i = 0; i < settings.maxAttempts; i++) {
        assert.equal(await deliverDueWebhooks(deps(), settings), 1);
        clock += retryDelay(i + 1);
      }
      const [failed] = (await deliveryPage(db, endpoint.id, { status: 'failed' })).deliveries;
      assert.equal(failed.attempts, settings.maxAttempts);
      assert.equal(failed.type, 'user.updated');
      assert.equal(await deliverDueWebhooks(deps(), settings), 0);
      hook.state.answer = 200;
      const resent = await resendEndpointDelivery(db, endpoint.id, failed.id, clock, BY_CLI);
      assert.equal(resent.status, 'pending');
      assert.equal(await deliverDueWebhooks(deps(), settings), 1);
      assert.equal((await deliveryPage(db, endpoint.id, { status: 'failed' })).total, 0);
    });

    test('an endpoint failing N times in a row over the window is disabled with an audit entry; its pending deliveries wait, and go when it is enabled again', async () => {
      const { endpoint } = await fresh(['user.created']);
      const strict = { ...settings, maxAttempts: 10, disableAfterFailures: 3, disableAfterMs: 60_000 };
      await person(`wh-d-${clock}`);
      hook.state.answer = 500;
      clock = Date.now() + 1_000;
      for (const wait of [5_000, 10_000, 20_000, 40_000]) {
        assert.equal(await deliverDueWebhooks(deps(), strict), 1);
        clock += wait;
      }
      // Four failures, the first 35 s before the fourth: not yet a minute. The fifth, 75 s after the first, disables it.
      assert.equal((await listEndpoints(db))[0].enabled, true);
      assert.equal(await deliverDueWebhooks(deps(), strict), 1);
      const [disabled] = await listEndpoints(db);
      assert.equal(disabled.enabled, false);
      assert.equal(disabled.disabledReason, 'failing');
      const audit = await db.prisma.auditEvent.findFirst({ where: { action: 'webhook.disabled', targetId: endpoint.id } });
      assert.ok(audit);
      assert.equal((JSON.parse(audit.details) as { failures: number }).failures, 5);

      clock += 600_000;
      assert.equal(await deliverDueWebhooks(deps(), strict), 0, 'a disabled endpoint gets nothing');
      hook.state.answer = 200;
      const enabled = await updateEndpoint(db, endpoint.id, { enabled: true }, BY_CLI);
      assert.equal(enabled.disabledReason, null);
      assert.equal(enabled.consecutiveFailures, 0);
      assert.equal(await deliverDueWebhooks(deps(), strict), 1);
      assert.equal((await deliveryPage(db, endpoint.id, { status: 'delivered' })).total, 1);
    });

    test('a failure run is counted across deliveries and ends with a success', async () => {
      const { endpoint } = await fresh(['user.created']);
      const at = Date.now();
      const run = await markAttemptFailed(db, 'none', endpoint.id, { attempts: 1, at, status: 500, error: 'HTTP 500', excerpt: null, nextAttemptAt: at + 1 });
      assert.deepEqual(run, { consecutiveFailures: 1, failingSince: at });
      const again = await markAttemptFailed(db, 'none', endpoint.id, {
        attempts: 1,
        at: at + 10,
        status: null,
        error: 'timeout',
        excerpt: null,
        nextAttemptAt: null,
      });
      assert.deepEqual(again, { consecutiveFailures: 2, failingSince: at });
    });

    test('endpoints take only https URLs (http on loopback) and known events', async () => {
      await assert.rejects(createEndpoint(db, { url: 'http://example.com/hook', events: ['user.created'] }), /https/);
      await assert.rejects(createEndpoint(db, { url: 'https://example.com/hook', events: [] }), /at least one/);
      await assert.rejects(createEndpoint(db, { url: 'https://example.com/hook', events: ['user.exploded' as 'user.created'] }));
    });
  });
}
