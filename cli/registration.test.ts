/**
 * `gatehouse registration ...`, black-box against a temporary SQLite database: an initial access token is
 * printed once and stored only as a hash, listed with its limits, revoked; bad limits exit 2; a pending
 * self-registered client is approved, and approving one that waits for nothing exits 1.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { insertClient } from '../lib/clients/repository.ts';
import { closeDatabase, database } from '../lib/db/database.ts';
import { hashInitialAccessToken } from '../lib/registration/tokens.ts';
import { cliRunner, failure, ok } from './testing.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cli-registration-'));
const databaseUrl = `file:${path.join(dir, 'gatehouse.db')}`;
const gatehouse = cliRunner(databaseUrl);
after(async () => {
  await closeDatabase(databaseUrl);
  rmSync(dir, { recursive: true, force: true });
});

test('registration issue prints the token once, keeps its hash; list shows the limits, never the token; revoke ends it', async () => {
  const issued = JSON.parse(
    ok(
      await gatehouse([
        'registration',
        'issue',
        '--name',
        'Acme agents',
        '--max-clients',
        '3',
        '--redirect-host',
        'app.acme.example',
        '--scope',
        'openid',
        '--require-approval',
        '--json',
      ]),
    ).stdout,
  ) as Record<string, unknown>;
  const token = String(issued.initial_access_token);
  assert.ok(token.length >= 43);
  assert.deepEqual([issued.max_clients, issued.redirect_hosts, issued.scopes, issued.require_approval], [3, ['app.acme.example'], ['openid'], true]);
  const row = await database(databaseUrl).prisma.initialAccessToken.findUniqueOrThrow({ where: { id: String(issued.id) } });
  assert.equal(row.tokenHash, hashInitialAccessToken(token));

  const listed = ok(await gatehouse(['registration', 'list', '--json'])).stdout;
  assert.ok(!listed.includes(token), 'never the token again');
  assert.equal((JSON.parse(listed) as Array<{ id: string }>)[0].id, issued.id);
  assert.match(ok(await gatehouse(['registration', 'list'])).stdout, /Acme agents\s+live\s+0\/3/);

  ok(await gatehouse(['registration', 'revoke', String(issued.id)]));
  assert.match(ok(await gatehouse(['registration', 'list'])).stdout, /Acme agents\s+revoked/);
  const events = await database(databaseUrl).prisma.auditEvent.findMany({ where: { targetId: String(issued.id) }, orderBy: { at: 'asc' } });
  assert.deepEqual(
    events.map((e) => e.action),
    ['registration_token.issued', 'registration_token.revoked'],
  );
});

test('bad limits exit 2 naming the flag; an unknown token exits 1', async () => {
  const bad = await gatehouse(['registration', 'issue', '--name', 'x', '--grant-type', 'password']);
  assert.equal(bad.code, 2);
  assert.match(failure(bad), /--grant-type/);
  const host = await gatehouse(['registration', 'issue', '--name', 'x', '--redirect-host', 'https://app.example/']);
  assert.equal(host.code, 2);
  assert.equal((await gatehouse(['registration', 'revoke', 'no-such-token'])).code, 1);
});

test('registration approve lets a pending self-registered client sign people in; one waiting for nothing exits 1', async () => {
  const db = database(databaseUrl);
  await insertClient(db, {
    id: 'self-registered',
    name: 'Agent',
    secretHash: null,
    redirectUris: ['https://app.acme.example/cb'],
    postLogoutRedirectUris: [],
    grantTypes: ['authorization_code'],
    scope: 'openid',
    tokenEndpointAuthMethod: 'none',
    applicationType: 'web',
    logoUri: null,
    firstParty: false,
    resourceServer: false,
    adminApi: false,
    idTokenSignedResponseAlg: 'ES256',
    registeredDynamically: true,
    approvalPending: true,
  });
  assert.equal(JSON.parse(ok(await gatehouse(['registration', 'approve', 'self-registered', '--json'])).stdout).approval_pending, false);
  assert.equal((await db.prisma.client.findUniqueOrThrow({ where: { id: 'self-registered' } })).approvalPending, false);
  assert.equal((await gatehouse(['registration', 'approve', 'self-registered'])).code, 1);
});
