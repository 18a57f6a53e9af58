// runs-on: stores
// Governed dynamic client registration (RFC 7591) and its management (RFC 7592), on instances of their own
// (the suite's server keeps DYNAMIC_REGISTRATION off, and its discovery names no registration endpoint).
// openid-client registers, as a relying party would, and then signs a person in with what it registered;
// the management calls are plain fetch, as RFC 7592 writes them. Refused: no initial access token, an
// expired or used-up one, a redirect host, grant type or scope past its limits, a pending client signing
// someone in. With DYNAMIC_REGISTRATION=open, registrations are counted per source address.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import * as oidc from 'openid-client';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { approveClient, disableUnusedClients } from '../../lib/registration/clients.ts';
import { issueInitialAccessToken, type InitialAccessTokenInput } from '../../lib/registration/tokens.ts';
import { freePort, isolatedDatabase, startServer } from '../support/server.ts';

const suiteUrl = process.env.GATEHOUSE_TEST_URL;
const own = isolatedDatabase('dynamic-registration');
const port = await freePort();
process.env.GATEHOUSE_TEST_URL = `http://localhost:${port}`;
process.env.GATEHOUSE_TEST_DATABASE_URL = own.url;
const { authorize, TestBrowser } = await import('../support/browser.ts');
const { baseUrl, makeUser, pkce, redirectUri } = await import('../support/fixtures.ts');

// A fresh database is migrated at start: on a loaded machine that alone can take tens of seconds.
const ready = { timeoutMs: 120_000 };
const instance = await startServer({ DATABASE_URL: own.url, ISSUER: baseUrl, DYNAMIC_REGISTRATION: 'token' }, { port, ready });
const db = database(own.url);
const openDb = isolatedDatabase('open-registration');
const openPort = await freePort();
const openUrl = `http://localhost:${openPort}`;
const open = await startServer(
  {
    DATABASE_URL: openDb.url,
    ISSUER: openUrl,
    DYNAMIC_REGISTRATION: 'open',
    DYNAMIC_REGISTRATION_OPEN_HOURLY_CAP: '2',
    DYNAMIC_REGISTRATION_OPEN_APPROVAL: 'off',
  },
  { port: openPort, ready },
);

after(async () => {
  await Promise.all([instance.stop(), open.stop()]);
  await Promise.all([closeDatabase(own.url), closeDatabase(openDb.url)]);
  await Promise.all([own.drop(), openDb.drop()]);
});

const registrationEndpoint = new URL('/oauth/register', baseUrl);
// client_secret_post: what openid-client authenticates a registered client with by default.
const webApp = {
  redirect_uris: [redirectUri],
  client_name: 'Agent',
  grant_types: ['authorization_code'],
  scope: 'openid profile',
  response_types: ['code'],
  token_endpoint_auth_method: 'client_secret_post',
};
let tokens = 0;

const token = async (input: Partial<InitialAccessTokenInput> = {}) =>
  (
    await issueInitialAccessToken(
      db,
      {
        name: `for test ${++tokens}`,
        redirectHosts: ['127.0.0.1'],
        grantTypes: ['authorization_code', 'refresh_token'],
        scopes: ['openid', 'profile'],
        ...input,
      },
      { now: Date.now() },
    )
  ).token;

/** RFC 7591 §3.1 as plain HTTP: the status and the JSON answer. */
async function register(body: object, bearer?: string, url = registrationEndpoint) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A person signs in to a registered client through the real forms; the ID token's claims. */
async function signInWith(config: oidc.Configuration) {
  const user = await makeUser();
  const { verifier, challenge } = await pkce();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' });
  const callback = await authorize(new TestBrowser(baseUrl), url, user);
  return { user, claims: (await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier })).claims()! };
}

test('discovery names the registration endpoint only where registration is on', async () => {
  const metadata = (await (await fetch(new URL('/.well-known/openid-configuration', baseUrl))).json()) as Record<string, unknown>;
  assert.equal(metadata.registration_endpoint, registrationEndpoint.href);
  if (suiteUrl) {
    const suite = (await (await fetch(new URL('/.well-known/openid-configuration', suiteUrl))).json()) as Record<string, unknown>;
    assert.equal(suite.registration_endpoint, undefined);
    assert.equal((await register(webApp, undefined, new URL('/oauth/register', suiteUrl))).status, 404);
  }
});

test('openid-client registers with an initial access token, then signs a person in with the client it got; admins see it', async () => {
  const iat = await token({ maxClients: 1 });
  const config = await oidc.dynamicClientRegistration(new URL(baseUrl), webApp, undefined, { initialAccessToken: iat, execute: [oidc.allowInsecureRequests] });
  const registered = config.clientMetadata();
  assert.ok(registered.client_secret, 'a confidential client gets its secret once');
  assert.ok(registered.registration_access_token && registered.registration_client_uri);
  const { user, claims } = await signInWith(config);
  assert.equal(claims.sub, user.id);
  assert.equal(claims.aud, registered.client_id);

  const row = await db.prisma.client.findUniqueOrThrow({ where: { id: registered.client_id } });
  assert.equal(row.registeredDynamically, true);
  assert.equal(row.approvalPending, false);
  assert.notEqual(row.secretHash, registered.client_secret, 'only a hash of the secret is stored');
  const [audit] = await db.prisma.auditEvent.findMany({ where: { action: 'client.registered', targetId: registered.client_id } });
  assert.equal(JSON.parse(audit.details).pending, false);

  // The token allowed one client: the next registration is refused.
  const again = await register(webApp, iat);
  assert.equal(again.status, 401);
  assert.equal(again.body.error, 'invalid_token');
});

test('registration without an initial access token, or with an expired one, is refused', async () => {
  const none = await register(webApp);
  assert.ok(none.status === 400 || none.status === 401, `status ${none.status}`);
  assert.ok(['invalid_request', 'invalid_token'].includes(String(none.body.error)));
  assert.equal((await register(webApp, 'not-a-token')).body.error, 'invalid_token');

  const iat = await token();
  await db.prisma.initialAccessToken.updateMany({ where: { name: `for test ${tokens}` }, data: { expiresAt: new Date(Date.now() - 1000) } });
  const expired = await register(webApp, iat);
  assert.equal(expired.status, 401);
  assert.equal(expired.body.error, 'invalid_token');
});

test("past the token's limits: a redirect host, a grant type or a scope it does not allow; what only an admin grants", async () => {
  const iat = await token({ maxClients: 10 });
  const host = await register({ ...webApp, redirect_uris: ['https://evil.example/cb'] }, iat);
  assert.equal(host.status, 400);
  assert.equal(host.body.error, 'invalid_redirect_uri');
  const grant = await register({ ...webApp, grant_types: ['authorization_code', 'client_credentials'] }, iat);
  assert.equal(grant.body.error, 'invalid_client_metadata');
  assert.match(String(grant.body.error_description), /client_credentials/);
  const scope = await register({ ...webApp, scope: 'openid email' }, iat);
  assert.equal(scope.body.error, 'invalid_client_metadata');
  const firstParty = await register({ ...webApp, first_party: true }, iat);
  assert.equal(firstParty.body.error, 'invalid_client_metadata');
  const plainHttp = await register({ ...webApp, redirect_uris: ['http://127.0.0.1.nip.io/cb'] }, await token({ redirectHosts: [] }));
  assert.equal(plainHttp.body.error, 'invalid_redirect_uri', 'the rules of every client hold too: https except on loopback');
  // None of those took one of the token's registrations.
  assert.equal((await register(webApp, iat)).status, 201);
});

test('RFC 7592: read, update (the access token rotates, the limits still hold) and delete with the registration access token', async () => {
  const created = await register({ ...webApp, token_endpoint_auth_method: 'none' }, await token());
  assert.equal(created.status, 201);
  const uri = String(created.body.registration_client_uri);
  let rat = String(created.body.registration_access_token);
  const call = (method: string, bearer: string, body?: object) =>
    fetch(uri, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body && JSON.stringify(body),
    });

  const read = await call('GET', rat);
  assert.equal(read.status, 200);
  const metadata = (await read.json()) as Record<string, unknown>;
  assert.equal(metadata.client_name, 'Agent');
  assert.equal(metadata.client_secret, undefined);

  const { registration_access_token: _r, registration_client_uri: _u, client_id_issued_at: _i, client_secret_expires_at: _e, ...current } = metadata;
  const updated = await call('PUT', rat, { ...current, client_name: 'Agent 2' });
  assert.equal(updated.status, 200);
  const answer = (await updated.json()) as Record<string, unknown>;
  assert.equal(answer.client_name, 'Agent 2');
  assert.notEqual(answer.registration_access_token, rat, 'rotated');
  assert.equal((await call('GET', rat)).status, 401, 'the old one no longer works');
  rat = String(answer.registration_access_token);
  assert.equal((await db.prisma.client.findUniqueOrThrow({ where: { id: String(created.body.client_id) } })).name, 'Agent 2');

  const outside = await call('PUT', rat, { ...current, redirect_uris: ['https://evil.example/cb'] });
  assert.equal(outside.status, 400);
  assert.equal(((await outside.json()) as { error: string }).error, 'invalid_redirect_uri');

  assert.equal((await call('DELETE', rat)).status, 204);
  assert.equal(await db.prisma.client.count({ where: { id: String(created.body.client_id) } }), 0);
  assert.equal((await call('GET', rat)).status, 401);
  const actions = (await db.prisma.auditEvent.findMany({ where: { targetId: String(created.body.client_id) } })).map((e) => e.action).sort();
  assert.deepEqual(actions, ['client.registered', 'client.registration_deleted', 'client.registration_updated']);
});

test('a client registered with a token that asks for approval signs no one in until an admin approves it', async () => {
  const iat = await token({ requireApproval: true });
  const config = await oidc.dynamicClientRegistration(new URL(baseUrl), webApp, undefined, { initialAccessToken: iat, execute: [oidc.allowInsecureRequests] });
  const clientId = config.clientMetadata().client_id;
  assert.equal((await db.prisma.client.findUniqueOrThrow({ where: { id: clientId } })).approvalPending, true);

  const { challenge } = await pkce();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' });
  const refused = await new TestBrowser(baseUrl).navigate(url);
  assert.equal(refused.location, undefined, 'never sent back to the client');
  const page = await refused.response.text();
  assert.equal(refused.response.status, 400);
  assert.doesNotMatch(page, /name="password"/, 'no sign-in form');

  await approveClient(db, clientId);
  const { claims } = await signInWith(config);
  assert.equal(claims.aud, clientId);
});

test('self-registered clients unused for the configured days are disabled, in the audit log', async () => {
  const created = await register(webApp, await token());
  const id = String(created.body.client_id);
  assert.equal(await disableUnusedClients(db, 30, Date.now()), 0, 'a new client is not yet unused');
  assert.ok((await disableUnusedClients(db, 30, Date.now() + 31 * 86_400_000)) >= 1);
  assert.equal((await db.prisma.client.findUniqueOrThrow({ where: { id } })).enabled, false);
  const [entry] = await db.prisma.auditEvent.findMany({ where: { action: 'client.disabled', targetId: id } });
  assert.equal(JSON.parse(entry.details).reason, 'unused');
});

test('open registration: no token needed, counted per source address (429 past the hourly cap)', async () => {
  const endpoint = new URL('/oauth/register', openUrl);
  const first = await register(webApp, undefined, endpoint);
  assert.equal(first.status, 201);
  assert.equal((await register(webApp, undefined, endpoint)).status, 201);
  const third = await register(webApp, undefined, endpoint);
  assert.equal(third.status, 429);
  assert.equal(third.body.error, 'too_many_requests');
});
