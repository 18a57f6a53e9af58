/**
 * `gatehouse connection create | update | list | delete`, black-box: the real CLI in a child process on a
 * temporary SQLite database. The client secret comes from an environment variable and is never printed.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { closeDatabase, database } from '../lib/db/database.ts';
import { auditEventsFor } from '../lib/audit/log.ts';
import { cliRunner, failure, ok } from './testing.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cli-connections-'));
const url = `file:${path.join(dir, 'gatehouse.db')}`;
const gatehouse = cliRunner(url);
after(async () => {
  await closeDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

test('create with a preset, update, list and delete; the secret never printed; every change audited', async () => {
  const secret = randomBytes(24).toString('base64url');
  const env = { UPSTREAM_SECRET: secret, ISSUER: 'https://id.example.com' };
  const created = ok(
    await gatehouse(
      ['connection', 'create', 'github', '--preset', 'github', '--client-id', 'abc', '--client-secret-env', 'UPSTREAM_SECRET', '--client', 'app-1', '--json'],
      { env },
    ),
  );
  const connection = JSON.parse(created.stdout);
  assert.equal(connection.kind, 'oauth2');
  assert.equal(connection.userinfo_endpoint, 'https://api.github.com/user');
  assert.equal(connection.has_client_secret, true);
  assert.deepEqual(connection.client_ids, ['app-1']);
  assert.equal(connection.pass_login_hint, true, 'login_hint goes upstream unless turned off');
  assert.match(created.stderr, /https:\/\/id\.example\.com\/federation\/callback/, 'the callback URL to register upstream');

  ok(await gatehouse(['connection', 'update', 'github', '--enabled', 'off', '--domain', 'example.org', '--login-hint', 'off']));
  const [listed] = JSON.parse(ok(await gatehouse(['connection', 'list', '--json'])).stdout);
  assert.deepEqual([listed.enabled, listed.email_domains, listed.pass_login_hint], [false, ['example.org'], false]);
  const text = ok(await gatehouse(['connection', 'list'])).stdout;
  assert.match(text, /github\s+oauth2\s+GitHub\s+off/);
  for (const output of [created.stdout, created.stderr, text]) assert.ok(!output.includes(secret), 'never the secret');

  ok(await gatehouse(['connection', 'delete', 'github']));
  assert.equal(JSON.parse(ok(await gatehouse(['connection', 'list', '--json'])).stdout).length, 0);
  const actions = (await auditEventsFor(database(url), { targetType: 'connection' })).map((event) => event.action).sort();
  assert.deepEqual(actions, ['connection.created', 'connection.deleted', 'connection.updated']);
});

test('bad input exits 2 naming the problem; an unknown connection exits 1', async () => {
  const noTenant = await gatehouse(['connection', 'create', 'ms', '--preset', 'microsoft', '--client-id', 'x']);
  assert.equal(noTenant.code, 2);
  assert.match(failure(noTenant), /needs --tenant/);
  const plainHttp = await gatehouse(['connection', 'create', 'corp', '--issuer', 'http://idp.example', '--client-id', 'x']);
  assert.equal(plainHttp.code, 2);
  assert.match(failure(plainHttp), /https/);
  const badHint = await gatehouse(['connection', 'create', 'corp', '--issuer', 'https://idp.example', '--client-id', 'x', '--login-hint', 'maybe']);
  assert.equal(badHint.code, 2);
  assert.match(failure(badHint), /--login-hint is on or off/);
  const missing = await gatehouse(['connection', 'delete', 'nope']);
  assert.equal(missing.code, 1);
  assert.match(failure(missing), /no connection named nope/);
});

test("connection sign-in: a client's password form off and on again, with the connections offered; audited on the client", async () => {
  const client = JSON.parse(ok(await gatehouse(['client', 'create', '--name', 'SSO only', '--redirect-uri', 'https://app.example/cb', '--json'])).stdout);
  const env = { UPSTREAM_SECRET: 'x'.repeat(20), ISSUER: 'https://id.example.com' };
  ok(
    await gatehouse(['connection', 'create', 'corp', '--name', 'Corp', '--issuer', 'https://idp.example', '--client-id', 'g', '--client', client.client_id], {
      env,
    }),
  );
  const shown = JSON.parse(ok(await gatehouse(['connection', 'sign-in', client.client_id, '--json'])).stdout);
  assert.deepEqual(shown, { client_id: client.client_id, password_form: true, connections: ['corp'] }, 'on by default');
  const off = ok(await gatehouse(['connection', 'sign-in', client.client_id, '--password-form', 'off']));
  assert.match(off.stdout, /password form off; connections: corp/);
  assert.equal(JSON.parse(ok(await gatehouse(['connection', 'sign-in', client.client_id, '--json'])).stdout).password_form, false);
  ok(await gatehouse(['connection', 'sign-in', client.client_id, '--password-form', 'on']));
  const updates = await auditEventsFor(database(url), { targetType: 'client', targetId: client.client_id });
  assert.deepEqual(
    updates.filter((event) => event.action === 'client.updated').map((event) => event.details),
    [{ changed: ['passwordForm'] }, { changed: ['passwordForm'] }],
  );
  const bad = await gatehouse(['connection', 'sign-in', client.client_id, '--password-form', 'maybe']);
  assert.equal(bad.code, 2);
  const unknown = await gatehouse(['connection', 'sign-in', 'nope', '--password-form', 'off']);
  assert.equal(unknown.code, 1);
  assert.match(failure(unknown), /no client with id nope/);
});
