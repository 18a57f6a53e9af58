// runs-on: stores
// The protocol features of issue 26, each behind its own switch (lib/oidc/protocol-features.ts): off on the
// suite's server (nothing new in discovery); on, on an instance of their own, driven by openid-client as a
// real client: the device authorization grant (RFC 8628) with a person on its pages, PAR (RFC 9126), signed
// request objects (RFC 9101), DPoP (RFC 9449) and pairwise subjects (OIDC Core §8), each with its refusals.
import assert from 'node:assert/strict';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { after, before, test } from 'node:test';
import * as jose from 'jose';
import * as oidc from 'openid-client';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { registerClient, type NewClientInput } from '../../lib/clients/manage.ts';
import { createUser } from '../../lib/users/manage.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { baseUrl, discover, redirectUri } from '../support/fixtures.ts';
import { isolatedDatabase, startServer } from '../support/server.ts';

/** An instance with these settings; first starts (migrations, keys) can be slow on a busy machine. */
const startInstance = (env: { DATABASE_URL: string; ISSUER?: string } & Record<string, string>) => startServer(env, { ready: { timeoutMs: 120_000 } });

const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
const ON = { DEVICE_FLOW: 'on', PUSHED_AUTHORIZATION_REQUESTS: 'on', REQUEST_OBJECTS: 'on', DPOP: 'on', PAIRWISE_SUBJECTS: 'on', CLAIMS_PARAMETER: 'on' };

let own: Awaited<ReturnType<typeof startInstance>>;
let store: ReturnType<typeof isolatedDatabase>;
let db: ReturnType<typeof database>;

before(async () => {
  store = isolatedDatabase('protocol-features');
  own = await startInstance({ DATABASE_URL: store.url, ...ON });
  db = database(store.url);
});

after(async () => {
  await own?.stop();
  await closeDatabase(store.url);
  await store.drop();
});

async function client(input: Partial<NewClientInput> = {}) {
  const { client, clientSecret } = await registerClient(db, { name: `App ${randomUUID().slice(0, 8)}`, redirectUris: [redirectUri], ...input });
  return { ...client, clientSecret };
}

async function person() {
  const username = `pf-${randomBytes(5).toString('hex')}`;
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const user = await createUser(db, { username, email: `${username}@example.test`, name: 'Device Person', password, role: 'user' });
  return { id: user.id, username, password };
}

const form = (body: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(body).toString(),
});
const xsrfOf = (html: string) => {
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
  assert.ok(xsrf, `an xsrf field in: ${html.slice(0, 300)}`);
  return xsrf;
};

test('off by default: discovery lists none of the features and the device endpoint is not served', async () => {
  const metadata = await (await fetch(new URL('/.well-known/openid-configuration', baseUrl))).json();
  for (const name of ['device_authorization_endpoint', 'pushed_authorization_request_endpoint', 'dpop_signing_alg_values_supported']) {
    assert.equal(metadata[name], undefined, name);
  }
  assert.ok(!metadata.request_parameter_supported);
  assert.ok(!metadata.claims_parameter_supported);
  assert.deepEqual(metadata.subject_types_supported, ['public']);
  assert.ok(!metadata.grant_types_supported.includes(DEVICE_CODE));
  assert.equal((await fetch(new URL('/oauth/device/auth', baseUrl), form({ client_id: 'x' }))).status, 404);
});

test('on: discovery lists each feature, and request objects never with alg none', async () => {
  const metadata = await (await fetch(new URL('/.well-known/openid-configuration', own.url))).json();
  assert.equal(metadata.device_authorization_endpoint, `${own.url}/oauth/device/auth`);
  assert.equal(metadata.pushed_authorization_request_endpoint, `${own.url}/oauth/par`);
  assert.ok(metadata.grant_types_supported.includes(DEVICE_CODE));
  assert.ok(metadata.dpop_signing_alg_values_supported.length > 0);
  assert.deepEqual(metadata.subject_types_supported, ['public', 'pairwise']);
  assert.equal(metadata.claims_parameter_supported, true);
  assert.equal(metadata.request_parameter_supported, true);
  assert.ok(!metadata.request_object_signing_alg_values_supported.includes('none'));
});

test('device flow: the person types the code, signs in and consents; openid-client polling gets the tokens', async () => {
  const device = await client({ type: 'public', redirectUris: [], grantTypes: [DEVICE_CODE, 'refresh_token'] });
  const config = await discover(device, own.url);
  const started = await oidc.initiateDeviceAuthorization(config, { scope: 'openid profile offline_access' });
  assert.match(started.user_code, /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
  assert.equal(started.verification_uri, `${own.url}/oauth/device`);
  assert.equal(started.expires_in, 600);
  const polled = oidc.pollDeviceAuthorizationGrant(config, started);

  const user = await person();
  const browser = new TestBrowser(own.url);
  const entry = await browser.navigate(started.verification_uri, { headers: { 'accept-language': 'de' } });
  const entryHtml = await entry.response.text();
  assert.match(entryHtml, /<html lang="de"/);
  assert.match(entryHtml, /Gerät verbinden/);
  // A wrong code first: the same page, saying so, and nothing spent.
  const wrong = await browser.navigate('/oauth/device', form({ xsrf: xsrfOf(entryHtml), user_code: 'BBBB-BBBB' }));
  assert.match(await wrong.response.text(), /role="alert"/);
  const again = await (await browser.navigate(started.verification_uri)).response.text();
  // Typed in lower case without the dash: the same code.
  const typed = started.user_code.toLowerCase().replace('-', '');
  const confirm = await browser.navigate('/oauth/device', form({ xsrf: xsrfOf(again), user_code: typed }));
  const confirmHtml = await confirm.response.text();
  assert.match(confirmHtml, new RegExp(device.name));
  assert.match(confirmHtml, new RegExp(started.user_code));
  const signInUrl = new URL('/oauth/device', own.url);
  const interaction = await browser.navigate(signInUrl, form({ xsrf: xsrfOf(confirmHtml), user_code: typed, confirm: 'yes' }));
  assert.match(interaction.url.pathname, /^\/interaction\//);
  // The usual sign-in and consent pages, to the "go back to your device" page.
  let step = interaction;
  for (let i = 0; i < 4; i++) {
    const html = await step.response.text();
    if (html.includes('/login"')) step = await browser.submit(html, '/login', { username: user.username, password: user.password });
    else if (html.includes('/confirm"')) step = await browser.submit(html, '/confirm');
    else {
      assert.match(html, /go back to your device|zu Ihrem Gerät zurückkehren/, html.slice(0, 400));
      break;
    }
  }
  const tokens = await polled;
  assert.equal(tokens.token_type.toLowerCase(), 'bearer');
  assert.equal(tokens.claims()?.sub, user.id);
  assert.ok(tokens.refresh_token, 'a refresh token for the device');
  // The code is spent: entering it again says so.
  const spent = await browser.navigate(started.verification_uri);
  const reuse = await browser.navigate('/oauth/device', form({ xsrf: xsrfOf(await spent.response.text()), user_code: started.user_code }));
  assert.match(await reuse.response.text(), /role="alert"/);
});

test('device flow: fast polling is slow_down, cancelling on the page reaches the device as access_denied', async () => {
  const device = await client({ type: 'public', redirectUris: [], grantTypes: [DEVICE_CODE] });
  const started = await (await fetch(`${own.url}/oauth/device/auth`, form({ client_id: device.id, scope: 'openid' }))).json();
  const poll = async () =>
    (await fetch(`${own.url}/oauth/token`, form({ client_id: device.id, grant_type: DEVICE_CODE, device_code: started.device_code }))).json();
  assert.equal((await poll()).error, 'authorization_pending');
  assert.equal((await poll()).error, 'slow_down');

  const browser = new TestBrowser(own.url);
  const entry = await (await browser.navigate(started.verification_uri_complete)).response.text();
  // verification_uri_complete carries the code: the page goes straight to the confirmation (after the library's auto-post).
  const confirm = await browser.navigate('/oauth/device', form({ xsrf: xsrfOf(entry), user_code: started.user_code }));
  await browser.navigate('/oauth/device', form({ xsrf: xsrfOf(await confirm.response.text()), user_code: started.user_code, abort: 'yes' }));
  await new Promise((resolve) => setTimeout(resolve, 5_500));
  assert.equal((await poll()).error, 'access_denied');
});

/** The stored device code's own expiry moved into the past: what ten minutes of waiting would do. */
async function expire(deviceCode: string) {
  const row = await db.sql.one<{ payload: string }>('SELECT payload FROM oidc_model_instances WHERE model = ? AND id = ?', ['DeviceCode', deviceCode]);
  assert.ok(row, 'the device code is stored');
  const payload = { ...JSON.parse(row.payload), exp: Math.floor(Date.now() / 1000) - 1 };
  await db.sql.run('UPDATE oidc_model_instances SET payload = ? WHERE model = ? AND id = ?', [JSON.stringify(payload), 'DeviceCode', deviceCode]);
}

test('device flow: an expired code reaches the device as expired_token and the person as "expired"', async () => {
  const device = await client({ type: 'public', redirectUris: [], grantTypes: [DEVICE_CODE] });
  const started = await (await fetch(`${own.url}/oauth/device/auth`, form({ client_id: device.id, scope: 'openid' }))).json();
  assert.equal(started.interval, 5);
  await expire(started.device_code);
  const polled = await fetch(`${own.url}/oauth/token`, form({ client_id: device.id, grant_type: DEVICE_CODE, device_code: started.device_code }));
  assert.equal((await polled.json()).error, 'expired_token');
  const browser = new TestBrowser(own.url);
  const entry = await (await browser.navigate(started.verification_uri)).response.text();
  const typed = await browser.navigate('/oauth/device', form({ xsrf: xsrfOf(entry), user_code: started.user_code }));
  assert.match(await typed.response.text(), /This code has expired/);
});

test('device flow: a device code is refused once spent or unknown (invalid_grant), and the grant needs the client to have it', async () => {
  const web = await client();
  const refused = await fetch(`${own.url}/oauth/device/auth`, {
    ...form({ scope: 'openid' }),
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from(`${web.id}:${web.clientSecret}`).toString('base64')}` },
  });
  assert.equal((await refused.json()).error, 'unauthorized_client');
  const device = await client({ type: 'public', redirectUris: [], grantTypes: [DEVICE_CODE] });
  const unknown = await fetch(`${own.url}/oauth/token`, form({ client_id: device.id, grant_type: DEVICE_CODE, device_code: 'not-a-code' }));
  assert.equal((await unknown.json()).error, 'invalid_grant');
});

async function signInAt(url: URL, user?: Awaited<ReturnType<typeof person>>) {
  return authorize(new TestBrowser(own.url), url, user ?? (await person()));
}

test('PAR: a client that requires it is refused a plain request; its request_uri works once and not again', async () => {
  const app = await client({ requirePushedAuthorizationRequests: true });
  const config = await discover(app, own.url);
  const verifier = oidc.randomPKCECodeVerifier();
  const params = { redirect_uri: redirectUri, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' };
  const plain = await fetch(oidc.buildAuthorizationUrl(config, params), { redirect: 'manual' });
  const plainError = new URL(plain.headers.get('location')!, own.url);
  assert.equal(plainError.searchParams.get('error'), 'invalid_request');
  const pushed = await oidc.buildAuthorizationUrlWithPAR(config, params);
  assert.match(pushed.searchParams.get('request_uri') ?? '', /^urn:ietf:params:oauth:request_uri:/);
  const callback = await signInAt(pushed);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
  assert.ok(tokens.access_token);
  // RFC 9126 §4: one use only.
  const reused = await new TestBrowser(own.url).navigate(pushed);
  const reusedAt = reused.location ?? reused.url;
  assert.equal(
    reusedAt.searchParams.get('error') ?? ((await reused.response.text()).includes('invalid_request_uri') ? 'invalid_request_uri' : null),
    'invalid_request_uri',
  );
});

test('PAR: an unknown request_uri is refused', async () => {
  const app = await client();
  const url = new URL('/oauth/authorize', own.url);
  url.search = new URLSearchParams({ client_id: app.id, request_uri: 'urn:ietf:params:oauth:request_uri:expired-or-never-was' }).toString();
  const answer = await new TestBrowser(own.url).navigate(url);
  const at = answer.location ?? answer.url;
  assert.equal(
    at.searchParams.get('error') ?? ((await answer.response.text()).includes('invalid_request_uri') ? 'invalid_request_uri' : null),
    'invalid_request_uri',
  );
});

async function jarClient() {
  const { privateKey, publicKey } = await jose.generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await jose.exportJWK(publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
  const app = await client({ requestObjectSigningAlg: 'ES256', jwks: JSON.stringify({ keys: [jwk] }) });
  return { app, privateKey, config: await discover(app, own.url) };
}

test('JAR: a request object signed with the registered key signs in; one with another key or alg none is refused', async () => {
  const { app, privateKey, config } = await jarClient();
  const verifier = oidc.randomPKCECodeVerifier();
  const params = { redirect_uri: redirectUri, scope: 'openid', code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' };
  const signed = await oidc.buildAuthorizationUrlWithJAR(config, params, { key: privateKey, kid: 'k1' } as never);
  const callback = await signInAt(signed);
  assert.ok((await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier })).access_token);

  const other = await jose.generateKeyPair('ES256');
  const forged = await oidc.buildAuthorizationUrlWithJAR(config, params, { key: other.privateKey, kid: 'k1' } as never);
  const forgedAnswer = await fetch(forged, { redirect: 'manual' });
  assert.equal(new URL(forgedAnswer.headers.get('location')!, own.url).searchParams.get('error'), 'invalid_request_object');

  const unsigned = new jose.UnsecuredJWT({ ...params, response_type: 'code', client_id: app.id }).setIssuer(app.id).setAudience(own.url).setIssuedAt().encode();
  const none = new URL('/oauth/authorize', own.url);
  none.search = new URLSearchParams({ client_id: app.id, request: unsigned }).toString();
  const noneAnswer = await fetch(none, { redirect: 'manual' });
  assert.equal(new URL(noneAnswer.headers.get('location')!, own.url).searchParams.get('error'), 'invalid_request_object');
});

test('JAR: a client with request_object_signing_alg is refused plain parameters', async () => {
  const { config } = await jarClient();
  const plain = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: 'a'.repeat(43),
    code_challenge_method: 'S256',
  });
  const answer = await fetch(plain, { redirect: 'manual' });
  assert.equal(new URL(answer.headers.get('location')!, own.url).searchParams.get('error'), 'invalid_request');
});

/** A DPoP proof (RFC 9449 §4.2) with `claims` over the usual ones. */
async function proof(keys: CryptoKeyPair, htm: string, htu: string, claims: Record<string, unknown> = {}) {
  const jwk = await jose.exportJWK(keys.publicKey);
  return new jose.SignJWT({ htm, htu, jti: randomUUID(), iat: Math.floor(Date.now() / 1000), ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk })
    .sign(keys.privateKey);
}

test('DPoP: openid-client gets DPoP-bound tokens; userinfo and introspection honour the binding', async () => {
  const app = await client({ dpopBoundAccessTokens: true });
  const config = await discover(app, own.url);
  const keys = await oidc.randomDPoPKeyPair('ES256');
  const DPoP = oidc.getDPoPHandle(config, keys);
  const verifier = oidc.randomPKCECodeVerifier();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const callback = await signInAt(url);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier }, undefined, { DPoP });
  assert.equal(tokens.token_type.toLowerCase(), 'dpop');
  const sub = tokens.claims()!.sub;
  assert.equal((await oidc.fetchUserInfo(config, tokens.access_token, sub, { DPoP })).sub, sub);
  // The token without its proof: refused at userinfo, as Bearer and as DPoP without a proof.
  const bearer = await fetch(`${own.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${tokens.access_token}` } });
  assert.equal(bearer.status, 401);
  assert.match(bearer.headers.get('www-authenticate') ?? '', /invalid_token/);
  const noProof = await fetch(`${own.url}/oauth/userinfo`, { headers: { authorization: `DPoP ${tokens.access_token}` } });
  assert.equal(noProof.status, 400);
  assert.equal((await noProof.json()).error, 'invalid_request');
  // With a proof, but by another key than the token's: refused.
  const thief = (await jose.generateKeyPair('ES256')) as CryptoKeyPair;
  const userinfoUrl = `${own.url}/oauth/userinfo`;
  const ath = createHash('sha256').update(tokens.access_token).digest('base64url');
  const first = await fetch(userinfoUrl, { headers: { authorization: `DPoP ${tokens.access_token}`, dpop: await proof(thief, 'GET', userinfoUrl, { ath }) } });
  const nonce = first.headers.get('dpop-nonce') ?? undefined;
  const stolen = await fetch(userinfoUrl, {
    headers: { authorization: `DPoP ${tokens.access_token}`, dpop: await proof(thief, 'GET', userinfoUrl, { ath, nonce }) },
  });
  assert.equal(stolen.status, 401);
  assert.match(stolen.headers.get('www-authenticate') ?? '', /invalid_token/);
  // Introspection tells a resource server the binding (RFC 9449 §6.2: cnf.jkt).
  const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
  assert.equal(introspected.active, true);
  assert.equal((introspected.cnf as { jkt?: string } | undefined)?.jkt, await jose.calculateJwkThumbprint(await jose.exportJWK(keys.publicKey)));
});

test('DPoP: the token endpoint refuses a missing proof, a missing nonce, wrong htm or htu, a stale iat and a replayed proof', async () => {
  const app = await client({ dpopBoundAccessTokens: true, grantTypes: ['client_credentials'], redirectUris: [], scopes: ['openid'] });
  const keys = (await jose.generateKeyPair('ES256')) as CryptoKeyPair;
  const tokenUrl = `${own.url}/oauth/token`;
  const auth = `Basic ${Buffer.from(`${app.id}:${app.clientSecret}`).toString('base64')}`;
  const ask = (dpop?: string) =>
    fetch(tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: auth, ...(dpop ? { dpop } : {}) },
      body: 'grant_type=client_credentials',
    });
  // Without a proof: the library's invalid_grant, "DPoP proof JWT not provided".
  const missing = await ask();
  assert.equal(missing.status, 400);
  assert.deepEqual(await missing.json(), { error: 'invalid_grant', error_description: 'grant request is invalid' });
  const first = await ask(await proof(keys, 'POST', tokenUrl));
  assert.equal(first.status, 400);
  assert.equal((await first.json()).error, 'use_dpop_nonce');
  const nonce = first.headers.get('dpop-nonce');
  assert.ok(nonce, 'a server nonce');
  for (const [what, claims, error] of [
    ['wrong htm', { nonce, htm: 'GET' }, 'invalid_dpop_proof'],
    ['wrong htu', { nonce, htu: `${own.url}/oauth/userinfo` }, 'invalid_dpop_proof'],
    // Without a nonce an old iat is all there is to go by (RFC 9449 §11.1): refused, with a nonce to use.
    ['stale iat', { iat: Math.floor(Date.now() / 1000) - 3600 }, 'use_dpop_nonce'],
    ['a nonce the server never made', { nonce: 'made-up' }, 'use_dpop_nonce'],
  ] as const) {
    const refused = await ask(await proof(keys, 'POST', tokenUrl, claims));
    assert.equal(refused.status, 400, what);
    assert.equal((await refused.json()).error, error, what);
  }
  const good = await proof(keys, 'POST', tokenUrl, { nonce });
  const granted = await ask(good);
  assert.equal(granted.status, 200, await granted.clone().text());
  assert.equal((await granted.json()).token_type, 'DPoP');
  // The library's words for a replay at the token endpoint: invalid_grant ("DPoP proof JWT Replay detected").
  const replayed = await ask(good);
  assert.equal(replayed.status, 400);
  assert.equal((await replayed.json()).error, 'invalid_grant');
});

test('pairwise: a sub per sector, the same for one sector across clients and sign-ins', async () => {
  const user = await person();
  const subOf = async (c: Awaited<ReturnType<typeof client>>, redirect: string) => {
    const config = await discover(c, own.url);
    const verifier = oidc.randomPKCECodeVerifier();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirect,
      scope: 'openid',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    });
    const callback = await signInAt(url, user);
    return (await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier })).claims()!.sub;
  };
  const otherHost = 'http://localhost:9/callback';
  const a = await client({ subjectType: 'pairwise' });
  const b = await client({ subjectType: 'pairwise' });
  const c = await client({ subjectType: 'pairwise', redirectUris: [otherHost] });
  const publicOne = await client();
  const subA = await subOf(a, redirectUri);
  assert.notEqual(subA, user.id, 'not the account id');
  assert.equal(await subOf(a, redirectUri), subA, 'stable across sign-ins');
  assert.equal(await subOf(b, redirectUri), subA, 'the same sector (host 127.0.0.1:9)');
  assert.notEqual(await subOf(c, otherHost), subA, 'another sector');
  assert.equal(await subOf(publicOne, redirectUri), user.id, 'public clients unchanged');
});

test('claims parameter: a single claim asked for in the ID token is there', async () => {
  const app = await client();
  const config = await discover(app, own.url);
  const verifier = oidc.randomPKCECodeVerifier();
  const user = await person();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid',
    claims: JSON.stringify({ id_token: { preferred_username: { essential: true } } }),
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
  });
  const callback = await signInAt(url, user);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier });
  assert.equal(tokens.claims()!.preferred_username, user.username);
});

test('DPoP across two instances on one store: a nonce from one is good at the other, a proof is accepted once in all', async () => {
  // The same issuer (htu names it), database and, on the Redis run, Redis (REDIS_URL is inherited).
  const second = await startInstance({ DATABASE_URL: store.url, ISSUER: own.url, ...ON });
  try {
    const app = await client({ dpopBoundAccessTokens: true, grantTypes: ['client_credentials'], redirectUris: [], scopes: ['openid'] });
    const keys = (await jose.generateKeyPair('ES256')) as CryptoKeyPair;
    const tokenUrl = `${own.url}/oauth/token`;
    const ask = (origin: string, dpop: string) =>
      fetch(`${origin}/oauth/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${app.id}:${app.clientSecret}`).toString('base64')}`,
          dpop,
        },
        body: 'grant_type=client_credentials',
      });
    const nonce = (await ask(own.url, await proof(keys, 'POST', tokenUrl))).headers.get('dpop-nonce');
    assert.ok(nonce);
    const good = await proof(keys, 'POST', tokenUrl, { nonce });
    assert.equal((await ask(second.url, good)).status, 200, 'the first instance’s nonce at the second');
    const replayed = await ask(own.url, good);
    assert.equal(replayed.status, 400, 'replayed at the first');
    assert.equal((await replayed.json()).error, 'invalid_grant');
    // One new proof sent to both at the same moment: one answer with tokens, one refusal.
    const racing = await proof(keys, 'POST', tokenUrl, { nonce });
    const statuses = (await Promise.all([ask(own.url, racing), ask(second.url, racing)])).map((answer) => answer.status).sort();
    assert.deepEqual(statuses, [200, 400]);
  } finally {
    await second.stop();
  }
});
