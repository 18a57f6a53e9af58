/**
 * migrate() on a fresh SQLite file and (with TEST_DATABASE_URL) a fresh
 * PostgreSQL schema: tables created, history recorded as `prisma migrate
 * deploy` records it, second run a no-op, and the migrations in step with
 * prisma/schema/models.prisma. Run: npx tsx --test lib/db/migrate.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { type DatabaseKind, diffSchemaSql, migrate, pgConnection, prismaDir } from './migrate.ts';

const TABLES = ['_prisma_migrations', 'clients', 'oidc_model_instances', 'signing_keys', 'users'];

function migrationsOnDisk(kind: DatabaseKind): { name: string; checksum: string }[] {
  const dir = path.join(prismaDir(kind), 'migrations');
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort()
    .map((name) => ({
      name,
      checksum: createHash('sha256')
        .update(fs.readFileSync(path.join(dir, name, 'migration.sql')))
        .digest('hex'),
    }));
}

test('sqlite and postgresql histories have the same migrations', () => {
  assert.deepEqual(
    migrationsOnDisk('sqlite').map((m) => m.name),
    migrationsOnDisk('postgresql').map((m) => m.name),
  );
});

test('sqlite: a fresh file (in a missing folder) gets every table; a second run applies nothing', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-migrate-test-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'nested', 'gatehouse.db');
  const url = `file:${file}`;
  const expected = migrationsOnDisk('sqlite');

  const first = await migrate(url);
  assert.deepEqual(
    first.applied,
    expected.map((m) => m.name),
  );

  const db = new Database(file, { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    for (const table of TABLES) assert.ok(tables.includes(table), `table ${table} missing`);
    // What `prisma migrate deploy` writes: finished, one step, sha256 of the file.
    const rows = db
      .prepare(
        'SELECT migration_name AS name, checksum FROM _prisma_migrations WHERE finished_at IS NOT NULL AND applied_steps_count = 1 ORDER BY migration_name',
      )
      .all();
    assert.deepEqual(rows, expected);
  } finally {
    db.close();
  }

  const started = performance.now();
  const second = await migrate(url);
  t.diagnostic(`no-op migrate on SQLite: ${Math.round(performance.now() - started)} ms`);
  assert.deepEqual(second.applied, []);
  // Catches a models.prisma change without `npm run db:migrate -- --create <name>`.
  assert.equal(await diffSchemaSql('sqlite', url), '', 'prisma/schema/models.prisma has changes no migration makes');
});

test('postgresql: a fresh schema gets every table; a second run and a concurrent run apply nothing', async (t) => {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) {
    t.skip('TEST_DATABASE_URL is unset: set it (e.g. postgresql://postgres@127.0.0.1:5432/test) to test PostgreSQL');
    return;
  }
  const schema = `gh_test_${randomBytes(6).toString('hex')}`;
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  const client = new pg.Client(pgConnection(base).config);
  await client.connect();
  t.after(async () => {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });
  const expected = migrationsOnDisk('postgresql');

  // Two at once, as when several instances start together: the engine's
  // advisory lock lets one apply and the other find nothing left to do.
  const runs = await Promise.all([migrate(url.toString()), migrate(url.toString())]);
  assert.deepEqual(
    runs.map((r) => r.applied).sort((a, b) => a.length - b.length),
    [[], expected.map((m) => m.name)],
  );

  const { rows: tables } = await client.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [schema]);
  for (const table of TABLES)
    assert.ok(
      tables.some((r) => r.table_name === table),
      `table ${table} missing in ${schema}`,
    );
  const { rows } = await client.query(
    `SELECT migration_name AS name, checksum FROM "${schema}"._prisma_migrations WHERE finished_at IS NOT NULL AND applied_steps_count = 1 ORDER BY migration_name`,
  );
  assert.deepEqual(rows, expected);

  const started = performance.now();
  const again = await migrate(url.toString());
  t.diagnostic(`no-op migrate on PostgreSQL: ${Math.round(performance.now() - started)} ms`);
  assert.deepEqual(again.applied, []);
  assert.equal(await diffSchemaSql('postgresql', url.toString()), '', 'prisma/schema/models.prisma has changes no migration makes');
});
