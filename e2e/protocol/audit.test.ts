// runs-on: stores
// What the protocol endpoints leave in the audit log: sign-ins, consent and token revocations, with the caller's address.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { database } from '../../lib/db/database.ts';
import { auditEventsFor, type AuditEventRecord } from '../../lib/audit/log.ts';
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
