// The SQLite files on the host: owner-only from the first start whatever the umask, and an older installation narrowed at its next start.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { ModeReport } from './file-modes.ts';
import { openSql } from './sql.ts';

const root = mkdtempSync(join(tmpdir(), 'gatehouse-modes-'));
after(() => rmSync(root, { recursive: true, force: true }));
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

test('a fresh data folder under umask 022: the folder 0700, the database and its -wal and -shm 0600', async () => {
  const umask = process.umask(0o022);
  try {
    const file = join(root, 'fresh', 'data', 'gatehouse.db');
    const narrowed: string[][] = [];
    const sql = openSql(`file:${file}`, undefined, { onOpenModes: (report) => narrowed.push(report.narrowed) });
    await sql.run('CREATE TABLE t (x INTEGER)');
    await sql.run('INSERT INTO t VALUES (1)');
    assert.deepEqual(
      [join(root, 'fresh', 'data'), file, `${file}-wal`, `${file}-shm`].map((path) => [path, mode(path)]),
      [
        [join(root, 'fresh', 'data'), '700'],
        [file, '600'],
        [`${file}-wal`, '600'],
        [`${file}-shm`, '600'],
      ],
    );
    assert.deepEqual(narrowed, [], 'nothing to report on a first start');
    await sql.close();
  } finally {
    process.umask(umask);
  }
});

test('an installation made before: its files and its own folder narrowed, and reported; a shared folder left as it is', async () => {
  const folder = join(root, 'old');
  mkdirSync(folder, { mode: 0o755 });
  chmodSync(folder, 0o755);
  const file = join(folder, 'gatehouse.db');
  const first = openSql(`file:${file}`);
  await first.run('CREATE TABLE t (x INTEGER)');
  await first.close();
  for (const path of [folder, file]) chmodSync(path, path === folder ? 0o755 : 0o644);
  writeFileSync(`${file}-wal`, '');
  chmodSync(`${file}-wal`, 0o644);

  const reports: ModeReport[] = [];
  const again = openSql(`file:${file}`, undefined, { onOpenModes: (report) => reports.push(report) });
  // The handle opens the file at its first statement (lib/db/sql.ts): the narrowing comes with it.
  assert.equal((await again.all<{ x: number }>('SELECT x FROM t')).length, 0, 'the database still opens');
  assert.deepEqual(reports, [{ narrowed: [folder, file, `${file}-wal`], refused: [] }]);
  assert.deepEqual([mode(folder), mode(file), mode(`${file}-wal`)], ['700', '600', '600']);
  await again.close();

  const shared = join(root, 'shared');
  mkdirSync(shared, { mode: 0o755 });
  chmodSync(shared, 0o755);
  writeFileSync(join(shared, 'notes.txt'), 'someone else’s');
  const beside = openSql(`file:${join(shared, 'gatehouse.db')}`);
  await beside.run('CREATE TABLE t (x INTEGER)');
  assert.deepEqual([mode(shared), mode(join(shared, 'gatehouse.db'))], ['755', '600']);
  await beside.close();
});
