// runs-on: databases
// alone: retires a signing key of the shared database: ID tokens other files are verifying at that moment would fail
// Signing key rotation, end to end: a relying party (openid-client, checking ID token signatures
// against its cached JWKS) keeps verifying across a rotation; a retired key leaves the JWKS at once
// on the instance that retired it and within ROTATION_POLL_MS (plus a provider build) on another.
// Only ES256 rotates here: the RS256 keys, and the other test files, are left as they were.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify, type JSONWebKeySet } from 'jose';
import * as oidc from 'openid-client';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';
import { baseUrl, codeFlow, databaseUrl, makeClient } from '../support/fixtures.ts';
import { startInstance } from '../support/server.ts';

/** README, Signing keys: how late another instance serves a change (ROTATION_POLL_MS and a provider build, with room for a busy CI machine). */
const FOLLOW_BOUND_MS = 5_000;

let second: string;
let stop: () => void;
let token: string;

before(async () => {
  ({ url: second, stop } = await startInstance({ DATABASE_URL: databaseUrl, ISSUER: baseUrl }));
  token = await adminToken(await makeAdminApiClient());
});

after(() => stop?.());

const jwksOf = async (origin: string) => (await (await fetch(`${origin}/oauth/jwks`)).json()) as JSONWebKeySet;
const kids = (jwks: JSONWebKeySet) => jwks.keys.map((k) => k.kid);

/** Polls `origin`'s JWKS until `ok`; resolves with how long it took, failing past FOLLOW_BOUND_MS. */
async function jwksFollows(origin: string, ok: (jwks: JSONWebKeySet) => boolean): Promise<number> {
  const start = Date.now();
  for (;;) {
    const jwks = await jwksOf(origin);
    if (ok(jwks)) return Date.now() - start;
    assert.ok(Date.now() - start < FOLLOW_BOUND_MS, `${origin} still serves ${JSON.stringify(kids(jwks))} after ${FOLLOW_BOUND_MS} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A relying party with one openid-client configuration: it checks ID token signatures against its JWKS cache, and counts its JWKS fetches. */
async function relyingParty(client: Awaited<ReturnType<typeof makeClient>>) {
  let jwksFetches = 0;
  const config = await oidc.discovery(new URL(baseUrl), client.id, undefined, oidc.ClientSecretBasic(client.clientSecret), {
    execute: [oidc.allowInsecureRequests, oidc.enableNonRepudiationChecks],
  });
  config[oidc.customFetch] = (url, options) => {
    if (new URL(url).pathname === '/oauth/jwks') jwksFetches++;
    return fetch(url, options as RequestInit);
  };
  return {
    jwksFetches: () => jwksFetches,
    /** A sign-in whose ID token openid-client verified; returns the token's kid. */
    async signIn() {
      const { callback, verifier } = await codeFlow(client);
      const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
      return { idToken: tokens.id_token!, kid: decodeProtectedHeader(tokens.id_token!).kid! };
    },
  };
}

test('a rotation: published ahead, verified from the cached JWKS across the takeover, retired from both instances', async () => {
  const client = await makeClient(); // ES256
  const keysNow = async () => (await api('GET', '/api/admin/keys', { token })).body.data as { kid: string; alg: string; state: string }[];
  const [old] = (await keysNow()).filter((k) => k.alg === 'ES256' && k.state === 'current');

  // Before: the current key signs.
  const early = await relyingParty(client);
  assert.equal((await early.signIn()).kid, old.kid);

  // A rotation: the next key is published, and does not sign yet.
  const rotate = await api('POST', '/api/admin/keys/rotate', { token, json: { alg: 'ES256' } });
  assert.equal(rotate.status, 200, JSON.stringify(rotate.body));
  const [scheduled] = rotate.body.data;
  assert.equal(scheduled.outcome, 'scheduled');
  assert.ok(Date.parse(scheduled.activates_at) > Date.now() + 3_600_000, 'published hours ahead (KEY_PUBLISH_AHEAD_HOURS)');
  assert.ok(kids(await jwksOf(baseUrl)).includes(scheduled.kid), 'published at once on the instance that rotated');
  const followed = await jwksFollows(second, (jwks) => kids(jwks).includes(scheduled.kid));
  console.log(`# the second instance published the next key after ${followed} ms`);

  // During: a relying party that fetched the JWKS in the meantime knows both keys; the old one still signs.
  const rp = await relyingParty(client);
  assert.equal((await rp.signIn()).kid, old.kid);
  assert.equal(rp.jwksFetches(), 1);
  const beforeTakeover = await rp.signIn();

  // The takeover (now, rather than hours later): the next key signs, on both instances.
  const takeover = await api('POST', '/api/admin/keys/rotate', { token, json: { alg: 'ES256', now: true } });
  assert.deepEqual(
    takeover.body.data.map((o: { kid: string; outcome: string }) => [o.kid, o.outcome]),
    [[scheduled.kid, 'rotated']],
  );
  const after = await rp.signIn();
  assert.equal(after.kid, scheduled.kid);
  assert.equal(rp.jwksFetches(), 1, 'verified from the JWKS it had cached before the takeover');
  const firstJwks = await jwksOf(baseUrl);
  await jwksFollows(second, (jwks) => JSON.stringify(jwks) === JSON.stringify(firstJwks)); // the same keys, the signing one first
  // The old key stays published: tokens it signed before the takeover still verify.
  await jwtVerify(beforeTakeover.idToken, createLocalJWKSet(firstJwks), { issuer: baseUrl, audience: client.id });
  assert.equal((await keysNow()).find((k) => k.kid === old.kid)?.state, 'previous');

  // Retired: gone at once here, within the bound on the other instance; discovery stays one document.
  const retired = await api('POST', `/api/admin/keys/${old.kid}/retire`, { token });
  assert.equal(retired.status, 200, JSON.stringify(retired.body));
  assert.equal(retired.body.early, true);
  assert.ok(!kids(await jwksOf(baseUrl)).includes(old.kid), 'gone at once from the instance that retired it');
  const gone = await jwksFollows(second, (jwks) => !kids(jwks).includes(old.kid));
  console.log(`# the second instance dropped the retired key after ${gone} ms`);
  await assert.rejects(jwtVerify(beforeTakeover.idToken, createLocalJWKSet(await jwksOf(second)), { issuer: baseUrl, audience: client.id }));
  const discovery = async (origin: string) => (await fetch(`${origin}/.well-known/openid-configuration`)).json();
  assert.deepEqual(await discovery(second), await discovery(baseUrl));
  assert.equal((await rp.signIn()).kid, scheduled.kid, 'the new key goes on signing');

  // The audit log tells the story.
  const audit = await api('GET', '/api/admin/audit-events?action=key.rotated', { token });
  const rotated = audit.body.data.find((e: { target: { id: string } | null }) => e.target?.id === scheduled.kid);
  assert.deepEqual(rotated?.details, { alg: 'ES256', previous_kid: old.kid, retire_after: rotated?.details.retire_after, immediately: true, automatic: false });
  assert.ok(Date.parse(rotated.details.retire_after) > Date.now() + 3_600_000, 'the previous key would have stayed published past the ID token lifetime');
});

test('refusals: the signing key cannot be retired; an unknown kid is not found', async () => {
  const keys = (await api('GET', '/api/admin/keys', { token })).body.data as { kid: string; state: string }[];
  const current = keys.find((k) => k.state === 'current')!;
  const signing = await api('POST', `/api/admin/keys/${current.kid}/retire`, { token });
  assert.equal(signing.status, 409);
  assert.match(signing.body.error_description, /rotate first/);
  assert.equal((await api('POST', '/api/admin/keys/no-such-kid/retire', { token })).status, 404);
  for (const key of keys) assert.deepEqual(Object.keys(key).sort(), ['activates_at', 'alg', 'created_at', 'kid', 'retire_after', 'state']);
});
