// runs-on: once
// Webhooks end to end on the suite's server: endpoints registered over the admin API, a receiver in this test
// that verifies every delivery with the Standard Webhooks library (as a receiver's own code would), events for
// a person created over the API, signing in and failing to, a "send again"; and a receiver that is down and
// comes back gets every event, in order per person. The outbox's claims and order are the same code on every
// store and are proved on SQLite and PostgreSQL by lib/webhooks/outbox.test.ts.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, test } from 'node:test';
import * as oidc from 'openid-client';
import { Webhook } from 'standardwebhooks';
import { BY_CLI } from '../../lib/audit/log.ts';
import { database } from '../../lib/db/database.ts';
import { deleteUser } from '../../lib/users/manage.ts';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';
import { TestBrowser, authorize } from '../support/browser.ts';
import { baseUrl, databaseUrl, discover, makeClient, pkce, redirectUri } from '../support/fixtures.ts';
import { freePort } from '../support/server.ts';

interface Received {
  id: string;
  type: string;
  data: { user?: { id: string; username: string }; action: string; actor: { username: string | null } | null; details: Record<string, unknown> };
}

/** A receiver that takes only what verifies against `secret`; down (not listening) until `up`. */
class Receiver {
  readonly events: Received[] = [];
  readonly refused: string[] = [];
  secret = '';
  private server?: Server;
  readonly port: number;
  constructor(port: number) {
    this.port = port;
  }
  get url() {
    return `http://127.0.0.1:${this.port}/hooks`;
  }
  async up() {
    this.server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      try {
        // Throws unless webhook-signature is the HMAC of webhook-id.webhook-timestamp.body and the timestamp is recent.
        const event = new Webhook(this.secret).verify(body, req.headers as Record<string, string>) as Omit<Received, 'id'>;
        assert.equal(req.headers['content-type'], 'application/json');
        this.events.push({ id: String(req.headers['webhook-id']), ...event });
        res.writeHead(204).end();
      } catch (error) {
        this.refused.push(String(error));
        res.writeHead(400).end();
      }
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }
  async close() {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
  of(userId: string) {
    return this.events.filter((event) => event.data.user?.id === userId);
  }
  async until(what: string, done: () => boolean, timeoutMs = 40_000) {
    const end = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > end) throw new Error(`no ${what} within ${timeoutMs} ms; received ${JSON.stringify(this.events.map((e) => [e.type, e.data.user?.id]))}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

const receivers: Receiver[] = [];
const endpoints: string[] = [];
const token = await adminToken(await makeAdminApiClient());

after(async () => {
  for (const id of endpoints) await api('DELETE', `/api/admin/webhooks/${id}`, { token });
  for (const receiver of receivers) await receiver.close();
});

async function register(receiver: Receiver, events: string[]) {
  const created = await api('POST', '/api/admin/webhooks', { token, json: { url: receiver.url, events, description: 'webhooks.test' } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.match(created.body.secret, /^whsec_/, 'the secret, shown once');
  receiver.secret = created.body.secret;
  endpoints.push(created.body.id);
  const read = await api('GET', `/api/admin/webhooks/${created.body.id}`, { token });
  assert.equal(read.body.secret, undefined, 'and never again');
  return created.body.id as string;
}

const createPerson = async (username: string, password?: string) => {
  const created = await api('POST', '/api/admin/users', { token, json: { username, email: `${username}@example.test`, ...(password ? { password } : {}) } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id as string;
};

test('a person created over the API, signing in and failing to: each a signed event; the outcome is in the API, and "send again" sends the same message', async () => {
  const receiver = new Receiver(await freePort());
  receivers.push(receiver);
  await receiver.up();
  const endpointId = await register(receiver, ['user.created', 'user.signed_in', 'user.sign_in_failed']);

  const username = `wh-${randomBytes(4).toString('hex')}`;
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const id = await createPerson(username, password);
  const app = await makeClient();
  const config = await discover(app);
  const { challenge } = await pkce();
  const url = () =>
    oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' });
  const browser = new TestBrowser(baseUrl);
  const page = await browser.navigate(url());
  const refused = await browser.submit(await page.response.text(), '/login', { username, password: 'not the password' });
  assert.equal(refused.location, undefined);
  await authorize(new TestBrowser(baseUrl), url(), { username, password });

  await receiver.until('three events', () => receiver.of(id).length >= 3);
  assert.deepEqual(
    receiver.of(id).map((event) => event.type),
    ['user.created', 'user.sign_in_failed', 'user.signed_in'],
  );
  const [created, failed, signedIn] = receiver.of(id);
  assert.equal(created.data.user?.username, username);
  assert.match(created.data.actor?.username ?? '', /^client:/, 'the admin-API client acted');
  assert.equal(failed.data.details.reason, 'wrong_password');
  assert.equal(signedIn.data.details.clientId, app.id);
  assert.deepEqual(receiver.refused, []);
  assert.doesNotMatch(JSON.stringify(receiver.events), new RegExp(`${password}|not the password|whsec_|\\$argon2`));

  // The receiver has the last one before Gatehouse has its answer: wait for the outcome to be stored.
  type Outcome = { subject: string; type: string; status: string; attempts: number; last_status: number };
  let mine: Outcome[] = [];
  for (let i = 0; i < 50; i++) {
    const deliveries = await api('GET', `/api/admin/webhooks/${endpointId}/deliveries?per_page=100`, { token });
    assert.equal(deliveries.status, 200);
    mine = (deliveries.body.data as Outcome[]).filter((d) => d.subject === `user:${id}`);
    if (mine.every((d) => d.status === 'delivered')) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.deepEqual(
    mine.map((d) => [d.type, d.status, d.attempts, d.last_status]),
    [
      ['user.signed_in', 'delivered', 1, 204],
      ['user.sign_in_failed', 'delivered', 1, 204],
      ['user.created', 'delivered', 1, 204],
    ],
  );
  const resent = await api('POST', `/api/admin/webhooks/${endpointId}/deliveries/${created.id}/resend`, { token });
  assert.equal(resent.status, 200);
  await receiver.until('the resent event', () => receiver.of(id).length === 4);
  assert.equal(receiver.of(id)[3].id, created.id, 'the same webhook-id, so a receiver can tell it saw it');
});

test('a receiver that is down and comes back gets every event, in order per person', async () => {
  const receiver = new Receiver(await freePort());
  receivers.push(receiver);
  const endpointId = await register(receiver, ['user.created', 'user.updated', 'user.deleted']);
  const ann = await createPerson(`wh-ann-${randomBytes(4).toString('hex')}`);
  for (const name of ['Ann', 'Ann B.', 'Ann Bee']) assert.equal((await api('PATCH', `/api/admin/users/${ann}`, { token, json: { name } })).status, 200);
  const ben = await createPerson(`wh-ben-${randomBytes(4).toString('hex')}`);
  assert.equal((await api('POST', `/api/admin/users/${ann}/disable`, { token })).status, 200);
  // Deleted as `gatehouse user delete` would, in another process: its event is queued with its audit entry all the same.
  assert.equal(await deleteUser(database(databaseUrl), ben, BY_CLI), true);

  // Down: the first attempts fail, and the API says why.
  const failing = async () => {
    const { body } = await api('GET', `/api/admin/webhooks/${endpointId}/deliveries?status=pending&per_page=100`, { token });
    return (body.data as Array<{ subject: string; attempts: number; last_error: string | null }>).find((d) => d.subject === `user:${ann}` && d.attempts > 0);
  };
  const deadline = Date.now() + 20_000;
  let first = await failing();
  while (!first && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    first = await failing();
  }
  assert.ok(first, 'an attempt was made and failed');
  assert.equal(first.last_error, 'ECONNREFUSED');
  assert.deepEqual(receiver.events, []);

  await receiver.up();
  await receiver.until("all of Ann's and Ben's events", () => receiver.of(ann).length >= 5 && receiver.of(ben).length >= 2);
  assert.deepEqual(
    receiver.of(ann).map((event) => [event.type, event.data.action]),
    [
      ['user.created', 'user.created'],
      ['user.updated', 'user.updated'],
      ['user.updated', 'user.updated'],
      ['user.updated', 'user.updated'],
      ['user.updated', 'user.disabled'],
    ],
  );
  assert.deepEqual(
    receiver.of(ben).map((event) => event.type),
    ['user.created', 'user.deleted'],
  );
  assert.deepEqual(receiver.refused, []);
});

test('people imported over the API raise one signed user.created each, a change a user.updated, and a run that changes nothing none', async () => {
  const receiver = new Receiver(await freePort());
  receivers.push(receiver);
  await receiver.up();
  const endpointId = await register(receiver, ['user.created', 'user.updated']);
  const tag = randomBytes(4).toString('hex');
  const people = Array.from({ length: 4 }, (_, i) => ({ external_id: `imp-${i}-${tag}`, username: `imp-${i}-${tag}`, email: `imp-${i}-${tag}@example.test` }));
  const importing = async (lines: object[], query = '') => {
    const answer = await api('POST', `/api/admin/users/import${query}`, {
      token,
      raw: `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`,
      headers: { 'content-type': 'application/x-ndjson' },
    });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body as { created: number; updated: number; unchanged: number };
  };
  const imported = () => receiver.events.filter((event) => event.data.user?.username.endsWith(tag));

  assert.equal((await importing(people, '?dry_run=true')).created, 4);
  assert.equal((await importing(people)).created, 4);
  await receiver.until('a user.created per imported person', () => imported().length >= 4);
  const created = imported();
  assert.deepEqual(
    created.map((event) => [event.type, event.data.action, event.data.user?.username]).sort(),
    people.map((person) => ['user.created', 'user.created', person.username]).sort(),
    'one each, none for the dry run',
  );
  assert.match(created[0].data.actor?.username ?? '', /^client:/, 'the admin-API client imported them');
  assert.equal(created[0].data.details.imported, true);
  assert.equal(new Set(created.map((event) => event.id)).size, 4);

  assert.equal((await importing(people)).unchanged, 4);
  assert.equal((await importing([{ ...people[1], name: 'Renamed' }])).updated, 1);
  await receiver.until('the update', () => imported().length >= 5);
  const [update] = imported().slice(4);
  assert.deepEqual([update.type, update.data.user?.username, update.data.details], ['user.updated', people[1].username, { changed: ['name'] }]);
  // Everything queued has been sent by now (one subject's events go in order; the update came last): nothing else for them.
  const { body } = await api('GET', `/api/admin/webhooks/${endpointId}/deliveries?per_page=100`, { token });
  assert.equal((body.data as unknown[]).length, 5, 'the unchanged run queued nothing');
  assert.deepEqual(receiver.refused, []);
});
