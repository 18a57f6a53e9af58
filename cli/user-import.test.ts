/**
 * `gatehouse user import` and `gatehouse user export`, black-box on a temporary SQLite database:
 * the report of refused lines and exit 1, --dry-run, --json, a progress line only on a terminal,
 * idempotent re-runs, the format from the name or --format, and an export without a hash.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
import bcrypt from 'bcryptjs';
import { closeDatabase, database } from '../lib/db/database.ts';
import { migrate } from '../lib/db/migrate.ts';
import { runGatehouse } from './main.ts';
import { cliRunner, failure, ok } from './testing.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cli-import-'));
const url = `file:${path.join(dir, 'gatehouse.db')}`;
const gatehouse = cliRunner(url);
const file = (name: string, text: string) => {
  const where = path.join(dir, name);
  writeFileSync(where, text);
  return where;
};
const hash = bcrypt.hashSync('imported secret', 4);

before(async () => {
  await migrate(url);
  ok(await gatehouse(['group', 'create', 'staff']));
});
after(async () => {
  await closeDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

test('a file with a refused line: the others are imported, the report names the line and why, exit 1; again: nothing new', async () => {
  const people = file(
    'people.jsonl',
    [
      JSON.stringify({ external_id: '1', username: 'ann', email: 'ann@example.com', groups: ['staff'], password_hash: hash }),
      JSON.stringify({ external_id: '2', username: 'ben', groups: ['no-such-group'] }),
      JSON.stringify({ external_id: '3', username: 'cid', name: 'Cid' }),
    ].join('\n'),
  );
  const dry = await gatehouse(['user', 'import', people, '--dry-run']);
  assert.equal(dry.code, 1, dry.stderr);
  assert.match(dry.stdout, /Checked \(dry run, nothing written\) .*: 3 lines in [\d.]+ s, 2 to create, 0 to update, 0 unchanged, 1 refused\./);
  assert.equal(await database(url).prisma.user.count(), 0);

  const run = await gatehouse(['user', 'import', people]);
  assert.equal(run.code, 1);
  assert.match(run.stdout, /2 created, 0 updated, 0 unchanged, 1 refused\.\nRefused lines:\n {2}line 2: no group named no-such-group/);
  assert.ok(!run.stdout.includes('\x1b[K'), 'no progress line when stdout is not a terminal');

  const again = JSON.parse((await gatehouse(['user', 'import', people, '--json'])).stdout);
  assert.deepEqual(again, {
    lines: 3,
    created: 0,
    updated: 0,
    unchanged: 2,
    rejected: 1,
    dry_run: false,
    rejected_lines: [{ line: 2, reason: 'no group named no-such-group (create it first: gatehouse group create)' }],
  });
  assert.equal(await database(url).prisma.userImport.count({ where: { externalId: { in: ['1', '3'] } } }), 2);
});

test('CSV by its name, JSON lines from stdin with --format; a file of any other name needs --format; a clean file exits 0', async () => {
  const csv = file('people.csv', 'external_id,username,email_verified,email\r\n10,dora,true,dora@example.com\r\n');
  ok(await gatehouse(['user', 'import', csv]));
  const fromStdin = await gatehouse(['user', 'import', '-', '--format', 'jsonl'], { input: `${JSON.stringify({ external_id: '11', username: 'eve' })}\n` });
  assert.match(ok(fromStdin).stdout, /1 created/);
  const unnamed = file('people.txt', '');
  const refused = await gatehouse(['user', 'import', unnamed]);
  assert.equal(refused.code, 2);
  assert.match(failure(refused), /--format jsonl\|csv/);
  assert.equal((await gatehouse(['user', 'import', path.join(dir, 'missing.jsonl')])).code, 2);
});

test('on a terminal a progress line is rewritten in place as batches are written', async () => {
  const lines = Array.from({ length: 1200 }, (_, i) => JSON.stringify({ external_id: `p${i}`, username: `progress${i}` })).join('\n');
  const people = file('many.jsonl', lines);
  let stdout = '';
  const code = await (async () => {
    const saved = process.env;
    process.env = { ...saved, DATABASE_URL: url };
    try {
      return await runGatehouse(['user', 'import', people], {
        stdin: Readable.from([]),
        stdout: { isTTY: true, write: (text: string) => (stdout += text) },
        stderr: { write: () => true },
      });
    } finally {
      process.env = saved;
    }
  })();
  assert.equal(code, 0);
  assert.ok(stdout.includes('\r\x1b[K500 lines: 500 created'), stdout);
  assert.ok(stdout.includes('\r\x1b[K1200 lines: 1200 created'), stdout);
});

test('the export: JSON lines on stdout or CSV to a file, never a hash', async () => {
  const jsonl = ok(await gatehouse(['user', 'export'])).stdout;
  const ann = jsonl
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .find((p) => p.username === 'ann');
  assert.deepEqual([ann.external_id, ann.groups, ann.has_password], ['1', ['staff'], true]);
  assert.doesNotMatch(jsonl, /\$2[aby]\$/);
  const out = path.join(dir, 'people-out.csv');
  const written = ok(await gatehouse(['user', 'export', '--output', out, '--json']));
  assert.equal(JSON.parse(written.stdout).format, 'csv');
  const csv = readFileSync(out, 'utf8');
  assert.match(csv, /^id,external_id,username,/);
  assert.equal(csv.trim().split('\r\n').length - 1, JSON.parse(written.stdout).people);
  assert.doesNotMatch(csv, /\$2[aby]\$/);
});
