// runs-on: databases
// What the protocol endpoints leave in the audit log: sign-ins, consent and token revocations, with the caller's address.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import * as oidc from 'openid-client';
import { database } from '../../lib/db/database.ts';
import { auditEventsFor, type AuditEventRecord } from '../../lib/audit/log.ts';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { baseUrl, basic, databaseUrl, discover, makeClient, makeUser, pkce, post, redirectUri, signIn } from '../support/fixtures.ts';

const loopback = /^(127\.0\.0\.1|::1)$/;

/** Entries are written just after the response: wait for them a little. */
async function eventually(query: Parameters<typeof auditEventsFor>[1], count: number): Promise<AuditEventRecord[]> {
  for (let i = 0; i < 50; i++) {
    const events = await auditEventsFor(database(databaseUrl), query);
    if (events.length >= count) return events;
    await new Promise((r) => setTimeout(r, 100));
  }
  return auditEventsFor(database(databaseUrl), query);
}

test('a sign-in and its consent are recorded with the TCP peer address; a forged X-Forwarded-For is ignored', async () => {
  const client = await makeClient();
  const user = await makeUser();
  const config = await discover(client);
  const { challenge } = await pkce();
  const browser = new TestBrowser(baseUrl);
  const request = browser.request.bind(browser);
  browser.request = (input, init = {}) =>
    request(input, { ...init, headers: { ...(init.headers as Record<string, string>), 'x-forwarded-for': '198.51.100.66', 'user-agent': 'audit-test/1.0' } });
  await authorize(
    browser,
    oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' }),
    user,
  );

  const events = await eventually({ involvingUserId: user.id }, 2);
  assert.deepEqual(events.map((e) => e.action).sort(), ['consent.granted', 'sign_in.succeeded']);
  for (const event of events) {
    assert.match(event.ip ?? '', loopback);
    assert.equal(event.userAgent, 'audit-test/1.0');
    assert.deepEqual(event.actor, { id: user.id, username: user.username });
  }
  assert.deepEqual(events.find((e) => e.action === 'consent.granted')?.details, { clientId: client.id, clientName: client.name, scopes: ['openid'] });
});

test('revoking a token at /oauth/revoke is recorded once per token destroyed, naming the client and the person', async () => {
  const client = await makeClient();
  const { user, config, tokens } = await signIn(client);
  await oidc.tokenRevocation(config, tokens.refresh_token!);
  const [event] = await eventually({ involvingUserId: user.id, actions: ['token.revoked'] }, 1);
  assert.deepEqual(event.details, { clientId: client.id, clientName: client.name, kind: 'refresh_token', via: 'revocation_endpoint' });
  assert.deepEqual(event.target, { type: 'user', id: user.id, label: user.username });
  assert.equal(event.actor, null);
  assert.match(event.ip ?? '', loopback);
});

test('a reused refresh token is recorded as revoked by reuse detection; a refused revocation is not recorded', async () => {
  const client = await makeClient({ type: 'public' });
  const { user, config, tokens } = await signIn(client);
  await oidc.refreshTokenGrant(config, tokens.refresh_token!);
  const reuse = await post('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token!, client_id: client.id });
  assert.equal(reuse.status, 400);
  const [event] = await eventually({ involvingUserId: user.id, actions: ['token.revoked'] }, 1);
  assert.equal(event.details.via, 'reuse_detected');

  const confidential = await makeClient();
  const other = await signIn(confidential);
  const stranger = await makeClient();
  await post('/oauth/revoke', { token: other.tokens.access_token }, { authorization: basic(stranger.id, stranger.clientSecret!) });
  await new Promise((r) => setTimeout(r, 300));
  assert.deepEqual(await auditEventsFor(database(databaseUrl), { involvingUserId: other.user.id, actions: ['token.revoked'] }), []);
});

/** A line of the audit export (lib/audit/export.ts; docs/audit.md). */
interface ExportedEntry {
  seq: number | null;
  id: string;
  at: string;
  actor_id: string | null;
  actor_username: string | null;
  actor_role: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  target_label: string | null;
  ip: string | null;
  user_agent: string | null;
  details: string;
  prev_hash: string | null;
  hash: string | null;
}

interface ExportedCheckpoint {
  seq: number;
  hash: string;
  kid: string;
  jws: string;
}

test('the admin API exports the log as JSON lines an auditor can check from the file alone: each hash as docs/audit.md says, each link, the signed checkpoints', async () => {
  const admin = await makeAdminApiClient('auditor');
  const token = await adminToken(admin);
  // Something of this test's own in the log: the auditor's token request is not audited, a revocation is.
  const client = await makeClient();
  const { user, config, tokens } = await signIn(client);
  await oidc.tokenRevocation(config, tokens.refresh_token!);
  const [revoked] = await eventually({ involvingUserId: user.id, actions: ['token.revoked'] }, 1);

  const answer = await api('GET', '/api/admin/audit-events/export', { token });
  assert.equal(answer.status, 200);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/x-ndjson/);
  assert.match(answer.headers.get('content-disposition') ?? '', /attachment; filename="audit.jsonl"/);
  const lines = (answer.body as string)
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as ExportedEntry | { checkpoint: ExportedCheckpoint });
  const entries = lines.filter((line): line is ExportedEntry => !('checkpoint' in line) && line.seq !== null);
  const checkpoints = lines.flatMap((line) => ('checkpoint' in line ? [line.checkpoint] : []));
  assert.ok(
    entries.some((entry) => entry.id === revoked.id),
    'the revocation is in it',
  );

  // The hash of every entry, computed here as the documentation tells an auditor to, and each entry naming the one before.
  let previous: ExportedEntry | undefined;
  for (const entry of entries) {
    const canonical = JSON.stringify([
      'gatehouse.audit.v1',
      entry.prev_hash,
      entry.id,
      entry.at,
      entry.actor_id,
      entry.actor_username,
      entry.actor_role,
      entry.action,
      entry.target_type,
      entry.target_id,
      entry.target_label,
      entry.ip,
      entry.user_agent,
      entry.details,
    ]);
    assert.equal(entry.hash, createHash('sha256').update(canonical).digest('hex'), `entry ${entry.seq} hashes to its hash`);
    if (previous) {
      assert.equal(entry.seq, previous.seq! + 1, 'no gap');
      assert.equal(entry.prev_hash, previous.hash, `entry ${entry.seq} links to the one before`);
    } else if (entry.seq === 1) assert.equal(entry.prev_hash, '0'.repeat(64));
    previous = entry;
  }

  // Each checkpoint vouches for the hash the export has at its place, signed by a key the JWKS publishes. A key
  // retired since (the suite's key rotation tests share this server) has left the JWKS: its checkpoints need the
  // JWKS an auditor kept from before (docs/audit.md, `audit verify --jwks`), as `audit verify` says of them.
  const published = (await (await fetch(new URL('/oauth/jwks', baseUrl))).json()) as JSONWebKeySet;
  const jwks = createLocalJWKSet(published);
  const kids = new Set(published.keys.map((key) => key.kid));
  const bySeq = new Map(entries.map((entry) => [entry.seq, entry.hash]));
  assert.ok(checkpoints.length >= 1, 'the first start signed a checkpoint');
  for (const checkpoint of checkpoints) {
    if (bySeq.has(checkpoint.seq)) assert.equal(checkpoint.hash, bySeq.get(checkpoint.seq));
    if (!kids.has(checkpoint.kid)) continue;
    const { payload, protectedHeader } = await compactVerify(String(checkpoint.jws), jwks).catch((error: Error) => {
      throw new Error(`checkpoint ${checkpoint.seq} (${checkpoint.kid}): ${error.message}`);
    });
    assert.equal(protectedHeader.typ, 'gatehouse-audit-checkpoint');
    const claims = JSON.parse(new TextDecoder().decode(payload)) as { chain: string; seq: number; hash: string };
    assert.deepEqual([claims.chain, claims.seq, claims.hash], ['audit', checkpoint.seq, checkpoint.hash]);
  }
});
