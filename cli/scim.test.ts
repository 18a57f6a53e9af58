/**
 * `gatehouse scim token ...`, black-box against a temporary SQLite database: a token is printed once and stored
 * only as a hash, listed without it, revoked (audited both times); a missing name or action exits 2.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { closeDatabase, database } from '../lib/db/database.ts';
import { hashScimToken } from '../lib/scim/tokens.ts';
import { cliRunner, failure, ok } from './testing.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cli-scim-'));
const databaseUrl = `file:${path.join(dir, 'gatehouse.db')}`;
const gatehouse = cliRunner(databaseUrl);
after(async () => {
  await closeDatabase(databaseUrl);
  rmSync(dir, { recursive: true, force: true });
});

test('scim token create prints the token once, keeps its hash; list never shows it; revoke ends it; bad usage exits 2', async () => {
  const issued = JSON.parse(ok(await gatehouse(['scim', 'token', 'create', '--name', 'Okta', '--json'])).stdout) as Record<string, unknown>;
  const token = String(issued.token);
  assert.ok(token.length >= 43);
  const row = await database(databaseUrl).prisma.scimToken.findUniqueOrThrow({ where: { id: String(issued.id) } });
  assert.equal(row.tokenHash, hashScimToken(token));

  const listed = ok(await gatehouse(['scim', 'token', 'list', '--json'])).stdout;
  assert.ok(!listed.includes(token), 'never the token again');
  assert.equal((JSON.parse(listed) as Array<{ id: string }>)[0].id, issued.id);
  assert.match(ok(await gatehouse(['scim', 'token', 'list'])).stdout, /Okta\s+live\s+never/);

  ok(await gatehouse(['scim', 'token', 'revoke', String(issued.id)]));
  assert.match(ok(await gatehouse(['scim', 'token', 'list'])).stdout, /Okta\s+revoked/);
  const events = await database(databaseUrl).prisma.auditEvent.findMany({ where: { targetId: String(issued.id) }, orderBy: { at: 'asc' } });
  assert.deepEqual(
    events.map((e) => e.action),
    ['scim_token.issued', 'scim_token.revoked'],
  );

  const refused = async (argv: string[], code: number, message: RegExp) => {
    const run = await gatehouse(argv);
    assert.equal(run.code, code, argv.join(' '));
    assert.match(failure(run), message);
  };
  await refused(['scim', 'token', 'create'], 2, /--name/);
  await refused(['scim', 'token', 'rotate'], 2, /unknown action/);
  await refused(['scim', 'token', 'revoke', 'no-such-id'], 1, /no SCIM token/);
});
