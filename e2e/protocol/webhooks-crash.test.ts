// runs-on: databases
// Webhooks survive what the issue (27) says they survive, end to end on an instance of npm start's server of this
// file's own, on a database of its own, with a receiver in this test that verifies every delivery with the Standard
// Webhooks library:
// - killed mid-delivery (SIGKILL while the receiver holds requests open, more events queued behind them), then started
//   again on the same database: every event arrives at least once, verified, in order per person; what was in flight
//   comes again with the same webhook-id and body once its claim (WEBHOOK_LEASE_SECONDS, the shortest allowed) runs
//   out, so a receiver can drop the repeat;
// - a receiver that answers 503 for a while (several attempts per delivery, at the backoff's shortest waits) gets every
//   event once it answers again, in order per person.
// The claim is an UPDATE on the store (SQLite's write lock, PostgreSQL's row lock), so this runs on both; Redis holds
// no part of the outbox, so not again on the Redis run. lib/webhooks/outbox.test.ts proves the claim's rules alone.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { after, before, test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { registerClient } from '../../lib/clients/manage.ts';
import { closeDatabase, database } from '../../lib/db/database.ts';
import type { ApiAnswer } from '../support/admin-api.ts';
import { basic } from '../support/fixtures.ts';
import { freePort, isolatedDatabase, type ServerProcess, startServer } from '../support/server.ts';

/** The shortest claim the settings allow: how long a delivery that was in flight at the kill waits before it goes again. */
const LEASE_SECONDS = 15;
/** Generous bounds for a loaded 2-core machine: waiting, not measuring. */
const WAIT_MS = 120_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Receipt {
  id: string;
  type: string;
  timestamp: string;
  data: { user?: { id: string; username: string }; action: string };
  /** When it came, by this process's clock. */
  at: number;
}

/** What the receiver does with a verified request: answers it (2xx or the status given), or holds it open until released. */
type Policy = (receipt: Receipt) => 'take' | 'hold' | number;

/** A receiver that records every request that verifies against `secret` (taken or not), and refuses what does not verify. */
class Receiver {
  readonly receipts: Receipt[] = [];
  /** Requests taken with a 2xx. */
  readonly taken: Receipt[] = [];
  readonly refused: string[] = [];
  secret = '';
  policy: Policy = () => 'take';
  private readonly held: Array<() => void> = [];
  private server?: Server;
  port = 0;
  get url() {
    return `http://127.0.0.1:${this.port}/hooks`;
  }
  async up() {
    this.port = await freePort();
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }
  private async handle(req: IncomingMessage, res: ServerResponse) {
    let body = '';
    for await (const chunk of req) body += chunk;
    let receipt: Receipt;
    try {
      // Throws unless webhook-signature is the HMAC of webhook-id.webhook-timestamp.body and the timestamp is recent.
      const event = new Webhook(this.secret).verify(body, req.headers as Record<string, string>) as Omit<Receipt, 'id' | 'at'>;
      receipt = { id: String(req.headers['webhook-id']), ...event, at: Date.now() };
    } catch (error) {
      this.refused.push(String(error));
      res.writeHead(400).end();
      return;
    }
    this.receipts.push(receipt);
    const decision = this.policy(receipt);
    if (decision === 'hold') {
      // Answered when released: by then Gatehouse is gone, so the answer goes nowhere, as a slow receiver's would.
      await new Promise<void>((resolve) => this.held.push(resolve));
      if (!res.destroyed) res.writeHead(204).end();
      return;
    }
    if (decision === 'take') {
      this.taken.push(receipt);
      res.writeHead(204).end();
      return;
    }
    res.writeHead(decision, { 'content-type': 'text/plain' }).end('down for maintenance');
  }
  release() {
    for (const resolve of this.held.splice(0)) resolve();
  }
  async close() {
    this.release();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
  of(userId: string, from = this.receipts) {
    return from.filter((receipt) => receipt.data.user?.id === userId);
  }
  async until(what: string, done: () => boolean, timeoutMs = WAIT_MS) {
    for (const end = Date.now() + timeoutMs; !done(); await sleep(100)) {
      if (Date.now() > end) {
        const seen = this.receipts.map((r) => [r.id.slice(-6), r.type, r.data.action, r.data.user?.username]);
        throw new Error(`no ${what} within ${timeoutMs} ms; received ${JSON.stringify(seen)}; refused ${JSON.stringify(this.refused)}`);
      }
    }
  }
}

let db: ReturnType<typeof isolatedDatabase> | undefined;
let server: ServerProcess | undefined;
let port = 0;
let automation: { id: string; secret: string };
/** The admin-API token, fetched anew from each instance started. */
let token: string | undefined;
const adminPassword = randomBytes(18).toString('base64url');
const receivers: Receiver[] = [];

/** npm start's server on this file's database, on `port` each time; ready once /readyz says so (migrated, keys loaded). */
async function startGatehouse(): Promise<ServerProcess> {
  return startServer(
    { DATABASE_URL: db!.url, ADMIN_PASSWORD: adminPassword, METRICS_PORT: '', WEBHOOK_LEASE_SECONDS: String(LEASE_SECONDS) },
    { port, mount: 'server', host: '127.0.0.1', ready: { path: '/readyz', timeoutMs: WAIT_MS } },
  );
}

/** One admin API request to this file's instance, with a client_credentials token of the instance serving now. */
async function api(method: string, path: string, json?: unknown): Promise<Pick<ApiAnswer, 'status' | 'body'>> {
  if (!token) {
    const grant = await fetch(`${server!.url}/oauth/token`, {
      method: 'POST',
      headers: { authorization: basic(automation.id, automation.secret), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'admin' }),
    });
    const answer = (await grant.json()) as { access_token?: string };
    assert.equal(grant.status, 200, JSON.stringify(answer));
    token = answer.access_token;
  }
  const response = await fetch(`${server!.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function register(receiver: Receiver): Promise<string> {
  const created = await api('POST', '/api/admin/webhooks', {
    url: receiver.url,
    events: ['user.created', 'user.updated', 'user.deleted'],
    description: 'webhooks-crash.test',
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  receiver.secret = created.body.secret;
  return created.body.id;
}

/** A person created over the admin API, renamed twice and disabled: four events, in this order. */
async function personWithFourEvents(prefix: string): Promise<string> {
  const created = await api('POST', '/api/admin/users', {
    username: `${prefix}-${randomBytes(4).toString('hex')}`,
    email: `${prefix}-${randomBytes(4).toString('hex')}@example.test`,
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id as string;
  for (const name of ['First', 'Second']) assert.equal((await api('PATCH', `/api/admin/users/${id}`, { name })).status, 200);
  assert.equal((await api('POST', `/api/admin/users/${id}/disable`)).status, 200);
  return id;
}
const FOUR_EVENTS = [
  ['user.created', 'user.created'],
  ['user.updated', 'user.updated'],
  ['user.updated', 'user.updated'],
  ['user.updated', 'user.disabled'],
];

/** Receipts' ids in order, each once: what a receiver that drops repeats by webhook-id keeps. */
const distinct = (receipts: Receipt[]) => receipts.filter((receipt, i) => receipts.findIndex((r) => r.id === receipt.id) === i);

/** Every delivery of the endpoint, as the API answers them. */
async function deliveries(endpointId: string): Promise<Array<{ id: string; subject: string; status: string; attempts: number; last_status: number | null }>> {
  const answer = await api('GET', `/api/admin/webhooks/${endpointId}/deliveries?per_page=100`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
}

before(async () => {
  db = isolatedDatabase('webhooks-crash');
  port = await freePort();
  server = await startGatehouse();
  const registered = await registerClient(database(db.url), {
    name: 'Webhooks crash automation',
    grantTypes: ['client_credentials'],
    redirectUris: [],
    postLogoutRedirectUris: [],
    scopes: ['admin'],
    adminApi: true,
  });
  automation = { id: registered.client.id, secret: registered.clientSecret! };
});

after(async () => {
  for (const receiver of receivers) await receiver.close();
  await server?.stop('SIGKILL');
  if (db) {
    await closeDatabase(db.url);
    await db.drop();
  }
});

test('killed with SIGKILL mid-delivery and started again on the same database: every event arrives, verified, in order per person; repeats carry the same webhook-id', async () => {
  const receiver = new Receiver();
  receivers.push(receiver);
  await receiver.up();
  const endpointId = await register(receiver);

  // The first two are taken; from then on the receiver holds every request open, never answering (stuck, say, on its
  // own database), so each person's next event is in flight when the instance dies, and the rest queued behind it.
  receiver.policy = () => (receiver.taken.length < 2 ? 'take' : 'hold');
  const people = [await personWithFourEvents('crash-a'), await personWithFourEvents('crash-b'), await personWithFourEvents('crash-c')];
  const inFlight = () => new Set(receiver.receipts.filter((r) => !receiver.taken.includes(r)).map((r) => r.data.user?.id));
  await receiver.until('a request in flight for each person', () => people.every((id) => inFlight().has(id)));
  const heldIds = new Set(receiver.receipts.filter((r) => !receiver.taken.includes(r)).map((r) => r.id));
  const beforeKill = receiver.receipts.length;

  const exit = await server!.stop('SIGKILL');
  assert.equal(exit.signal, 'SIGKILL');
  receiver.release();
  receiver.policy = () => 'take';
  const killedAt = Date.now();
  server = await startGatehouse();
  token = undefined;

  const complete = () => people.every((id) => distinct(receiver.of(id)).length === FOUR_EVENTS.length);
  await receiver.until('every event of every person after the restart', complete);
  // Whatever of a person is still to come would come in order after these: wait for the outcomes to be stored.
  for (const end = Date.now() + WAIT_MS; ; await sleep(200)) {
    const all = await deliveries(endpointId);
    if (all.length === 12 && all.every((d) => d.status === 'delivered')) break;
    assert.ok(Date.now() < end, `not all delivered: ${JSON.stringify(all)}`);
  }

  assert.deepEqual(receiver.refused, [], 'every request verified');
  for (const id of people) {
    const mine = receiver.of(id);
    assert.deepEqual(
      distinct(mine).map((r) => [r.type, r.data.action]),
      FOUR_EVENTS,
      'every event, once its repeats are dropped, in the order it happened',
    );
    // Counting the repeats too: a repeat comes right after what it repeats, never after a later event of the person.
    const runs = mine.filter((r, i) => i === 0 || mine[i - 1].id !== r.id);
    assert.deepEqual(
      runs.map((r) => r.id),
      distinct(mine).map((r) => r.id),
      `in order counting repeats: ${JSON.stringify(mine.map((r) => r.id))}`,
    );
    for (const receipt of mine) {
      const { at: _at, ...first } = mine.find((r) => r.id === receipt.id)!;
      const { at: _at2, ...again } = receipt;
      assert.deepEqual(again, first, 'a repeat is the same message: same webhook-id, type, timestamp and data');
    }
  }
  // What was in flight at the kill came again, with its webhook-id, once its claim had run out.
  assert.ok(heldIds.size >= people.length);
  for (const id of heldIds) {
    const again = receiver.receipts.slice(beforeKill).filter((r) => r.id === id);
    assert.ok(again.length >= 1, `${id}, in flight at the kill, came again`);
    assert.ok(again[0].at >= killedAt, 'after the restart');
  }
  assert.ok(receiver.taken.length >= 12);
});

test('a receiver that answers 503 for a while gets every event once it answers again, in order per person', async () => {
  const receiver = new Receiver();
  receivers.push(receiver);
  await receiver.up();
  const endpointId = await register(receiver);

  // Down (503 to everything) until each person's first delivery was refused twice: tried at once and again after 5 s
  // (the backoff's shortest wait); by then the one tried first is waiting 10 s more, and everything else behind them.
  const people: string[] = [];
  let down = true;
  receiver.policy = (receipt) => {
    if (down) {
      // Refused before this one (which is recorded already, and not yet answered).
      const refusedOf = (id: string) => receiver.of(id).filter((r) => r !== receipt && !receiver.taken.includes(r)).length;
      down = !(people.length === 2 && people.every((id) => refusedOf(id) >= 2));
    }
    return down ? 503 : 'take';
  };
  people.push(await personWithFourEvents('down-a'));
  people.push(await personWithFourEvents('down-b'));

  await receiver.until('every event of both people after the receiver came back', () =>
    people.every((id) => receiver.of(id, receiver.taken).length >= FOUR_EVENTS.length),
  );
  assert.deepEqual(receiver.refused, [], 'every request verified');
  for (const id of people) {
    const taken = receiver.of(id, receiver.taken);
    assert.deepEqual(
      taken.map((r) => [r.type, r.data.action]),
      FOUR_EVENTS,
      'every event, once, in the order it happened',
    );
    assert.equal(distinct(taken).length, taken.length, 'nothing taken twice');
    const refused = receiver.of(id).filter((r) => !receiver.taken.includes(r));
    assert.ok(refused.length >= 2, `the first event was tried at least twice while the receiver was down (${refused.length})`);
    assert.ok(
      refused.every((r) => r.id === taken[0].id),
      'only the first event was tried while down: the later ones waited behind it',
    );
  }
  // The outcome in the API: the first delivery of each person took several attempts, the last one answered 204.
  for (const end = Date.now() + WAIT_MS; ; await sleep(200)) {
    const all = await deliveries(endpointId);
    if (all.length === 8 && all.every((d) => d.status === 'delivered')) {
      for (const id of people) {
        const first = all.filter((d) => d.subject === `user:${id}`).at(-1)!;
        assert.ok(first.attempts >= 3, `attempts of the first delivery: ${first.attempts}`);
        assert.equal(first.last_status, 204);
      }
      break;
    }
    assert.ok(Date.now() < end, `not all delivered: ${JSON.stringify(all)}`);
  }
});
