/**
 * `gatehouse client enable` beside `client disable`, black-box against a temporary SQLite database: a
 * disabled client comes back (the provider finds it again), both changes are audited as the CLI's, and
 * an unknown client exits 1.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { findClientMetadata } from '../lib/clients/repository.ts';
import { closeDatabase, database } from '../lib/db/database.ts';
import { auditEventsFor } from '../lib/audit/log.ts';
import { cliRunner, failure, ok } from './testing.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cli-enable-'));
const databaseUrl = `file:${path.join(dir, 'gatehouse.db')}`;
const gatehouse = cliRunner(databaseUrl);
after(async () => {
  await closeDatabase(databaseUrl);
  rmSync(dir, { recursive: true, force: true });
});

test('client disable, then client enable: the provider finds the client again; both audited as the CLI; an unknown client exits 1', async () => {
  const created = JSON.parse(ok(await gatehouse(['client', 'create', '--name', 'Shop', '--redirect-uri', 'https://shop.example/cb', '--json'])).stdout) as {
    client_id: string;
  };
  const id = created.client_id;
  const db = database(databaseUrl);

  assert.deepEqual(JSON.parse(ok(await gatehouse(['client', 'disable', id, '--json'])).stdout), { client_id: id, enabled: false });
  assert.equal(await findClientMetadata(db, id), undefined, 'a disabled client is unknown to the provider');
  assert.match(ok(await gatehouse(['client', 'list'])).stdout, new RegExp(`${id}\\s+Shop\\s+confidential\\s+disabled`));

  const enabled = ok(await gatehouse(['client', 'enable', id]));
  assert.equal(enabled.stdout, `Enabled client ${id}.\n`);
  assert.equal((await findClientMetadata(db, id))?.client_id, id, 'the provider finds it again');
  assert.match(ok(await gatehouse(['client', 'list'])).stdout, new RegExp(`${id}\\s+Shop\\s+confidential\\s+enabled`));
  assert.deepEqual(JSON.parse(ok(await gatehouse(['client', 'enable', id, '--json'])).stdout), { client_id: id, enabled: true });

  const events = await auditEventsFor(db, { targetType: 'client', targetId: id });
  assert.deepEqual(
    events.reverse().map((e) => [e.action, e.actor, e.userAgent]),
    [
      ['client.created', null, 'gatehouse-cli'],
      ['client.disabled', null, 'gatehouse-cli'],
      ['client.enabled', null, 'gatehouse-cli'],
      ['client.enabled', null, 'gatehouse-cli'],
    ],
  );

  const unknown = await gatehouse(['client', 'enable', 'no-such-client']);
  assert.equal(unknown.code, 1);
  assert.match(failure(unknown), /no client with id no-such-client/);
  const usage = await gatehouse(['client', 'enable']);
  assert.equal(usage.code, 2);
});
