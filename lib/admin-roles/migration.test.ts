/**
 * The admin_roles migration on a database that already holds people and admin-API clients: whoever had the one
 * admin role before is an owner after it, nobody else changes, and admin-API clients act as `admin` (the column's
 * default), through the real schema engine. On SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import pg from 'pg';
import { closeDatabase, database } from '../db/database.ts';
import { migrate, pgConnection, type DatabaseKind } from '../db/migrate.ts';
import { openSql } from '../db/sql.ts';
import { findClient } from '../clients/repository.ts';
import { findUserById } from '../users/repository.ts';

const root = process.cwd();
const MIGRATION = fs.readdirSync(path.join(root, 'prisma', 'sqlite', 'migrations')).find((name) => name.endsWith('_admin_roles'))!;

/** A project folder whose migrations stop just before admin_roles (migrate() reads them from the working directory); `complete()` adds the rest. */
function projectBefore(kind: DatabaseKind) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-admin-roles-'));
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

async function adminsBecomeOwners(kind: DatabaseKind, url: string) {
  const project = projectBefore(kind);
  await inProject(project.dir, () => migrate(url));
  const t = randomBytes(3).toString('hex');
  const now = kind === 'sqlite' ? Date.now() : new Date().toISOString();
  const yes = kind === 'sqlite' ? 1 : true;
  const sql = openSql(url);
  try {
    for (const [id, role] of [
      [`admin-${t}`, 'admin'],
      [`user-${t}`, 'user'],
      [`disabled-admin-${t}`, 'admin'],
    ]) {
      await sql.run('INSERT INTO users (id, username, username_key, password_hash, role, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        id,
        id,
        id,
        `hash-of-${id}`,
        role,
        now,
        now,
      ]);
    }
    await sql.run(
      'INSERT INTO clients (id, name, secret_hash, redirect_uris, grant_types, scope, token_endpoint_auth_method, admin_api, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [`bot-${t}`, 'Automation', 'hash', '[]', '["client_credentials"]', 'admin', 'client_secret_basic', yes, now, now],
    );
  } finally {
    await sql.close();
  }

  project.complete();
  const { applied } = await inProject(project.dir, () => migrate(url));
  assert.equal(applied[0], MIGRATION);

  const db = database(url);
  try {
    assert.equal((await findUserById(db, `admin-${t}`))?.role, 'owner', 'the admin of before is an owner: nothing changes for them');
    assert.equal((await findUserById(db, `disabled-admin-${t}`))?.role, 'owner');
    assert.equal((await findUserById(db, `user-${t}`))?.role, 'user');
    const client = await findClient(db, `bot-${t}`);
    assert.deepEqual([client?.adminApi, client?.adminRole], [true, 'admin'], 'an admin-API client acts as admin');
    const [{ n }] = await db.sql.all<{ n: number | string }>("SELECT count(*) AS n FROM users WHERE role = 'admin'");
    assert.equal(Number(n), 0);
  } finally {
    await closeDatabase(url);
  }
}

test('sqlite: every admin of before is an owner after the migration; admin-API clients act as admin', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gh-admin-roles-db-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  await adminsBecomeOwners('sqlite', `file:${path.join(dir, 'gatehouse.db')}`);
});

test('postgresql: the same', async (t) => {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) return t.skip('TEST_DATABASE_URL is not set');
  const schema = `gh_admin_roles_${randomBytes(4).toString('hex')}`;
  const url = new URL(base);
  url.searchParams.set('schema', schema);
  after(async () => {
    const client = new pg.Client(pgConnection(base).config);
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });
  await adminsBecomeOwners('postgresql', url.toString());
});
