// runs-on: stores
// OpenID Connect Back-Channel Logout 1.0 end to end, on an instance of its own with BACKCHANNEL_LOGOUT=on (the
// suite's server keeps it off, and its discovery says nothing of it). A relying party's receiver in this test
// verifies every logout token with jose against Gatehouse's JWKS, as §2.6 tells a relying party to. Sessions
// end through RP-initiated logout, "sign out other sessions", an admin disabling the person and an admin
// setting their password; a receiver that is down gets its token once it is back, across a restart of Gatehouse.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, test } from 'node:test';
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from 'jose';
import * as oidc from 'openid-client';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { endOtherSessions } from '../../lib/account/sessions.ts';
import { countQueuedLogouts } from '../../lib/logout/queue.ts';
import { changePassword, disableUser } from '../../lib/users/manage.ts';
import { freePort, isolatedDatabase, startInstance } from '../support/server.ts';

// The suite's server, before this file points the fixtures at its own instance.
const suiteUrl = process.env.GATEHOUSE_TEST_URL;
const own = isolatedDatabase('backchannel-logout');
const port = await freePort();
// The fixtures make users and clients where this file's instance is.
process.env.GATEHOUSE_TEST_URL = `http://localhost:${port}`;
process.env.GATEHOUSE_TEST_DATABASE_URL = own.url;
const { authorize, TestBrowser } = await import('../support/browser.ts');
const { baseUrl, discover, makeClient, makeUser, pkce, redirectUri } = await import('../support/fixtures.ts');

const EVENT = 'http://schemas.openid.net/event/backchannel-logout';
const settings = { DATABASE_URL: own.url, ISSUER: baseUrl, BACKCHANNEL_LOGOUT: 'on', BACKCHANNEL_LOGOUT_MAX_ATTEMPTS: '3' };
let stop: (() => Promise<void>) | undefined;
const start = async () => {
  await stop?.();
  ({ stop } = await startInstance(settings, port));
};
await start();
const db = database(own.url);

after(async () => {
  await stop?.();
  await receiver.close();
  await closeDatabase(own.url);
  await own.drop();
});

/** A relying party's back-channel logout endpoint: what it was posted, verified; down (not listening) when told. */
class Receiver {
  readonly tokens: JWTPayload[] = [];
  readonly refused: string[] = [];
  private server?: Server;
  private waiters: Array<() => void> = [];
  readonly port: number;
  constructor(port: number) {
    this.port = port;
  }
  get uri() {
    return `http://127.0.0.1:${this.port}/backchannel-logout`;
  }
  async up() {
    const jwks = createRemoteJWKSet(new URL('/oauth/jwks', baseUrl));
    this.server = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      try {
        assert.equal(req.method, 'POST');
        assert.equal(req.headers['content-type'], 'application/x-www-form-urlencoded');
        const token = new URLSearchParams(body).get('logout_token');
        assert.ok(token, 'a logout_token parameter');
        // §2.6: signature against the OP's keys, iss, aud, iat, typ; the events claim; sub or sid; no nonce.
        const { payload, protectedHeader } = await jwtVerify(token, jwks, { issuer: baseUrl, typ: 'logout+jwt', maxTokenAge: '2 minutes' });
        assert.equal(protectedHeader.typ, 'logout+jwt');
        assert.ok(typeof payload.aud === 'string' || Array.isArray(payload.aud));
        assert.ok(typeof payload.iat === 'number');
        assert.ok(typeof payload.jti === 'string' && payload.jti.length > 0);
        assert.deepEqual((payload.events as Record<string, unknown>)[EVENT], {});
        assert.ok(payload.sub || payload.sid);
        assert.equal(payload.nonce, undefined);
        this.tokens.push(payload);
        res.writeHead(200, { 'cache-control': 'no-store' }).end();
      } catch (error) {
        this.refused.push(String(error));
        res.writeHead(400).end();
      }
      for (const wake of this.waiters.splice(0)) wake();
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, '127.0.0.1', resolve));
  }
  async close() {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections());
  }
  /** The first token for `aud` matching `match`, waiting up to `timeoutMs` for it. */
  async tokenFor(aud: string, match: (p: JWTPayload) => boolean, timeoutMs = 20_000): Promise<JWTPayload> {
    for (const deadline = Date.now() + timeoutMs; ; ) {
      const found = this.tokens.find((p) => p.aud === aud && match(p));
      if (found) return found;
      assert.deepEqual(this.refused, [], 'the receiver refused a token');
      if (Date.now() > deadline) assert.fail(`no logout token for ${aud} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 250);
      });
    }
  }
}

const receiver = new Receiver(await freePort());
await receiver.up();

/** A relying party with a back-channel logout URI; `sessionRequired`: its tokens carry sid. */
const logoutClient = (sessionRequired = true) =>
  makeClient({ backchannelLogoutUri: receiver.uri, backchannelLogoutSessionRequired: sessionRequired, type: 'public', tokenEndpointAuthMethod: 'none' });

/** A person signed in to `client` in a browser of their own: the browser, and the ID token's claims (its sid). */
async function signedIn(client: Awaited<ReturnType<typeof makeClient>>, user: Awaited<ReturnType<typeof makeUser>>) {
  const browser = new TestBrowser(baseUrl);
  const config = await discover(client);
  const { verifier, challenge } = await pkce();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' });
  const callback = await authorize(browser, url, user);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
  return { browser, idToken: tokens.id_token!, claims: tokens.claims()! };
}

async function auditOf(clientId: string, action: string) {
  const rows = await db.prisma.auditEvent.findMany({ where: { targetType: 'client', targetId: clientId, action } });
  return rows.map((r) => JSON.parse(r.details) as Record<string, unknown>);
}

/** The entry's details once it is written: the server records the outcome just after the receiver answered. */
async function auditEntry(clientId: string, action: string, timeoutMs = 5_000) {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    const [entry] = await auditOf(clientId, action);
    if (entry) return entry;
    assert.ok(Date.now() < deadline, `no ${action} entry for ${clientId}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

test('discovery lists back-channel logout with sessions on this instance only', async () => {
  const metadata = (await (await fetch(new URL('/.well-known/openid-configuration', baseUrl))).json()) as Record<string, unknown>;
  assert.equal(metadata.backchannel_logout_supported, true);
  assert.equal(metadata.backchannel_logout_session_supported, true);
  if (suiteUrl) {
    const suite = (await (await fetch(new URL('/.well-known/openid-configuration', suiteUrl))).json()) as Record<string, unknown>;
    assert.equal(suite.backchannel_logout_supported, undefined);
  }
});

test('RP-initiated logout: the client gets a logout token naming the person and the sid of its ID token', async () => {
  const client = await logoutClient();
  const user = await makeUser();
  const { browser, idToken, claims } = await signedIn(client, user);
  assert.ok(typeof claims.sid === 'string' && claims.sid.length > 0, 'the ID token carries sid');

  const logout = new URL('/oauth/logout', baseUrl);
  logout.search = new URLSearchParams({ id_token_hint: idToken, post_logout_redirect_uri: 'http://127.0.0.1:9/signed-out' }).toString();
  const page = await (await browser.navigate(logout)).response.text();
  const xsrf = page.match(/name="xsrf" value="([^"]+)"/)?.[1];
  assert.ok(xsrf, 'the logout form');
  const done = await browser.submit(page, '/oauth/logout/confirm', { xsrf, logout: 'yes' });
  assert.equal(done.location?.href.startsWith('http://127.0.0.1:9/signed-out'), true);

  const token = await receiver.tokenFor(client.id, (p) => p.sid === claims.sid);
  assert.equal(token.sub, user.id);
  assert.equal(token.iss, baseUrl);
  const delivered = await auditEntry(client.id, 'backchannel_logout.delivered');
  assert.deepEqual(delivered, { accountId: user.id, sid: claims.sid, attempts: 1 });
});

test('"sign out other sessions" ends the others at their clients, not the current one', async () => {
  const client = await logoutClient();
  const user = await makeUser();
  const kept = await signedIn(client, user);
  const other = await signedIn(client, user);
  const sessions = await db.prisma.oidcModelInstance.findMany({ where: { model: 'Session', accountId: user.id } });
  const keptUid = sessions
    .map((s) => JSON.parse(s.payload) as { uid: string; authorizations: Record<string, { sid: string }> })
    .find((s) => s.authorizations[client.id]?.sid === kept.claims.sid)?.uid;
  assert.ok(keptUid);
  assert.equal(await endOtherSessions(db, { id: user.id, username: user.username, sessionUid: keptUid }), 1);

  await receiver.tokenFor(client.id, (p) => p.sid === other.claims.sid);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  assert.equal(receiver.tokens.filter((p) => p.sid === kept.claims.sid).length, 0, 'the current session stays signed in');
});

test('an admin disabling the person, or setting their password, ends their sessions at every client; sid only where asked for', async () => {
  const withSid = await logoutClient(true);
  const withoutSid = await logoutClient(false);
  const plain = await makeClient();
  const user = await makeUser();
  const first = await signedIn(withSid, user);
  const second = await signedIn(withoutSid, user);
  await signedIn(plain, user);
  await disableUser(db, user.id);
  const a = await receiver.tokenFor(withSid.id, (p) => p.sub === user.id);
  assert.equal(a.sid, first.claims.sid);
  const b = await receiver.tokenFor(withoutSid.id, (p) => p.sub === user.id);
  // The session's sid rides along for every client: the spec allows sub and sid together (§2.4).
  assert.equal(b.sid, second.claims.sid);
  assert.equal(receiver.tokens.filter((p) => p.aud === plain.id).length, 0, 'a client without a URI gets nothing');

  const other = await makeUser();
  const session = await signedIn(withSid, other);
  await changePassword(db, other.id, `new-${other.password}`);
  await receiver.tokenFor(withSid.id, (p) => p.sid === session.claims.sid);
});

test('a receiver that is down gets the token once it is back, even across a restart of Gatehouse', async () => {
  const client = await logoutClient();
  const user = await makeUser();
  const { claims } = await signedIn(client, user);
  await receiver.close();
  await disableUser(db, user.id);
  // The first attempt fails (nothing listens), and the row waits with its failure counted.
  for (const deadline = Date.now() + 15_000; ; ) {
    const row = await db.prisma.backchannelLogout.findFirst({ where: { clientId: client.id } });
    if (row && row.attempts >= 1) {
      assert.ok(row.lastError && !row.lastError.includes('ey'), 'why, never the token');
      break;
    }
    assert.ok(Date.now() < deadline, 'no failed attempt recorded');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop?.();
  stop = undefined;
  await receiver.up();
  await start();
  const token = await receiver.tokenFor(client.id, (p) => p.sid === claims.sid, 30_000);
  assert.equal(token.sub, user.id);
  const delivered = await auditEntry(client.id, 'backchannel_logout.delivered');
  assert.ok((delivered.attempts as number) >= 2);
  assert.equal(await db.prisma.backchannelLogout.count({ where: { clientId: client.id } }), 0);
});

test('a receiver that keeps refusing is given up after BACKCHANNEL_LOGOUT_MAX_ATTEMPTS, in the audit log', { timeout: 90_000 }, async () => {
  const refusing = createServer((_req, res) => res.writeHead(503).end());
  const refusingPort = await freePort();
  await new Promise<void>((resolve) => refusing.listen(refusingPort, '127.0.0.1', resolve));
  try {
    const client = await makeClient({ backchannelLogoutUri: `http://127.0.0.1:${refusingPort}/logout`, type: 'public', tokenEndpointAuthMethod: 'none' });
    const user = await makeUser();
    await signedIn(client, user);
    await disableUser(db, user.id);
    // 3 attempts, the waits doubling from 5 s: 5 + 10 s.
    for (const deadline = Date.now() + 60_000; ; ) {
      const [abandoned] = await auditOf(client.id, 'backchannel_logout.abandoned');
      if (abandoned) {
        assert.deepEqual(abandoned, { accountId: user.id, sid: abandoned.sid, attempts: 3, reason: 'attempts_exhausted', error: 'HTTP 503' });
        break;
      }
      assert.ok(Date.now() < deadline, 'not given up in time');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    assert.equal(await countQueuedLogouts(db), 0);
  } finally {
    refusing.close();
  }
});
