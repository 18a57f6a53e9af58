// runs-on: databases
// alone: probes every value the database holds within an authorization code's 60 s: other files' rows would make it outlive the code
// A copy of the database is not a takeover: everything stored in it, read row by
// row, signs nothing, decrypts nothing, and is accepted as no token, code,
// session, cookie or client secret. Positive controls show each probe would
// have worked with the real value, so a probe that fails proves something.
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { before, describe, test } from 'node:test';
import { encode } from 'next-auth/jwt';
import * as oidc from 'openid-client';
import { findClientMetadata } from '../../lib/clients/repository.ts';
import { database } from '../../lib/db/database.ts';
import { clientSecretMatches } from '../../lib/oidc/client-secret.ts';
import { serverSecret } from '../../lib/db/secrets.ts';
import { TestBrowser, authorize } from '../support/browser.ts';
import { baseUrl, basic, codeFlow, databaseUrl, discover, makeClient, makeUser, pkce, post, redirectUri, signIn } from '../support/fixtures.ts';

/** Every string in every row of every table, JSON opened up, lists and dotted values split. */
async function everythingStored(): Promise<{ strings: Set<string>; objects: Record<string, unknown>[] }> {
  const { sql } = database(databaseUrl);
  const tables =
    sql.kind === 'sqlite'
      ? await sql.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      : await sql.all<{ name: string }>('SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()');
  assert.ok(tables.some((t) => t.name === 'oidc_model_instances') && tables.some((t) => t.name === 'server_secrets'));
  const strings = new Set<string>();
  const objects: Record<string, unknown>[] = [];
  const visit = (value: unknown): void => {
    if (typeof value === 'string') {
      strings.add(value);
      for (const part of value.split(/[,.:\s]/)) strings.add(part);
      if (/^[[{]/.test(value)) {
        try {
          visit(JSON.parse(value));
        } catch {
          // not JSON
        }
      }
    } else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      objects.push(value as Record<string, unknown>);
      Object.values(value).forEach(visit);
    }
  };
  for (const { name } of tables) {
    for (const row of await sql.all(`SELECT * FROM "${name}"`)) visit(row);
  }
  return { strings: new Set([...strings].filter((s) => s.length >= 16)), objects };
}

/** koa's signed cookies (keygrip's defaults: HMAC-SHA1, base64 made URL-safe). */
const cookieSignature = (key: string, data: string) =>
  createHmac('sha1', key)
    .update(data)
    .digest('base64')
    .replace(/\/|\+|=/g, (c) => ({ '/': '_', '+': '-', '=': '' })[c]!);

/** Runs `probe` on every value, a few at a time. */
async function everyValue(values: Iterable<string>, probe: (value: string) => Promise<void>) {
  const list = [...values];
  for (let i = 0; i < list.length; i += 16) await Promise.all(list.slice(i, i + 16).map(probe));
}

describe('a copy of the database', () => {
  let stored: Awaited<ReturnType<typeof everythingStored>>;
  let confidential: Awaited<ReturnType<typeof makeClient>>;
  let rp: Awaited<ReturnType<typeof signIn>>;
  let publicClient: Awaited<ReturnType<typeof makeClient>>;
  let victim: TestBrowser;
  let admin: Awaited<ReturnType<typeof makeUser>>;
  let adminSessionUid: string;

  before(async () => {
    // Something of every kind in the database: a signed-in session, redeemed codes,
    // access, refresh and client-credentials tokens, the portal's secrets (the
    // unredeemed code is issued by the test that tries to redeem it).
    confidential = await makeClient({ grantTypes: ['authorization_code', 'refresh_token'] });
    rp = await signIn(confidential, 'openid profile');
    publicClient = await makeClient({ type: 'public' });
    const machine = await makeClient({ grantTypes: ['client_credentials'], redirectUris: [] });
    await oidc.clientCredentialsGrant(await discover(machine));
    assert.equal((await fetch(new URL('/admin/sign-in', baseUrl))).status < 500, true);
    // A signed-in admin, whose live Gatehouse session a forged portal cookie would name.
    admin = await makeUser({ role: 'admin' });
    victim = new TestBrowser(baseUrl);
    const config = await discover(confidential);
    const { challenge } = await pkce();
    await authorize(
      victim,
      oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' }),
      admin,
    );
    const sessions = await database(databaseUrl).sql.all<{ uid: string }>("SELECT uid FROM oidc_model_instances WHERE model = 'Session' AND account_id = ?", [
      admin.id,
    ]);
    assert.equal(sessions.length, 1);
    adminSessionUid = sessions[0].uid;
    stored = await everythingStored();
    assert.ok(stored.strings.size > 50, `read ${stored.strings.size} values`);
  });

  test('holds no private key, and none of its values is a cookie key', async () => {
    const privateParts = stored.objects.filter((o) => typeof o.kty === 'string' && ['d', 'p', 'q'].some((k) => k in o));
    assert.deepEqual(privateParts, []);
    const session = victim.cookie('_session')!;
    const signature = victim.cookie('_session.sig')!;
    const [cookieKey] = (await serverSecret(database(databaseUrl), 'cookie_keys', () => assert.fail('created at start'))).split(',');
    assert.equal(cookieSignature(cookieKey, `_session=${session}`), signature, 'control: the real key signs the real cookie');
    for (const value of stored.strings) assert.notEqual(cookieSignature(value, `_session=${session}`), signature);
  });

  test('no value works as an access token at userinfo, or as anyone’s token at introspection', async () => {
    const control = await fetch(new URL('/oauth/userinfo', baseUrl), { headers: { authorization: `Bearer ${rp.tokens.access_token}` } });
    assert.equal(control.status, 200, 'control: the real token works');
    await everyValue(stored.strings, async (value) => {
      const userinfo = await fetch(new URL('/oauth/userinfo', baseUrl), { headers: { authorization: `Bearer ${value}` } });
      assert.notEqual(userinfo.status, 200, `userinfo accepted a stored value`);
      const introspection = await post('/oauth/introspect', { token: value }, { authorization: basic(confidential.id, confidential.clientSecret!) });
      assert.deepEqual(await introspection.json(), { active: false });
    });
  });

  test('no value redeems as a refresh token or as the pending authorization code', async () => {
    // The code lives 60 s: issued here, and the database read again, so a slow run cannot outlive it.
    const pending = { ...(await codeFlow(publicClient)), client: publicClient };
    const stored = await everythingStored();
    const refresh = (token: string) =>
      post('/oauth/token', { grant_type: 'refresh_token', refresh_token: token }, { authorization: basic(confidential.id, confidential.clientSecret!) });
    const code = (value: string) =>
      post('/oauth/token', {
        grant_type: 'authorization_code',
        code: value,
        code_verifier: pending.verifier,
        redirect_uri: redirectUri,
        client_id: pending.client.id,
      });
    await everyValue(stored.strings, async (value) => {
      assert.notEqual((await refresh(value)).status, 200, 'a stored value refreshed');
      assert.notEqual((await code(value)).status, 200, 'a stored value redeemed as the code');
    });
    assert.equal((await refresh(rp.tokens.refresh_token!)).status, 200, 'control: the real refresh token works');
    assert.equal((await code(pending.code)).status, 200, 'control: the real code redeems');
  });

  test('no value is a session: signed with the real cookie key, none signs anyone in', async () => {
    const [cookieKey] = (await serverSecret(database(databaseUrl), 'cookie_keys', () => assert.fail('created at start'))).split(',');
    const config = await discover(confidential);
    const silent = async (sessionId: string) => {
      const { challenge } = await pkce();
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid',
        prompt: 'none',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      });
      const cookie = `_session=${sessionId}; _session.sig=${cookieSignature(cookieKey, `_session=${sessionId}`)}`;
      const browser = new TestBrowser(baseUrl);
      const { location } = await browser.navigate(url, { headers: { cookie } });
      return location;
    };
    assert.ok((await silent(victim.cookie('_session')!))?.searchParams.get('code'), 'control: the real session id signs the admin in');
    await everyValue(stored.strings, async (value) => {
      const location = await silent(value);
      assert.equal(location?.searchParams.get('code'), null, 'a stored value was a session');
    });
  });

  test('no value is the portal client’s secret', async () => {
    const db = database(databaseUrl);
    const real = await serverSecret(db, 'portal_client_secret', () => assert.fail('created at start'));
    const introspect = (secret: string) => post('/oauth/introspect', { token: 'x' }, { authorization: basic('gatehouse-portal', secret) });
    assert.equal((await introspect(real)).status, 200, 'control: the real secret authenticates');
    // Over HTTP, wrong secrets are throttled per client after a few (429, nothing compared), so the
    // endpoint is asked about the first values only; every value is put to the comparison it makes.
    const values = [...stored.strings];
    for (const value of values.slice(0, 5)) assert.equal((await introspect(value)).status, 401);
    const storedHash = (await findClientMetadata(db, 'gatehouse-portal'))?.client_secret;
    assert.ok(storedHash && clientSecretMatches(storedHash, real), 'control: the comparison accepts the real secret');
    for (const value of values) assert.equal(clientSecretMatches(storedHash, value), false);
  });

  test('no value mints a portal session; even the real secret needs a live session of the admin', async () => {
    const secret = await serverSecret(database(databaseUrl), 'portal_session_secret', () => assert.fail('created at start'));
    const adminPage = async (sessionSecret: string, claims: Record<string, unknown>) => {
      const token = await encode({ token: { sub: admin.id, ...claims }, secret: sessionSecret, maxAge: 3600 });
      return (await fetch(new URL('/admin/clients', baseUrl), { headers: { cookie: `next-auth.session-token=${token}` }, redirect: 'manual' })).status;
    };
    assert.equal(await adminPage(secret, { sessionUid: adminSessionUid }), 200, 'control: the real secret with a live session');
    assert.notEqual(await adminPage(secret, {}), 200, 'a portal cookie that names no Gatehouse session');
    assert.notEqual(await adminPage(secret, { sessionUid: 'no-such-session' }), 200);
    await everyValue(stored.strings, async (value) => assert.notEqual(await adminPage(value, { sessionUid: adminSessionUid }), 200));
  });
});
