// runs-on: everywhere
// The token endpoint: grants, client authentication and malformed requests (RFC 6749 §3.2, §4, §5.2).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { basic, baseUrl, codeFlow, discover, makeClient, post, redirectUri } from '../support/fixtures.ts';

test('client_secret_post: client_id and client_secret in the form body', async () => {
  const client = await makeClient({ tokenEndpointAuthMethod: 'client_secret_post' });
  const { code, verifier } = await codeFlow(client);
  const response = await post('/oauth/token', {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: verifier,
    client_id: client.id,
    client_secret: client.clientSecret!,
  });
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('cache-control'), 'no-store');
  const body = await response.json();
  assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'id_token', 'refresh_token', 'scope', 'token_type']);
  assert.equal(body.token_type, 'Bearer');
  assert.equal(body.scope, 'openid');
});

test('a reused authorization code is invalid_grant and revokes the tokens issued from it', async () => {
  const client = await makeClient();
  const { code, verifier } = await codeFlow(client);
  const form = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier };
  const auth = { authorization: basic(client.id, client.clientSecret!) };
  const first = await (await post('/oauth/token', form, auth)).json();
  assert.ok(first.access_token);
  const second = await post('/oauth/token', form, auth);
  assert.equal(second.status, 400);
  assert.equal((await second.json()).error, 'invalid_grant');
  const introspected = await (await post('/oauth/introspect', { token: first.access_token }, auth)).json();
  assert.deepEqual(introspected, { active: false });
  const refreshed = await post('/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh_token }, auth);
  assert.equal((await refreshed.json()).error, 'invalid_grant');
});

test('two concurrent redemptions of one code: exactly one succeeds', async () => {
  const client = await makeClient();
  const { code, verifier } = await codeFlow(client);
  const form = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier };
  const auth = { authorization: basic(client.id, client.clientSecret!) };
  const responses = await Promise.all(Array.from({ length: 4 }, () => post('/oauth/token', form, auth)));
  assert.equal(responses.filter((r) => r.status === 200).length, 1);
});

test('a redirect_uri different from the authorization request is invalid_grant', async () => {
  const client = await makeClient({ redirectUris: [redirectUri, 'http://127.0.0.1:9/other'] });
  const { code, verifier } = await codeFlow(client);
  const response = await post(
    '/oauth/token',
    { grant_type: 'authorization_code', code, redirect_uri: 'http://127.0.0.1:9/other', code_verifier: verifier },
    { authorization: basic(client.id, client.clientSecret!) },
  );
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error, 'invalid_grant');
});

test('a wrong client secret is 401 invalid_client with WWW-Authenticate, in the header or the body', async () => {
  const client = await makeClient();
  const viaHeader = await post('/oauth/token', { grant_type: 'client_credentials' }, { authorization: basic(client.id, 'not-the-secret') });
  assert.equal(viaHeader.status, 401);
  assert.match(viaHeader.headers.get('www-authenticate')!, /^Basic /);
  assert.equal((await viaHeader.json()).error, 'invalid_client');

  const postClient = await makeClient({ tokenEndpointAuthMethod: 'client_secret_post' });
  const viaBody = await post('/oauth/token', { grant_type: 'client_credentials', client_id: postClient.id, client_secret: 'nope' });
  assert.equal(viaBody.status, 401);
  assert.ok(viaBody.headers.get('www-authenticate'));
  const body = await viaBody.json();
  assert.deepEqual(Object.keys(body).sort(), ['error', 'error_description']);
  assert.equal(body.error, 'invalid_client');
});

test('an unsupported grant type is unsupported_grant_type', async () => {
  const client = await makeClient();
  const response = await post(
    '/oauth/token',
    { grant_type: 'password', username: 'a', password: 'b' },
    { authorization: basic(client.id, client.clientSecret!) },
  );
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error, 'unsupported_grant_type');
});

test('a grant the client is not registered for is unauthorized_client', async () => {
  const client = await makeClient({ grantTypes: ['authorization_code'] });
  const response = await post('/oauth/token', { grant_type: 'client_credentials' }, { authorization: basic(client.id, client.clientSecret!) });
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error, 'unauthorized_client');
});

test('client_credentials issues an access token with the allowed scopes only', async () => {
  const client = await makeClient({ grantTypes: ['client_credentials'], redirectUris: [], scopes: ['introspect'], resourceServer: true });
  const ok = await oidc.clientCredentialsGrant(await discover(client), { scope: 'introspect' });
  assert.equal(ok.scope, 'introspect');
  assert.equal(ok.refresh_token, undefined);
  assert.equal(ok.id_token, undefined);
  const refused = await post('/oauth/token', { grant_type: 'client_credentials', scope: 'email' }, { authorization: basic(client.id, client.clientSecret!) });
  assert.equal(refused.status, 400);
  assert.equal((await refused.json()).error, 'invalid_scope');
});

test('malformed requests get invalid_request, never a crash', async () => {
  const client = await makeClient();
  const auth = { authorization: basic(client.id, client.clientSecret!) };
  const cases: Array<[string, RequestInit, string?]> = [
    ['JSON body', { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"grant_type":"client_credentials"}' }],
    ['empty body', { method: 'POST', headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, body: '' }],
    [
      'duplicate parameter',
      {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials&grant_type=client_credentials',
      },
    ],
    [
      'broken percent-encoding',
      { method: 'POST', headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=%E0%A4%A' },
      'unsupported_grant_type',
    ],
    [
      'malformed Basic header',
      { method: 'POST', headers: { authorization: 'Basic !!!', 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' },
    ],
    [
      'two authentication methods',
      {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=client_credentials&client_id=${client.id}&client_secret=x`,
      },
    ],
  ];
  for (const [name, init, error = 'invalid_request'] of cases) {
    const response = await fetch(new URL('/oauth/token', baseUrl), init);
    assert.equal(response.status, 400, name);
    const body = await response.json();
    assert.equal(body.error, error, name);
    assert.equal(typeof body.error_description, 'string', name);
  }
  const get = await fetch(new URL('/oauth/token', baseUrl));
  assert.ok(get.status === 404 || get.status === 405);
  assert.equal((await get.json()).error, 'invalid_request');
});
