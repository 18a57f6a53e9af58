// runs-on: databases
// The protocol endpoints' OpenAPI document (GET /api/protocol/openapi.json, lib/surfaces/admin-api/protocol-openapi.ts)
// against the running server: on an instance with every protocol feature and registration by token on, each
// documented operation and status is provoked, and the answer has that status, that media type, and a body its
// schema accepts (zod reads the document's JSON Schema); every endpoint discovery names is documented. On the
// suite's server (everything off) the document leaves out what discovery leaves out, and those paths are 404.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import * as oidc from 'openid-client';
import { z } from 'zod';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { issueInitialAccessToken } from '../../lib/registration/tokens.ts';
import { freePort, isolatedDatabase, startServer } from '../support/server.ts';

const suiteUrl = process.env.GATEHOUSE_TEST_URL ?? 'http://localhost:3000';
const own = isolatedDatabase('protocol-openapi');
const port = await freePort();
process.env.GATEHOUSE_TEST_URL = `http://localhost:${port}`;
process.env.GATEHOUSE_TEST_DATABASE_URL = own.url;
const { authorize, TestBrowser } = await import('../support/browser.ts');
const { baseUrl, basic, makeClient, makeUser, pkce, redirectUri } = await import('../support/fixtures.ts');

const ON = { DEVICE_FLOW: 'on', PUSHED_AUTHORIZATION_REQUESTS: 'on', REQUEST_OBJECTS: 'on', DPOP: 'on', PAIRWISE_SUBJECTS: 'on', CLAIMS_PARAMETER: 'on' };
// Few free wrong guesses per address, so the device page's 429 is reached; the probes sign people in before it.
const instance = await startServer(
  { DATABASE_URL: own.url, ISSUER: baseUrl, DYNAMIC_REGISTRATION: 'token', THROTTLE_SOURCE_FREE_FAILURES: '4', ...ON },
  { port, ready: { timeoutMs: 120_000 } },
);
const db = database(own.url);

after(async () => {
  await instance.stop();
  await closeDatabase(own.url);
  await own.drop();
});

// biome-ignore lint/suspicious/noExplicitAny: a parsed JSON document, read by the paths the assertions name
type Json = Record<string, any>;
const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';

async function documentOf(url: string): Promise<Json> {
  const response = await fetch(new URL('/api/protocol/openapi.json', url));
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  return response.json();
}

/** The schema of an answer, as zod reads it: the document's components as $defs. */
function schemaOf(document: Json, schema: Json): z.ZodType {
  const text = JSON.stringify({ ...schema, $defs: document.components.schemas }).replaceAll('#/components/schemas/', '#/$defs/');
  return z.fromJSONSchema(JSON.parse(text));
}

const form = (body: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(body).toString(),
});
const at = (path: string, init: RequestInit = {}) => fetch(new URL(path, baseUrl), { redirect: 'manual', ...init });
const json = (method: string, body: unknown, bearer?: string): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
  body: JSON.stringify(body),
});

// What the probes share: a confidential client with every grant, a person's tokens from the real forms.
const app = await makeClient({
  grantTypes: ['authorization_code', 'refresh_token', 'client_credentials', DEVICE_CODE],
  scopes: ['openid', 'profile', 'email', 'offline_access'],
});
const auth = { authorization: basic(app.id, app.clientSecret!) };
const wrongAuth = { authorization: basic(app.id, 'not-the-secret') };
const plainApp = await makeClient();

async function personTokens() {
  const config = await oidc.discovery(new URL(baseUrl), app.id, undefined, oidc.ClientSecretBasic(app.clientSecret), { execute: [oidc.allowInsecureRequests] });
  const { verifier, challenge } = await pkce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid profile',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const callback = await authorize(new TestBrowser(baseUrl), url, await makeUser());
  const code = callback.searchParams.get('code')!;
  return { code, verifier };
}

async function accessToken(): Promise<string> {
  const response = await at('/oauth/token', form({ grant_type: 'client_credentials', scope: 'openid' }, auth));
  return (await response.json()).access_token;
}

const authorizeQuery = async (client = app) =>
  new URLSearchParams({
    client_id: client.id,
    response_type: 'code',
    redirect_uri: redirectUri,
    scope: 'openid',
    code_challenge: (await pkce()).challenge,
    code_challenge_method: 'S256',
  });

async function registered() {
  const { token } = await issueInitialAccessToken(db, { name: `openapi ${randomBytes(3).toString('hex')}`, redirectHosts: ['127.0.0.1'] }, { now: Date.now() });
  const response = await at('/oauth/register', json('POST', { redirect_uris: [redirectUri], client_name: 'Documented' }, token));
  assert.equal(response.status, 201);
  return (await response.json()) as { client_id: string; registration_access_token: string };
}

/** One way to get each documented answer, by "METHOD path status". */
const probes: Record<string, () => Promise<Response>> = {
  'GET /.well-known/openid-configuration 200': () => at('/.well-known/openid-configuration'),
  'GET /oauth/jwks 200': () => at('/oauth/jwks'),
  'GET /oauth/authorize 303': async () => at(`/oauth/authorize?${await authorizeQuery()}`),
  'GET /oauth/authorize 400': async () => at(`/oauth/authorize?${await authorizeQuery({ ...app, id: 'no-such-client' })}`),
  'POST /oauth/authorize 303': async () => at('/oauth/authorize', form(Object.fromEntries(await authorizeQuery()))),
  'POST /oauth/token 200': async () => {
    const { code, verifier } = await personTokens();
    return at('/oauth/token', form({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri }, auth));
  },
  'POST /oauth/token 400': () =>
    at('/oauth/token', form({ grant_type: 'authorization_code', code: 'nope', redirect_uri: redirectUri, code_verifier: 'x'.repeat(43) }, auth)),
  'POST /oauth/token 401': () => at('/oauth/token', form({ grant_type: 'client_credentials' }, wrongAuth)),
  'GET /oauth/userinfo 200': async () => {
    const { code, verifier } = await personTokens();
    const tokens = await (
      await at('/oauth/token', form({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri }, auth))
    ).json();
    return at('/oauth/userinfo', { headers: { authorization: `Bearer ${tokens.access_token}` } });
  },
  'GET /oauth/userinfo 401': () => at('/oauth/userinfo', { headers: { authorization: 'Bearer not-a-token' } }),
  'POST /oauth/userinfo 200': async () => {
    const { code, verifier } = await personTokens();
    const tokens = await (
      await at('/oauth/token', form({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri }, auth))
    ).json();
    return at('/oauth/userinfo', { method: 'POST', headers: { authorization: `Bearer ${tokens.access_token}` } });
  },
  'POST /oauth/userinfo 401': () => at('/oauth/userinfo', { method: 'POST', headers: { authorization: 'Bearer not-a-token' } }),
  'POST /oauth/introspect 200': async () => at('/oauth/introspect', form({ token: await accessToken() }, auth)),
  'POST /oauth/introspect 400': () => at('/oauth/introspect', form({}, auth)),
  'POST /oauth/introspect 401': () => at('/oauth/introspect', form({ token: 'x' }, wrongAuth)),
  'POST /oauth/revoke 200': async () => at('/oauth/revoke', form({ token: await accessToken() }, auth)),
  'POST /oauth/revoke 400': () => at('/oauth/revoke', form({}, auth)),
  'POST /oauth/revoke 401': () => at('/oauth/revoke', form({ token: 'x' }, wrongAuth)),
  'GET /interaction/{uid} 200': async () => {
    const started = await at(`/oauth/authorize?${await authorizeQuery()}`);
    return at(new URL(started.headers.get('location')!, baseUrl).pathname);
  },
  'POST /interaction/{uid}/confirm 303': () => at('/interaction/no-such-interaction/confirm', form({}, { origin: baseUrl })),
  'GET /oauth/logout 200': () => at('/oauth/logout'),
  'GET /oauth/logout 400': () => at(`/oauth/logout?${new URLSearchParams({ client_id: app.id, post_logout_redirect_uri: 'https://elsewhere.example/' })}`),
  'POST /oauth/device/auth 200': () => at('/oauth/device/auth', form({ scope: 'openid' }, auth)),
  'POST /oauth/device/auth 400': () => at('/oauth/device/auth', form({ client_id: plainApp.id, client_secret: plainApp.clientSecret!, scope: 'openid' })),
  'POST /oauth/device/auth 401': () => at('/oauth/device/auth', form({ scope: 'openid' }, wrongAuth)),
  'GET /oauth/device 200': () => at('/oauth/device'),
  'POST /oauth/device 200': async () => {
    const browser = new TestBrowser(baseUrl);
    const page = await (await browser.navigate('/oauth/device')).response.text();
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)![1];
    return (await browser.navigate('/oauth/device', form({ xsrf, user_code: 'BCDF-GHJK' }))).response;
  },
  'POST /oauth/device 429': async () => {
    // Each page carries the xsrf value its form must send back.
    const browser = new TestBrowser(baseUrl);
    let page = await (await browser.navigate('/oauth/device')).response.text();
    for (let guess = 0; ; guess++) {
      const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
      const { response } = await browser.navigate('/oauth/device', form({ xsrf, user_code: 'BCDF-GHJK' }));
      if (response.status === 429 || guess === 10) return response;
      page = await response.text();
    }
  },
  'POST /oauth/par 201': async () => at('/oauth/par', form(Object.fromEntries(await authorizeQuery()), auth)),
  'POST /oauth/par 400': async () =>
    at('/oauth/par', form({ ...Object.fromEntries(await authorizeQuery()), redirect_uri: 'https://elsewhere.example/cb' }, auth)),
  'POST /oauth/par 401': async () => at('/oauth/par', form(Object.fromEntries(await authorizeQuery()), wrongAuth)),
  'POST /oauth/register 201': async () => {
    const { token } = await issueInitialAccessToken(db, { name: 'openapi', redirectHosts: ['127.0.0.1'] }, { now: Date.now() });
    return at('/oauth/register', json('POST', { redirect_uris: [redirectUri], client_name: 'Documented' }, token));
  },
  'POST /oauth/register 400': async () => {
    const { token } = await issueInitialAccessToken(db, { name: 'openapi', redirectHosts: ['127.0.0.1'] }, { now: Date.now() });
    return at('/oauth/register', json('POST', { redirect_uris: ['https://elsewhere.example/cb'] }, token));
  },
  'POST /oauth/register 401': () => at('/oauth/register', json('POST', { redirect_uris: [redirectUri] }, 'not-a-token')),
  'GET /oauth/register/{client_id} 200': async () => {
    const client = await registered();
    return at(`/oauth/register/${client.client_id}`, { headers: { authorization: `Bearer ${client.registration_access_token}` } });
  },
  'GET /oauth/register/{client_id} 401': async () => at(`/oauth/register/${(await registered()).client_id}`, { headers: { authorization: 'Bearer nope' } }),
  'PUT /oauth/register/{client_id} 200': async () => {
    const client = await registered();
    return at(
      `/oauth/register/${client.client_id}`,
      json('PUT', { client_id: client.client_id, redirect_uris: [redirectUri], client_name: 'Renamed' }, client.registration_access_token),
    );
  },
  'PUT /oauth/register/{client_id} 400': async () => {
    const client = await registered();
    return at(
      `/oauth/register/${client.client_id}`,
      json('PUT', { client_id: client.client_id, redirect_uris: ['https://elsewhere.example/cb'] }, client.registration_access_token),
    );
  },
  'PUT /oauth/register/{client_id} 401': async () =>
    at(`/oauth/register/${(await registered()).client_id}`, json('PUT', { redirect_uris: [redirectUri] }, 'nope')),
  'DELETE /oauth/register/{client_id} 204': async () => {
    const client = await registered();
    return at(`/oauth/register/${client.client_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${client.registration_access_token}` } });
  },
  'DELETE /oauth/register/{client_id} 401': async () =>
    at(`/oauth/register/${(await registered()).client_id}`, { method: 'DELETE', headers: { authorization: 'Bearer nope' } }),
};

/** Every documented answer: "METHOD path status" and what it says. */
function documentedAnswers(document: Json) {
  const answers: { key: string; response: Json }[] = [];
  for (const [path, item] of Object.entries(document.paths as Json))
    for (const [method, operation] of Object.entries(item as Json))
      for (const [status, response] of Object.entries((operation as Json).responses))
        answers.push({ key: `${method.toUpperCase()} ${path} ${status}`, response: response as Json });
  return answers;
}

test('every documented status and field is what the server answers, with every feature on', async () => {
  const document = await documentOf(baseUrl);
  assert.match(document.openapi, /^3\.1\./);
  assert.equal(document.servers[0].url, baseUrl);
  for (const scheme of ['clientSecretBasic', 'clientSecretPost', 'bearer', 'dpop']) assert.ok(document.components.securitySchemes[scheme], scheme);
  for (const name of ['TokenResponse', 'ErrorResponse', 'IntrospectionResponse']) assert.ok(document.components.schemas[name], name);
  const answers = documentedAnswers(document);
  assert.deepEqual(new Set(answers.map((a) => a.key)), new Set(Object.keys(probes)), 'a probe for every documented answer, and nothing else');
  const wrong: string[] = [];
  for (const { key, response: documented } of answers) {
    const response = await probes[key]();
    const status = Number(key.split(' ').at(-1));
    const text = await response.text();
    const [media, content] = Object.entries((documented.content ?? {}) as Json)[0] ?? [];
    const type = response.headers.get('content-type') ?? '';
    if (response.status !== status) wrong.push(`${key}: ${response.status} ${text.slice(0, 300)}`);
    else if (!media) status < 300 && text !== '' && wrong.push(`${key}: a body where none is documented: ${text.slice(0, 200)}`);
    else if (!type.startsWith(media)) wrong.push(`${key}: ${type}, documented ${media}`);
    else {
      for (const header of Object.keys(documented.headers ?? {})) response.headers.get(header) || wrong.push(`${key}: no ${header}`);
      if (media.endsWith('json')) {
        const parsed = schemaOf(document, content.schema).safeParse(JSON.parse(text));
        if (!parsed.success) wrong.push(`${key}: ${text.slice(0, 500)}\n${parsed.error.message}`);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

test('a DPoP-bound token answer is a TokenResponse of token_type DPoP', async () => {
  const document = await documentOf(baseUrl);
  let body: unknown;
  const config = await oidc.discovery(new URL(baseUrl), app.id, undefined, oidc.ClientSecretBasic(app.clientSecret), { execute: [oidc.allowInsecureRequests] });
  config[oidc.customFetch] = async (url, options) => {
    const response = await fetch(url, options as RequestInit);
    if (new URL(url).pathname === '/oauth/token' && response.ok) body = await response.clone().json();
    return response;
  };
  const DPoP = oidc.getDPoPHandle(config, await oidc.randomDPoPKeyPair());
  await oidc.clientCredentialsGrant(config, { scope: 'openid' }, { DPoP });
  const schema = document.paths['/oauth/token'].post.responses['200'].content['application/json'].schema;
  assert.equal((schemaOf(document, schema).parse(body) as Json).token_type, 'DPoP');
});

test('every endpoint discovery names is documented, on and off; what is off is absent and not served', async () => {
  for (const url of [baseUrl, suiteUrl]) {
    const document = await documentOf(url);
    const metadata = (await (await fetch(new URL('/.well-known/openid-configuration', url))).json()) as Json;
    const named = Object.entries(metadata).filter(([key]) => key.endsWith('_endpoint') || key === 'jwks_uri');
    assert.ok(named.length >= 7);
    for (const [key, value] of named) assert.ok(document.paths[new URL(value).pathname], `${url}: ${key} ${value} is documented`);
    for (const [key, path] of [
      ['device_authorization_endpoint', '/oauth/device/auth'],
      ['pushed_authorization_request_endpoint', '/oauth/par'],
      ['registration_endpoint', '/oauth/register'],
    ]) {
      assert.equal(Boolean(document.paths[path]), key in metadata, `${url}: ${path} documented exactly when discovery names it`);
      if (!(key in metadata)) assert.equal((await fetch(new URL(path, url), form({}))).status, 404, `${url}: ${path} is not served`);
    }
    assert.equal(Boolean(document.components.securitySchemes.dpop), 'dpop_signing_alg_values_supported' in metadata, `${url}: the DPoP scheme`);
    const grantTypes = document.paths['/oauth/token'].post.requestBody.content['application/x-www-form-urlencoded'].schema.properties.grant_type.enum;
    assert.deepEqual(new Set(grantTypes), new Set(metadata.grant_types_supported), `${url}: the grant types`);
  }
});
