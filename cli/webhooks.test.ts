/**
 * `gatehouse webhook create | list | update | deliveries | resend | delete`, black-box: the real CLI in a
 * child process on a temporary SQLite database. The secret is printed by create only; changes are audited.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { auditEventsFor, BY_CLI } from '../lib/audit/log.ts';
import { closeDatabase, database } from '../lib/db/database.ts';
import { createUser } from '../lib/users/manage.ts';
import { cliRunner, failure, ok } from './testing.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cli-webhooks-'));
const url = `file:${path.join(dir, 'gatehouse.db')}`;
const gatehouse = cliRunner(url);
after(async () => {
  await closeDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

test('create prints the secret once; list, update, deliveries, resend and delete; every change audited', async () => {
  const created = JSON.parse(
    ok(
      await gatehouse([
        'webhook',
        'create',
        '--url',
        'https://hooks.example.com/in',
        '--event',
        'user.created',
        '--event',
        'user.deleted,user.locked',
        '--json',
      ]),
    ).stdout,
  ) as { id: string; secret: string; events: string[] };
  assert.match(created.secret, /^whsec_/);
  assert.deepEqual(created.events, ['user.created', 'user.deleted', 'user.locked']);

  const listed = ok(await gatehouse(['webhook', 'list', '--json'])).stdout;
  assert.doesNotMatch(listed, /whsec_/, 'never printed again');
  assert.equal((JSON.parse(listed) as unknown[]).length, 1);

  ok(await gatehouse(['webhook', 'update', created.id, '--enabled', 'off', '--description', 'Billing']));
  const [updated] = JSON.parse(ok(await gatehouse(['webhook', 'list', '--json'])).stdout) as Array<{ enabled: boolean; description: string }>;
  assert.equal(updated.enabled, false);
  assert.equal(updated.description, 'Billing');
  ok(await gatehouse(['webhook', 'update', created.id, '--enabled', 'on']));

  await createUser(database(url), { username: 'hooked', password: 'a long enough password' }, BY_CLI);
  const page = JSON.parse(ok(await gatehouse(['webhook', 'deliveries', created.id, '--json'])).stdout) as {
    data: Array<{ id: string; type: string; status: string }>;
  };
  assert.deepEqual(
    page.data.map((d) => [d.type, d.status]),
    [['user.created', 'pending']],
  );
  assert.match(ok(await gatehouse(['webhook', 'deliveries', created.id])).stdout, /user\.created\s+pending/);
  // A pending delivery is left as it is.
  assert.equal(JSON.parse(ok(await gatehouse(['webhook', 'resend', created.id, page.data[0].id, '--json'])).stdout).status, 'pending');

  ok(await gatehouse(['webhook', 'delete', created.id]));
  assert.deepEqual(JSON.parse(ok(await gatehouse(['webhook', 'list', '--json'])).stdout), []);
  const actions = (await auditEventsFor(database(url), { targetType: 'webhook' })).map((event) => event.action).sort();
  assert.deepEqual(actions, ['webhook.created', 'webhook.deleted', 'webhook.updated', 'webhook.updated']);
});

test('bad input exits 2 naming the problem; an unknown endpoint exits 1', async () => {
  const plainHttp = await gatehouse(['webhook', 'create', '--url', 'http://hooks.example.com/in', '--event', 'user.created']);
  assert.equal(plainHttp.code, 2, plainHttp.stderr);
  assert.match(plainHttp.stderr, /https/);
  const badEvent = await gatehouse(['webhook', 'create', '--url', 'https://hooks.example.com/in', '--event', 'user.exploded']);
  assert.equal(badEvent.code, 2, badEvent.stderr);
  const unknown = await gatehouse(['webhook', 'delete', 'no-such-endpoint']);
  assert.equal(unknown.code, 1, unknown.stderr);
  assert.match(failure(unknown), /no webhook endpoint/);
});
