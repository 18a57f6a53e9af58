// runs-on: databases
// Importing people through the admin API with hashes the real tools made (bcrypt from bcryptjs, argon2i from
// @node-rs/argon2, scrypt from node:crypto, a Keycloak realm export's PBKDF2-SHA512 credential), then signing
// in through openid-client with the original passwords; the export holds no hash and imports again.
import assert from 'node:assert/strict';
import { pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import { test } from 'node:test';
import { hash as argon2Hash } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import * as oidc from 'openid-client';
import { database } from '../../lib/db/database.ts';
import { adminToken, makeAdminApiClient } from '../support/admin-api.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { authorizationRequest, baseUrl, databaseUrl, makeClient } from '../support/fixtures.ts';

const tag = randomBytes(4).toString('hex');
const b64 = (bytes: Buffer) => bytes.toString('base64');
const unpadded = (bytes: Buffer) => b64(bytes).replace(/=+$/, '');

async function send(method: 'POST' | 'GET', path: string, token: string, body?: string, contentType?: string) {
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers: { authorization: `Bearer ${token}`, ...(contentType ? { 'content-type': contentType } : {}) },
    body,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function people() {
  const salt = randomBytes(16);
  return [
    {
      external_id: `php-${tag}`,
      username: `php-${tag}`,
      email: `php-${tag}@example.com`,
      email_verified: true,
      password: 'from a php app',
      hash: { password_hash: bcrypt.hashSync('from a php app', 8).replace(/^\$2b\$/, '$2y$') },
    },
    {
      external_id: `argon-${tag}`,
      username: `argon-${tag}`,
      password: 'argon two i',
      hash: { password_hash: await argon2Hash('argon two i', { algorithm: 1, memoryCost: 8192, timeCost: 3 }) },
    },
    {
      external_id: `scrypt-${tag}`,
      username: `scrypt-${tag}`,
      password: 'scrypt secret',
      hash: { password_hash: `$scrypt$ln=14,r=8,p=1$${unpadded(salt)}$${unpadded(scryptSync('scrypt secret', salt, 32, { N: 2 ** 14, r: 8, p: 1 }))}` },
    },
    {
      external_id: `kc-${tag}`,
      username: `keycloak-${tag}`,
      password: 'keycloak secret',
      hash: {
        credentials: [
          {
            type: 'password',
            secretData: JSON.stringify({ value: b64(pbkdf2Sync('keycloak secret', salt, 27500, 64, 'sha512')), salt: b64(salt), additionalParameters: {} }),
            credentialData: JSON.stringify({ hashIterations: 27500, algorithm: 'pbkdf2-sha512', additionalParameters: {} }),
          },
        ],
      },
    },
  ];
}

/** The login form's answer to a password: the client's callback, or undefined when the form came back. */
async function tryPassword(client: Awaited<ReturnType<typeof makeClient>>, username: string, password: string) {
  const { url } = await authorizationRequest(client);
  const browser = new TestBrowser(baseUrl);
  const login = await browser.navigate(url);
  const after = await browser.submit(await login.response.text(), '/login', { username, password });
  return after.location;
}

test('imported people sign in with their original passwords through openid-client, wrong ones are refused, and the hash becomes argon2id', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const list = await people();
  const body = `${list.map(({ password: _, hash, ...person }) => JSON.stringify({ ...person, ...hash })).join('\n')}\n{"external_id":"bad-${tag}"}\n`;

  const dry = await send('POST', '/api/admin/users/import?dry_run=true', token, body, 'application/x-ndjson');
  assert.equal(dry.status, 200, dry.text);
  assert.equal(JSON.parse(dry.text).created, 4);
  assert.equal(await database(databaseUrl).prisma.userImport.count({ where: { externalId: `php-${tag}` } }), 0, 'a dry run writes nothing');

  const imported = await send('POST', '/api/admin/users/import', token, body, 'application/x-ndjson');
  assert.equal(imported.status, 200, imported.text);
  assert.equal(imported.headers.get('cache-control'), 'no-store');
  const report = JSON.parse(imported.text);
  assert.deepEqual({ lines: report.lines, created: report.created, rejected: report.rejected }, { lines: 5, created: 4, rejected: 1 });
  assert.equal(report.rejected_lines[0].line, 5);
  assert.match(report.rejected_lines[0].reason, /username/);

  const client = await makeClient();
  for (const person of list) {
    assert.equal(await tryPassword(client, person.username, `${person.password} but wrong`), undefined, `${person.username}: a wrong password is refused`);
    const { config, verifier, state, url } = await authorizationRequest(client);
    const callback = await authorize(new TestBrowser(baseUrl), url, { username: person.username, password: person.password });
    const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    const row = (
      await database(databaseUrl).prisma.userImport.findUnique({
        where: { externalId: person.external_id },
        select: { user: { select: { id: true, passwordHash: true } } },
      })
    )?.user;
    assert.equal(tokens.claims()?.sub, row?.id, `${person.username} signed in as themselves`);
    assert.match(row!.passwordHash!, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/, `${person.username}: rehashed at the first sign-in`);
    assert.ok(await tryPassword(client, person.username, person.password), `${person.username}: the same password signs in after the rehash`);
  }

  const again = JSON.parse((await send('POST', '/api/admin/users/import', token, body, 'application/x-ndjson')).text);
  assert.deepEqual({ created: again.created, rejected: again.rejected }, { created: 0, rejected: 1 }, 'importing again makes no second account');
});

test('the export streams every person as JSON lines or CSV without a hash; an auditor may export but not import', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const csv = `external_id,username,name\r\ncsv-${tag},csv-${tag},"Export, Me"\r\n`;
  const imported = await send('POST', '/api/admin/users/import', token, csv, 'text/csv');
  assert.equal(JSON.parse(imported.text).created, 1, imported.text);

  const lines = await send('GET', '/api/admin/users/export', token);
  assert.equal(lines.status, 200);
  assert.match(lines.headers.get('content-type') ?? '', /^application\/x-ndjson/);
  assert.equal(lines.headers.get('cache-control'), 'no-store');
  const mine = lines.text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line))
    .find((p) => p.external_id === `csv-${tag}`);
  assert.equal(mine.name, 'Export, Me');
  assert.equal(mine.has_password, false);
  assert.doesNotMatch(lines.text, /\$2[aby]\$|\$argon2|\$scrypt|\$pbkdf2|password_hash/);

  const table = await send('GET', '/api/admin/users/export?format=csv', token);
  assert.match(table.headers.get('content-type') ?? '', /^text\/csv/);
  assert.match(table.text, /^id,external_id,username,email,email_verified,name,disabled,role,groups,has_password,created_at,updated_at\r\n/);
  assert.match(table.text, new RegExp(`csv-${tag},csv-${tag},,false,"Export, Me"`));

  const auditor = await adminToken(await makeAdminApiClient('auditor'));
  assert.equal((await send('GET', '/api/admin/users/export', auditor)).status, 200);
  const refused = await send('POST', '/api/admin/users/import', auditor, csv, 'text/csv');
  assert.equal(refused.status, 403);
  assert.equal(JSON.parse(refused.text).error, 'forbidden');
  const untyped = await send('POST', '/api/admin/users/import', token, csv, 'text/plain');
  assert.equal(untyped.status, 400);
  assert.match(JSON.parse(untyped.text).error_description, /x-ndjson or text\/csv/);
});

test('a file far larger than a JSON body is taken: the import route has a limit of its own (16 MiB)', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ external_id: `big-${tag}-${i}`, username: `big-${tag}-${i}`, name: 'x'.repeat(60) }));
  const body = `${lines.join('\n')}\n`;
  assert.ok(Buffer.byteLength(body) > 200 * 1024);
  const answer = await send('POST', '/api/admin/users/import', token, body, 'application/x-ndjson');
  assert.equal(answer.status, 200, answer.text.slice(0, 300));
  assert.equal(JSON.parse(answer.text).created, 3000);
  const json = await fetch(new URL('/api/admin/users', baseUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'x', name: 'y'.repeat(70 * 1024) }),
  });
  assert.equal(json.status, 413, 'every other admin path keeps its 64 kB');
});
