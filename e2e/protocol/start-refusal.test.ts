// runs-on: databases
// A start refused for a setting changes nothing (README, *Upgrades* and *Secrets and backups*): it is
// checked before the first migration. On PostgreSQL without SECRETS_KEY, `npm start` exits naming the
// setting and the schema stays empty (every migration used to run first, then the start refused: in a
// rolling upgrade, one mis-deployed instance changed the schema under the others). On SQLite, a database
// that holds sealed values whose key file is gone (a restore without it) is refused, naming the file to
// restore and the key's id, and no new key file is made beside it (one used to be, opening nothing).
// Each on its own run: PostgreSQL's and SQLite's, under npm start's server.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { after, test } from 'node:test';
import pg from 'pg';
import { cliRunner } from '../../cli/testing.ts';
import { keyFilePath, keyId, readKeyFile } from '../../lib/db/keyring.ts';
import { pgConnection } from '../../lib/db/migrate.ts';
import { isolatedDatabase, spawnServer, startServer, type ServerProcess } from '../support/server.ts';

const own = isolatedDatabase('start-refusal');
const sqlite = own.url.startsWith('file:');
after(() => own.drop());

/** Waits for the server to exit (a refused start does, within seconds); kills it and fails otherwise. */
async function exitOf(server: ServerProcess) {
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 60_000);
  const exit = await server.exited;
  clearTimeout(timer);
  return exit;
}

test('PostgreSQL without SECRETS_KEY: the start exits naming SECRETS_KEY, and the new schema stays empty', {
  skip: sqlite ? 'runs on the PostgreSQL run' : false,
}, async () => {
  const server = await spawnServer({ DATABASE_URL: own.url, SECRETS_KEY: '', METRICS_PORT: '' }, { mount: 'server', host: '127.0.0.1' });
  const exit = await exitOf(server);
  const output = server.output();
  assert.notEqual(exit.code, 0, `exits with an error:\n${output}`);
  assert.match(output, /SECRETS_KEY is required with PostgreSQL/);
  assert.match(output, /openssl rand -base64 32/);
  assert.match(output, /Nothing was changed: no migration ran/);
  const { config, schema } = pgConnection(own.url);
  const client = new pg.Client(config);
  await client.connect();
  try {
    const { rows } = await client.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema]);
    assert.deepEqual(rows, [], 'no table in the schema');
  } finally {
    await client.end();
  }
});

test('SQLite with sealed values and its key file gone: the start refuses, naming the file to restore and its key id, and makes no key file', {
  skip: sqlite ? false : 'runs on the SQLite run',
}, async () => {
  const file = own.url.slice('file:'.length);
  const keyFile = keyFilePath(file);
  // A first start: the signing keys and cookie keys are sealed under the key file it creates.
  const first = await startServer(
    { DATABASE_URL: own.url, SECRETS_KEY: '', ADMIN_PASSWORD: randomBytes(18).toString('base64url'), METRICS_PORT: '' },
    { mount: 'server', host: '127.0.0.1' },
  );
  assert.equal((await first.stop()).code, 0);
  const id = keyId(readKeyFile(keyFile)!);
  const backup = `${keyFile}.backup`;
  fs.renameSync(keyFile, backup); // the restore that forgot it
  const database = fs.readFileSync(file);

  const server = await spawnServer({ DATABASE_URL: own.url, SECRETS_KEY: '', METRICS_PORT: '' }, { mount: 'server', host: '127.0.0.1' });
  const exit = await exitOf(server);
  const output = server.output();
  assert.notEqual(exit.code, 0, `exits with an error:\n${output}`);
  assert.ok(output.includes(`restore \`${keyFile}\` from your backup`), output);
  assert.ok(output.includes(`key ${id}`), `names the key id it needs (${id}):\n${output}`);
  assert.ok(!fs.existsSync(keyFile), 'no new key file');
  assert.ok(fs.readFileSync(file).equals(database), 'the database file is unchanged');

  // The id the refusal names is the one `gatehouse keys secrets-id` prints for the backup; restored, it starts.
  const printed = await cliRunner(own.url)(['keys', 'secrets-id', backup, '--json'], { env: { SECRETS_KEY: '' } });
  assert.equal(printed.code, 0, printed.stderr);
  assert.deepEqual(JSON.parse(printed.stdout), [{ source: backup, id }]);
  fs.renameSync(backup, keyFile);
  const restored = await startServer({ DATABASE_URL: own.url, SECRETS_KEY: '', METRICS_PORT: '' }, { mount: 'server', host: '127.0.0.1' });
  assert.equal((await restored.stop()).code, 0);
});
