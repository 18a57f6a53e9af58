/**
 * `gatehouse keys list | rotate | retire`, black-box: the real CLI in a child
 * process on a temporary SQLite database whose first keys the test creates as
 * a server's first start would. Never key material on stdout or stderr.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { closeDatabase, database } from '../lib/db/database.ts';
import { listActiveSigningKeys } from '../lib/db/secrets.ts';
import { migrate } from '../lib/db/migrate.ts';
import { checkSigningKeys, rotationSettings } from '../lib/services/signing-keys.ts';
import { cliRunner, failure, ok } from './testing.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cli-keys-'));
const url = `file:${path.join(dir, 'gatehouse.db')}`;
const gatehouse = cliRunner(url);
const json = async (args: string[]) => JSON.parse(ok(await gatehouse([...args, '--json'])).stdout);

before(async () => {
  await migrate(url);
  await checkSigningKeys(database(url), rotationSettings({ KEY_ROTATION_DAYS: 90, KEY_PUBLISH_AHEAD_HOURS: 24 }));
});
after(async () => {
  await closeDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

test('list: kid, alg, state and dates of each key, never its private or public parts', async () => {
  const keys = await json(['keys', 'list']);
  assert.deepEqual(keys.map((k: { alg: string; state: string }) => `${k.alg} ${k.state}`).sort(), ['ES256 current', 'RS256 current']);
  assert.deepEqual(Object.keys(keys[0]).sort(), ['activates_at', 'alg', 'created_at', 'kid', 'retire_after', 'state']);
  const text = ok(await gatehouse(['keys', 'list'])).stdout;
  assert.match(text, /^KID\s+ALG\s+STATE\s+CREATED\s+SIGNS FROM\s+RETIRE AFTER/);
  for (const key of await listActiveSigningKeys(database(url))) {
    assert.ok(text.includes(key.kid));
    assert.ok(!text.includes(String(key.privateJwk.d)) && !text.includes(String(key.privateJwk.x ?? key.privateJwk.n)));
  }
});

test('rotate: a next key published a day ahead; --now makes it sign at once, with a warning; retire takes the old key out', async () => {
  const [old] = (await json(['keys', 'list'])).filter((k: { alg: string }) => k.alg === 'ES256');
  const [scheduled] = await json(['keys', 'rotate', '--alg', 'ES256']);
  assert.equal(scheduled.outcome, 'scheduled');
  const ahead = Date.parse(scheduled.activates_at) - Date.now();
  assert.ok(ahead > 23.9 * 3_600_000 && ahead <= 24 * 3_600_000, `signs in 24 hours, not ${ahead} ms`);

  const run = ok(await gatehouse(['keys', 'rotate', '--alg', 'ES256', '--now']));
  assert.match(run.stdout, new RegExp(`ES256: ${scheduled.kid} signs from now on`));
  assert.match(run.stderr, /Warning: the new key signs without having been published ahead/);
  const states = Object.fromEntries((await json(['keys', 'list'])).map((k: { kid: string; state: string }) => [k.kid, k.state]));
  assert.equal(states[scheduled.kid], 'current');
  assert.equal(states[old.kid], 'previous');

  const retired = ok(await gatehouse(['keys', 'retire', old.kid]));
  assert.match(retired.stdout, new RegExp(`Retired ${old.kid} \\(ES256, previous\\)`));
  assert.match(retired.stderr, /no longer verify/);
  assert.ok(!(await json(['keys', 'list'])).some((k: { kid: string }) => k.kid === old.kid));
  const audit = await database(url).sql.all<{ action: string; user_agent: string }>(
    "SELECT action, user_agent FROM audit_events WHERE action LIKE 'key.%' AND user_agent IS NOT NULL",
  );
  assert.deepEqual(audit.map((a) => a.action).sort(), ['key.created', 'key.retired', 'key.rotated']);
  assert.ok(audit.every((a) => a.user_agent === 'gatehouse-cli'));
});

test('refusals: the signing key (exit 1), an unknown kid (exit 1), an unknown algorithm (exit 2)', async () => {
  const [current] = (await json(['keys', 'list'])).filter((k: { state: string }) => k.state === 'current');
  const signing = await gatehouse(['keys', 'retire', current.kid]);
  assert.equal(signing.code, 1);
  assert.match(failure(signing), /signs the .* tokens: rotate first/);
  const unknown = await gatehouse(['keys', 'retire', 'no-such-kid']);
  assert.equal(unknown.code, 1);
  assert.match(failure(unknown), /no signing key with kid no-such-kid/);
  const alg = await gatehouse(['keys', 'rotate', '--alg', 'HS256']);
  assert.equal(alg.code, 2);
  assert.match(failure(alg), /--alg must be one of ES256, RS256/);
});
