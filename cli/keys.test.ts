/**
 * `gatehouse keys list | rotate | retire | secrets-id`, black-box: the real CLI in a child
 * process on a temporary SQLite database whose first keys the test creates as
 * a server's first start would. Never key material on stdout or stderr.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { closeDatabase, database } from '../lib/db/database.ts';
import { listActiveSigningKeys } from '../lib/db/secrets.ts';
import { migrate } from '../lib/db/migrate.ts';
import { checkSigningKeys, rotationSettings } from '../lib/keys/signing-keys.ts';
import { cliRunner, failure, ok } from './testing.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cli-keys-'));
const url = `file:${path.join(dir, 'gatehouse.db')}`;
const gatehouse = cliRunner(url);
const ROTATION = { KEY_ROTATION_DAYS: '30', KEY_PUBLISH_AHEAD_HOURS: '48' };
const json = async (args: string[]) => JSON.parse(ok(await gatehouse([...args, '--json'])).stdout);

before(async () => {
  await migrate(url);
  await checkSigningKeys(database(url), rotationSettings({ KEY_ROTATION_DAYS: 90, KEY_PUBLISH_AHEAD_HOURS: 24 }), { now: Date.now() });
});
after(async () => {
  await closeDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

test('list: kid, alg, state and dates of each key, never its private or public parts', async () => {
  const keys = await json(['keys', 'list']);
  assert.deepEqual(keys.map((k: { alg: string; state: string }) => `${k.alg} ${k.state}`).sort(), ['ES256 current', 'RS256 current']);
  assert.deepEqual(Object.keys(keys[0]).sort(), ['activates_at', 'alg', 'created_at', 'kid', 'next_rotation', 'retire_after', 'state']);
  const text = ok(await gatehouse(['keys', 'list'], { env: ROTATION })).stdout;
  assert.match(text, /^KID\s+ALG\s+STATE\s+CREATED\s+SIGNS FROM\s+RETIRE AFTER/);
  for (const key of await listActiveSigningKeys(database(url))) {
    assert.ok(text.includes(key.kid));
    assert.ok(!text.includes(String(key.privateJwk.d)) && !text.includes(String(key.privateJwk.x ?? key.privateJwk.n)));
  }
});

test('list: when the next rotation of each algorithm publishes a key and when it signs; or that rotation is off', async () => {
  const keys = await json(['keys', 'list']);
  const settings = await gatehouse(['keys', 'list', '--json'], { env: ROTATION });
  for (const key of JSON.parse(ok(settings).stdout) as {
    state: string;
    activates_at: string;
    next_rotation: { publish_at: string; signs_from: string } | null;
  }[]) {
    if (key.state !== 'current') {
      assert.equal(key.next_rotation, null);
      continue;
    }
    // KEY_ROTATION_DAYS=30, KEY_PUBLISH_AHEAD_HOURS=48: published 28 days after the key began to sign, signing 2 days later.
    const began = Date.parse(key.activates_at);
    assert.equal(Date.parse(key.next_rotation!.publish_at), began + 28 * 86_400_000);
    assert.equal(Date.parse(key.next_rotation!.signs_from), began + 30 * 86_400_000);
  }
  const text = ok(await gatehouse(['keys', 'list'], { env: ROTATION })).stdout;
  assert.match(text, /Next rotation:\nES256: the next key is published from \S+ and signs from \S+\.\nRS256: /);
  const off = ok(await gatehouse(['keys', 'list'], { env: { KEY_ROTATION_DAYS: '0' } })).stdout;
  assert.match(off, /Automatic rotation is off \(KEY_ROTATION_DAYS=0\)/);
  assert.ok(keys.length > 0);
});

test('secrets-id: the id of the key file beside the database, of a key file given, and of SECRETS_KEY, without opening the database', async () => {
  const { keyId, keyFilePath, readKeyFile } = await import('../lib/db/keyring.ts');
  const file = keyFilePath(url.slice('file:'.length));
  // Made by the first start without SECRETS_KEY; the suite's unit tests run with one.
  if (!existsSync(file)) writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`);
  const beside = keyId(readKeyFile(file)!);
  const other = path.join(dir, 'backup.key');
  const otherKey = randomBytes(32);
  writeFileSync(other, `${otherKey.toString('base64url')}\n`);
  const configured = randomBytes(32);
  const ids = JSON.parse(ok(await gatehouse(['keys', 'secrets-id', other, '--json'], { env: { SECRETS_KEY: configured.toString('base64') } })).stdout);
  assert.deepEqual(ids, [
    { source: 'SECRETS_KEY #1 (encrypts)', id: keyId(configured) },
    { source: file, id: beside },
    { source: other, id: keyId(otherKey) },
  ]);
  // The id is a digest: never the key itself.
  const text = ok(await gatehouse(['keys', 'secrets-id', other])).stdout;
  assert.ok(text.includes(beside) && !text.includes(otherKey.toString('base64url')) && !text.includes(readFileSync(file, 'utf8').trim()));
  // A database that is not there is not created.
  const nowhere = path.join(dir, 'nowhere', 'none.db');
  ok(await gatehouse(['keys', 'secrets-id', other], { databaseUrl: `file:${nowhere}` }));
  assert.ok(!existsSync(nowhere));
  const missing = await gatehouse(['keys', 'secrets-id', path.join(dir, 'no.key')]);
  assert.equal(missing.code, 2);
  assert.match(failure(missing), /no file .*no\.key/);
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
