import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { insertRows, openSql, type Sql } from './sql.ts';

// SQLite group commit: writes issued together share one transaction, and each caller still learns its own outcome.
let dir: string;
let sql: Sql;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'gatehouse-sql-'));
  sql = openSql(`file:${join(dir, 'test.db')}`);
  await sql.run('CREATE TABLE t (id TEXT PRIMARY KEY, used INTEGER)');
});

after(async () => {
  await sql.close();
  rmSync(dir, { recursive: true, force: true });
});

test('concurrent writes each resolve with their own change count, in order', async () => {
  const results = await Promise.all([
    sql.run('INSERT INTO t (id, used) VALUES (?, 0)', ['a']),
    sql.run('INSERT INTO t (id, used) VALUES (?, 0)', ['b']),
    sql.run('UPDATE t SET used = 1 WHERE id = ? AND used = 0', ['a']),
    // The same conditional update again: it runs after the first, so it changes nothing.
    sql.run('UPDATE t SET used = 1 WHERE id = ? AND used = 0', ['a']),
    sql.run('DELETE FROM t WHERE id = ?', ['missing']),
  ]);
  assert.deepEqual(results, [1, 1, 1, 0, 0]);
  assert.deepEqual(await sql.all('SELECT id, used FROM t ORDER BY id'), [
    { id: 'a', used: 1 },
    { id: 'b', used: 0 },
  ]);
});

test('a failing statement rejects only its caller; the others in its batch are committed', async () => {
  const [ok, duplicate, later] = await Promise.allSettled([
    sql.run('INSERT INTO t (id, used) VALUES (?, 0)', ['c']),
    sql.run('INSERT INTO t (id, used) VALUES (?, 0)', ['a']),
    sql.run('INSERT INTO t (id, used) VALUES (?, 0)', ['d']),
  ]);
  assert.deepEqual(ok, { status: 'fulfilled', value: 1 });
  assert.equal(duplicate.status, 'rejected');
  assert.match(String((duplicate as PromiseRejectedResult).reason), /UNIQUE/);
  assert.deepEqual(later, { status: 'fulfilled', value: 1 });
  const ids = (await sql.all<{ id: string }>('SELECT id FROM t ORDER BY id')).map((row) => row.id);
  assert.deepEqual(ids, ['a', 'b', 'c', 'd']);
});

test('many rows go in as runs of 128, 64, …, 1 rows: a few statement shapes, whatever the count', async () => {
  const rows = Array.from({ length: 203 }, (_, i) => [`many-${i}`, i]);
  const statements = insertRows('INSERT INTO t (id, used)', rows);
  assert.deepEqual(
    statements.map(([, params]) => params.length / 2),
    [128, 64, 8, 2, 1],
  );
  for (const [text, params] of statements) await sql.run(text, params);
  const stored = await sql.all<{ id: string; used: number }>("SELECT id, used FROM t WHERE id LIKE 'many-%' ORDER BY used");
  assert.deepEqual(
    stored.map((row) => [row.id, row.used]),
    rows,
  );
  await sql.run("DELETE FROM t WHERE id LIKE 'many-%'");
});

test('a write is visible to reads once its promise resolves', async () => {
  await sql.run('INSERT INTO t (id, used) VALUES (?, 0)', ['e']);
  assert.deepEqual(await sql.one('SELECT used FROM t WHERE id = ?', ['e']), { used: 0 });
});

test('a background thread checkpoints the WAL into the database file', async () => {
  const path = join(dir, 'checkpoint.db');
  const own = openSql(`file:${path}`);
  try {
    await own.run('CREATE TABLE big (id INTEGER PRIMARY KEY, body TEXT)');
    await Promise.all(Array.from({ length: 200 }, (_, i) => own.run('INSERT INTO big (id, body) VALUES (?, ?)', [i, 'x'.repeat(1000)])));
    // ~60 pages: far below SQLite's own 1,000-page automatic checkpoint, so only the thread moves them.
    const before = statSync(path).size;
    let after = before;
    for (let i = 0; i < 40 && after <= before; i++) {
      await new Promise((r) => setTimeout(r, 50));
      after = statSync(path).size;
    }
    assert.ok(after > before + 100_000, `database file grew from ${before} to ${after} bytes`);
    assert.deepEqual(await own.one('SELECT COUNT(*) AS n FROM big'), { n: 200 });
  } finally {
    await own.close();
  }
});

test('the checkpoint thread never keeps a process alive (a CLI command exits when done)', () => {
  const script = `import { openSql } from ${JSON.stringify(join(process.cwd(), 'lib/db/sql.ts'))};
const sql = openSql(${JSON.stringify(`file:${join(dir, 'exit.db')}`)});
await sql.run('CREATE TABLE t (id INTEGER)');`;
  // A file, not --eval: an --eval script's process exits even with a live handle.
  const file = join(dir, 'exit-check.mts');
  writeFileSync(file, script);
  const result = spawnSync(process.execPath, [file], { timeout: 15_000 });
  assert.equal(result.signal, null, 'the process had to be killed');
  assert.equal(result.status, 0, String(result.stderr));
});

test('statements a thread prepared are freed safely when the thread stops (better-sqlite3 12 aborted Node 24 here)', () => {
  // The checkpoint thread's pattern: db.pragma() prepares a statement per call, then the thread
  // stops with statements left for the garbage collector. With node::ObjectWrap (better-sqlite3 12)
  // Node 24 aborted on "Assertion failed: (env) != nullptr" every time; Node-API frees them in order.
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const thread = join(dir, 'thread-statements.cjs');
  writeFileSync(
    thread,
    `const db = new (require(${JSON.stringify(driver)}))(':memory:');
for (let i = 0; i < 5000; i++) db.pragma('user_version');
require('node:worker_threads').parentPort.postMessage('done');`,
  );
  const file = join(dir, 'threads.cjs');
  writeFileSync(
    file,
    `const { Worker } = require('node:worker_threads');
(async () => {
  for (let i = 0; i < 10; i++) {
    const worker = new Worker(${JSON.stringify(thread)});
    await new Promise((resolve) => worker.once('message', resolve));
    await worker.terminate();
  }
})();`,
  );
  // Thousands of statements per thread left to the collector are as many as the abort needed; the limit is for a
  // machine busy with a build beside the tests (CI once passed 60 s here, while alone this takes 8 s with coverage).
  const result = spawnSync(process.execPath, [file], { timeout: 120_000 });
  assert.equal(result.signal, null, `ended by ${result.signal}: ${String(result.stderr).slice(0, 500)}`);
  assert.equal(result.status, 0, String(result.stderr).slice(0, 500));
});
