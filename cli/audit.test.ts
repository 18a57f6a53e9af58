/**
 * `gatehouse audit verify` and `gatehouse audit export`, black-box on a temporary SQLite database: a chain the
 * CLI's own changes wrote verifies (exit 0), a row changed with SQL is named (exit 1); the export's lines carry
 * what their hashes cover, so the chain checks from the file alone, within the asked time range.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { entryHash, GENESIS_HASH } from '../lib/audit/chain.ts';
import { checkpointChain } from '../lib/audit/checkpoints.ts';
import { closeDatabase, database } from '../lib/db/database.ts';
import { migrate } from '../lib/db/migrate.ts';
import { insertSigningKey } from '../lib/db/secrets.ts';
import { generateSigningJwk } from '../lib/oidc/keys.ts';
import { cliRunner, ok } from './testing.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cli-audit-'));
const url = `file:${path.join(dir, 'gatehouse.db')}`;
const gatehouse = cliRunner(url);

before(async () => {
  await migrate(url);
  const jwk = generateSigningJwk('RS256');
  await insertSigningKey(database(url), { kid: jwk.kid, alg: 'RS256', privateJwk: jwk as unknown as Record<string, unknown> });
  for (const name of ['staff', 'ops', 'audit']) ok(await gatehouse(['group', 'create', name]));
  await checkpointChain(database(url), new Date());
});
after(async () => {
  await closeDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

test('audit verify: an intact chain exits 0; a row changed with SQL is named by seq and id, exit 1', async () => {
  const fine = await gatehouse(['audit', 'verify']);
  assert.equal(fine.code, 0, fine.stderr);
  assert.match(fine.stdout, /^The audit chain verifies: 3 entries \(seq 1 to 3\), 2 of 2 checkpoints verified\./);
  const json = JSON.parse((await gatehouse(['audit', 'verify', '--json'])).stdout);
  assert.deepEqual([json.ok, json.entries, json.problems], [true, 3, []]);

  const db = database(url);
  const { id } = (await db.sql.one<{ id: string }>('SELECT id FROM audit_events WHERE seq = 2'))!;
  await db.sql.run("UPDATE audit_events SET target_label = 'nobody' WHERE seq = 2");
  try {
    const broken = await gatehouse(['audit', 'verify']);
    assert.equal(broken.code, 1);
    assert.match(broken.stdout, /The audit chain is BROKEN/);
    assert.match(broken.stdout, new RegExp(`changed: entry ${id} \\(seq 2, `));
    const report = JSON.parse((await gatehouse(['audit', 'verify', '--json'])).stdout);
    assert.deepEqual([report.ok, report.problems[0].kind, report.problems[0].id], [false, 'changed', id]);
  } finally {
    await db.sql.run("UPDATE audit_events SET target_label = 'ops' WHERE seq = 2");
  }
  assert.equal((await gatehouse(['audit', 'verify', '--jwks', path.join(dir, 'none.json')])).code, 2, 'a --jwks that is not there');
});

test('audit export: JSON lines whose hashes check from the file alone, then the checkpoints; --since/--until bound it', async () => {
  const run = await gatehouse(['audit', 'export', '--since', new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)]);
  assert.equal(run.code, 0, run.stderr);
  const lines = run.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  const entries = lines.filter((line) => !line.checkpoint);
  assert.deepEqual(
    entries.map((e) => [e.seq, e.action, e.target_label]),
    [
      [1, 'group.created', 'staff'],
      [2, 'group.created', 'ops'],
      [3, 'group.created', 'audit'],
    ],
  );
  let prev = GENESIS_HASH;
  for (const e of entries) {
    const fields = { ...e, at: new Date(e.at), actorId: e.actor_id, actorUsername: e.actor_username, actorRole: e.actor_role };
    Object.assign(fields, { targetType: e.target_type, targetId: e.target_id, targetLabel: e.target_label, userAgent: e.user_agent });
    assert.equal(e.prev_hash, prev);
    assert.equal(entryHash(fields, prev), e.hash, `entry ${e.seq} hashes as exported`);
    prev = e.hash;
  }
  assert.deepEqual(
    lines.filter((line) => line.checkpoint).map((line) => [line.checkpoint.reason, line.checkpoint.seq]),
    [
      ['genesis', 0],
      ['periodic', 3],
    ],
  );
  assert.equal((await gatehouse(['audit', 'export', '--until', '2000-01-01'])).stdout, '', 'nothing that old');
  const bad = await gatehouse(['audit', 'export', '--since', 'yesterday']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--since is a date/);
});
