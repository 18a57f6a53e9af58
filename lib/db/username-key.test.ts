/**
 * The *_username_key migration on a database that already holds usernames
 * differing only in case (`admin`, `Admin`, `ADMIN`): it applies, through the
 * real schema engine, keeps every account, gives the oldest the plain key and
 * the others a distinct one; each still signs in with its own spelling, any
 * other spelling reaches the oldest, reportUsernameClashes names the group,
 * and renaming them apart ends the clash.
 * On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { closeDatabase, database } from './database.ts';
import { migrate, pgConnection, type DatabaseKind } from './migrate.ts';
import { openSql } from './sql.ts';
import { findCredentials, findUserByUsername } from '../users/repository.ts';
import { reportUsernameClashes } from '../users/username-clashes.ts';
import { Conflict } from '../platform/errors.ts';
import { renameUser, userIdByUsername } from '../users/manage.ts';

const root = process.cwd();
const MIGRATION = fs.readdirSync(path.join(root, 'prisma', 'sqlite', 'migrations')).find((name) => name.endsWith('_username_key'))!;

/**
 * A project folder whose prisma/<kind>/migrations stop just before the
 * username_key migration (migrate() reads them from the working directory);
 * `complete()` then adds the rest.
 */
function projectBefore(kind: DatabaseKind) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-username-key-'));
  fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'));
  fs.copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'));
  const from = path.join(root, 'prisma', kind);
  const to = path.join(dir, 'prisma', kind);
  fs.mkdirSync(path.join(to, 'migrations'), { recursive: true });
  for (const file of ['schema.prisma', 'models.prisma']) fs.copyFileSync(path.join(from, file), path.join(to, file));
  const all = fs.readdirSync(path.join(from, 'migrations')).sort();
  const copy = (name: string) => fs.cpSync(path.join(from, 'migrations', name), path.join(to, 'migrations', name), { recursive: true });
  all.filter((name) => !fs.statSync(path.join(from, 'migrations', name)).isDirectory() || name < MIGRATION).forEach(copy);
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return { dir, complete: () => all.filter((name) => name >= MIGRATION).forEach(copy) };
}

async function inProject<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  process.chdir(dir);
  try {
    return await fn();
  } finally {
    process.chdir(root);
  }
}

async function clashingUsersSurviveTheMigration(kind: DatabaseKind, url: string) {
  const project = projectBefore(kind);
  await inProject(project.dir, () => migrate(url));
  const sql = openSql(url);
  const t = randomBytes(3).toString('hex');
  // The oldest first: it keeps the plain key.
  const rows = [
    [`a-${t}`, `admin${t}`, '2026-01-01T00:00:00.000Z'],
    [`b-${t}`, `Admin${t}`, '2026-01-02T00:00:00.000Z'],
    [`c-${t}`, `ADMIN${t}`, '2026-01-03T00:00:00.000Z'],
    [`d-${t}`, `bob${t}`, '2026-01-04T00:00:00.000Z'],
  ];
  try {
    for (const [id, username, at] of rows) {
      const created = kind === 'sqlite' ? Date.parse(at) : at;
      await sql.run('INSERT INTO users (id, username, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', [
        id,
        username,
        `hash-of-${id}`,
        created,
        created,
      ]);
    }
  } finally {
    await sql.close();
  }

  project.complete();
  const { applied } = await inProject(project.dir, () => migrate(url));
  assert.deepEqual(applied.slice(0, 1), [MIGRATION]);

  const db = database(url);
  try {
    const keys = await db.sql.all<{ id: string; username_key: string }>('SELECT id, username_key FROM users ORDER BY id');
    assert.deepEqual(keys, [
      { id: `a-${t}`, username_key: `admin${t}` },
      { id: `b-${t}`, username_key: `admin${t}#b-${t}` },
      { id: `c-${t}`, username_key: `admin${t}#c-${t}` },
      { id: `d-${t}`, username_key: `bob${t}` },
    ]);
    // Each keeps its own spelling; any other spelling reaches the oldest.
    assert.equal((await findCredentials(db, `Admin${t}`))?.id, `b-${t}`);
    assert.equal((await findCredentials(db, `ADMIN${t}`))?.id, `c-${t}`);
    assert.equal((await findCredentials(db, `aDmIn${t}`))?.id, `a-${t}`);
    assert.equal((await findUserByUsername(db, `BOB${t}`))?.id, `d-${t}`);

    const lines: string[] = [];
    const groups = await reportUsernameClashes(db, (line) => lines.push(line));
    assert.deepEqual(groups, [[`admin${t}`, `Admin${t}`, `ADMIN${t}`]]);
    assert.equal(lines.length, 1);
    assert.match(lines[0], new RegExp(`differ only in case: "admin${t}", "Admin${t}", "ADMIN${t}"`));
    assert.doesNotMatch(lines[0], /hash-of/);

    // Renamed apart, they stop clashing; when the plain key's holder goes, the next oldest takes it over.
    await renameUser(db, await userIdByUsername(db, `Admin${t}`), `second-admin${t}`);
    await assert.rejects(
      renameUser(db, await userIdByUsername(db, `bob${t}`), `ADMIN${t.toUpperCase()}`),
      (e: unknown) => e instanceof Conflict && e.field === 'username',
    );
    await renameUser(db, await userIdByUsername(db, `admin${t}`), `root${t}`);
    assert.equal((await findCredentials(db, `aDmIn${t}`))?.id, `c-${t}`, 'ADMIN now holds the plain key');
    assert.equal((await findCredentials(db, `Second-Admin${t}`))?.id, `b-${t}`);
    assert.deepEqual(await reportUsernameClashes(db, () => {}), []);
  } finally {
    await closeDatabase(url);
  }
}

test('sqlite: clashing usernames do not fail the migration, stay distinct and are reported', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-username-key-db-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  await clashingUsersSurviveTheMigration('sqlite', `file:${path.join(dir, 'gatehouse.db')}`);
});

test('postgresql: the same', async (t) => {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return t.skip('TEST_DATABASE_URL is not set');
  const schema = `gh_username_key_${randomBytes(4).toString('hex')}`;
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  after(async () => {
    const client = new pg.Client(pgConnection(base).config);
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });
  await clashingUsersSurviveTheMigration('postgresql', url.toString());
});

test('no clashes, no report', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-username-key-none-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const url = `file:${path.join(dir, 'gatehouse.db')}`;
  await migrate(url);
  const lines: string[] = [];
  try {
    assert.deepEqual(await reportUsernameClashes(database(url), (line) => lines.push(line)), []);
    assert.deepEqual(lines, []);
  } finally {
    await closeDatabase(url);
  }
});
