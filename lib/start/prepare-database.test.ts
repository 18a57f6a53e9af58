// prepareDatabase, as a start runs it: on a database of the previous release, through a handle
// opened before (the server's context opens it first), the newest migration applies and each
// migration is logged by name; a start whose keys cannot open what is stored, or a PostgreSQL
// start without SECRETS_KEY, is refused before the first migration and changes nothing.
// SQLite, and PostgreSQL with TEST_DATABASE_URL.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { closeDatabase, database } from '../db/database.ts';
import { keyFilePath, keyId, keyringOf } from '../db/keyring.ts';
import { pgConnection } from '../db/migrate.ts';
import { migrateAsPreviousRelease, migrationFolders } from '../db/previous-release.ts';
import { sealedTables } from '../db/secrets.ts';
import { openSql } from '../db/sql.ts';
import { SEALED_COLUMNS, StartRefused } from '../db/start-checks.ts';
import { memoryLog } from '../ops/log.ts';
import { prepareDatabase } from './first-start.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gatehouse-prepare-'));
const pgBase = process.env.TEST_DATABASE_URL;
const schemas: string[] = [];
after(async () => {
  rmDir();
  if (!pgBase) return;
  const client = new pg.Client(pgConnection(pgBase).config);
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});
const rmDir = () => fs.rmSync(dir, { recursive: true, force: true });

let n = 0;
const sqliteUrl = () => `file:${path.join(dir, `db-${++n}`, 'gatehouse.db')}`;
function postgresUrl(): string {
  const schema = `gh_prepare_${randomBytes(4).toString('hex')}`;
  schemas.push(schema);
  const url = new URL(pgBase!);
  url.searchParams.set('schema', schema);
  return url.toString();
}

const appliedMigrations = async (url: string) => {
  const sql = openSql(url);
  try {
    return (await sql.all<{ migration_name: string }>('SELECT migration_name FROM _prisma_migrations ORDER BY migration_name')).map((r) => r.migration_name);
  } finally {
    await sql.close();
  }
};

test('every sealed column of lib/db/secrets.ts is checked before a start migrates', () => {
  assert.deepEqual(Object.keys(SEALED_COLUMNS).sort(), [...sealedTables].sort());
});

for (const kind of ['SQLite', 'PostgreSQL'] as const) {
  const url = kind === 'SQLite' ? sqliteUrl : postgresUrl;
  const key = randomBytes(32);
  describe(`prepareDatabase on ${kind}`, { skip: kind === 'PostgreSQL' && !pgBase ? 'TEST_DATABASE_URL is not set' : false }, () => {
    test('a database of the previous release, through a handle opened first: the newest migration applies, each logged by name', async () => {
      const target = url();
      const { newest } = await migrateAsPreviousRelease(target);
      // As the server's context does: the handle exists (and has been used once, elsewhere) before the start migrates.
      const before = database(target);
      await before.sql.one('SELECT count(*) AS n FROM users');
      await closeDatabase(target);
      const db = database(target);
      try {
        const { lines, log } = memoryLog();
        await prepareDatabase(db, { log, secretsKey: [key] });
        assert.deepEqual(await appliedMigrations(target), migrationFolders(kind === 'SQLite' ? 'sqlite' : 'postgresql'));
        assert.deepEqual(
          lines.filter((l) => l.migration).map((l) => [l.migration, l.msg]),
          [[newest, `applied migration ${newest}`]],
        );
        const ran = lines.filter((l) => l.data_migration).map((l) => l.data_migration);
        assert.ok(ran.length > 0, 'the data migrations the previous release had not run');
        assert.match(String(lines.at(-1)!.msg), /^database upgraded: 1 migration\(s\) and \d+ data migration\(s\) in \d+ ms$/);
        // A second start has nothing to apply, and says nothing.
        const again = memoryLog();
        await prepareDatabase(db, { log: again.log, secretsKey: [key] });
        assert.deepEqual(again.lines, []);
      } finally {
        await closeDatabase(target);
      }
    });

    test('values sealed under a key the start does not have: refused before the first migration, naming the table and the key id', async () => {
      const target = url();
      await migrateAsPreviousRelease(target);
      const stored = randomBytes(32);
      const sql = openSql(target);
      try {
        await sql.run('INSERT INTO server_secrets (name, value) VALUES (?, ?)', ['cookie_keys', keyringOf([stored]).seal('x', 'server_secrets:cookie_keys')]);
      } finally {
        await sql.close();
      }
      const before = await appliedMigrations(target);
      const db = database(target);
      try {
        await assert.rejects(prepareDatabase(db, { secretsKey: [key] }), (error: Error) => {
          assert.ok(error instanceof StartRefused);
          assert.match(
            error.message,
            new RegExp(`cannot re-encrypt server_secrets: it holds values encrypted under key ${keyId(stored)}, which is not among SECRETS_KEY's keys`),
          );
          assert.ok(error.message.includes(keyId(key)), 'names the key the start has');
          assert.match(error.message, /Nothing was changed/);
          return true;
        });
        assert.deepEqual(await appliedMigrations(target), before, 'no migration ran');
        // With that key after the first, it starts and re-seals nothing yet (prepareSecrets does that).
        await prepareDatabase(db, { secretsKey: [key, stored] });
      } finally {
        await closeDatabase(target);
      }
    });
  });
}

test('PostgreSQL without SECRETS_KEY: refused before the schema is even made', { skip: pgBase ? false : 'TEST_DATABASE_URL is not set' }, async () => {
  const target = postgresUrl();
  const db = database(target);
  try {
    await assert.rejects(prepareDatabase(db, { secretsKey: [] }), (error: Error) => {
      assert.ok(error instanceof StartRefused);
      assert.match(error.message, /^SECRETS_KEY is required with PostgreSQL: .*`openssl rand -base64 32`.* Nothing was changed: no migration ran\.$/);
      return true;
    });
  } finally {
    await closeDatabase(target);
  }
  const client = new pg.Client(pgConnection(pgBase!).config);
  await client.connect();
  try {
    const { schema } = pgConnection(target);
    const { rows } = await client.query('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema]);
    assert.deepEqual(rows, []);
  } finally {
    await client.end();
  }
});

test('SQLite whose key file is gone: refused, naming the file to restore and the key id; no new key file', async () => {
  const target = sqliteUrl();
  const file = target.slice('file:'.length);
  await prepareDatabase(database(target), { secretsKey: [] });
  await closeDatabase(target);
  // What a first start without SECRETS_KEY leaves: a key file, and values sealed under it.
  const keyFile = keyFilePath(file);
  const fileKey = randomBytes(32);
  fs.writeFileSync(keyFile, `${fileKey.toString('base64url')}\n`, { mode: 0o600 });
  const sql = openSql(target);
  try {
    await sql.run('INSERT INTO server_secrets (name, value) VALUES (?, ?)', ['cookie_keys', keyringOf([fileKey]).seal('k', 'server_secrets:cookie_keys')]);
  } finally {
    await sql.close();
  }
  await prepareDatabase(database(target), { secretsKey: [] });
  await closeDatabase(target);
  fs.rmSync(keyFile); // restored without it
  const db = database(target);
  try {
    await assert.rejects(prepareDatabase(db, { secretsKey: [] }), (error: Error) => {
      assert.ok(error instanceof StartRefused);
      assert.ok(error.message.includes(`restore \`${keyFile}\` from your backup`), error.message);
      assert.ok(error.message.includes(`its id must be ${keyId(fileKey)}`), error.message);
      assert.ok(!error.message.includes(fileKey.toString('base64url')), 'never the key');
      return true;
    });
    assert.ok(!fs.existsSync(keyFile), 'no new key file');
  } finally {
    await closeDatabase(target);
  }
});
