// runs-on: mounts
// Discovery, JWKS, the landing page, and URLs pinned to the configured issuer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baseUrl } from '../support/fixtures.ts';

const discoveryUrl = new URL('/.well-known/openid-configuration', baseUrl);

test('discovery advertises exactly what works', async () => {
  const response = await fetch(discoveryUrl);
  assert.equal(response.status, 200);
  const d = await response.json();
  assert.equal(d.issuer, baseUrl);
  assert.equal(d.authorization_endpoint, `${baseUrl}/oauth/authorize`);
  assert.equal(d.token_endpoint, `${baseUrl}/oauth/token`);
  assert.equal(d.userinfo_endpoint, `${baseUrl}/oauth/userinfo`);
  assert.equal(d.jwks_uri, `${baseUrl}/oauth/jwks`);
  assert.equal(d.introspection_endpoint, `${baseUrl}/oauth/introspect`);
  assert.equal(d.revocation_endpoint, `${baseUrl}/oauth/revoke`);
  assert.equal(d.end_session_endpoint, `${baseUrl}/oauth/logout`);
  assert.deepEqual(d.response_types_supported, ['code']);
  assert.deepEqual(d.code_challenge_methods_supported, ['S256']);
  assert.deepEqual(new Set(d.grant_types_supported), new Set(['authorization_code', 'refresh_token', 'client_credentials']));
  assert.deepEqual(new Set(d.token_endpoint_auth_methods_supported), new Set(['client_secret_basic', 'client_secret_post', 'none']));
  assert.ok(d.scopes_supported.includes('openid'));
  assert.ok(d.claims_supported.includes('preferred_username'));
  assert.equal(d.pushed_authorization_request_endpoint, undefined);
  assert.equal(d.registration_endpoint, undefined);
});

test('a spoofed Host or X-Forwarded-* header never changes a URL', async () => {
  const honest = await (await fetch(discoveryUrl)).text();
  const spoofed = await (
    await fetch(discoveryUrl, {
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https', forwarded: 'host=evil.example;proto=https' },
    })
  ).text();
  assert.equal(spoofed, honest);
  assert.doesNotMatch(spoofed, /evil/);
});

test('JWKS publishes public keys only, each with kid and alg', async () => {
  const response = await fetch(new URL('/oauth/jwks', baseUrl));
  assert.equal(response.status, 200);
  const { keys } = await response.json();
  assert.ok(keys.length >= 2);
  for (const key of keys) {
    assert.ok(key.kid && key.alg, JSON.stringify(key));
    for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) assert.equal(key[secret], undefined, `private member ${secret} leaked`);
  }
  assert.deepEqual(new Set(keys.map((k: { alg: string }) => k.alg)), new Set(['RS256', 'ES256']));
});

test('unknown provider routes answer JSON errors, not pages', async () => {
  const response = await fetch(new URL('/oauth/nope', baseUrl));
  assert.equal(response.status, 404);
  const body = await response.json();
  assert.equal(body.error, 'invalid_request');
  assert.ok(response.headers.get('x-request-id'));
});

test('userinfo without a token is 401 with a Bearer challenge', async () => {
  const response = await fetch(new URL('/oauth/userinfo', baseUrl));
  assert.equal(response.status, 401);
  assert.match(response.headers.get('www-authenticate')!, /^Bearer /);
  assert.equal((await response.json()).error, 'invalid_token');
});

test('the landing page names the issuer and links discovery', async () => {
  const html = await (await fetch(baseUrl)).text();
  assert.match(html, /OpenID Connect/);
  assert.ok(html.includes(`${baseUrl}/.well-known/openid-configuration`));
});

test("the provider's answers carry the same security headers as the pages, on every mount", async () => {
  const answers = await Promise.all([
    fetch(discoveryUrl),
    fetch(new URL('/oauth/logout', baseUrl)),
    fetch(new URL('/oauth/token', baseUrl), { method: 'POST', body: new URLSearchParams({ grant_type: 'client_credentials' }) }),
  ]);
  for (const response of answers) {
    await response.arrayBuffer();
    assert.equal(response.headers.get('x-frame-options'), 'DENY', response.url);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff', response.url);
    assert.equal(response.headers.get('referrer-policy'), 'same-origin', response.url);
    assert.match(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/, response.url);
  }
});

test('discovery and the JWKS answer the same document and headers every time, each with its own request id', async () => {
  for (const url of [discoveryUrl, new URL('/oauth/jwks', baseUrl)]) {
    const answers = [];
    for (let i = 0; i < 3; i++) {
      const response = await fetch(url);
      const headers = Object.fromEntries([...response.headers].filter(([name]) => name !== 'date' && name !== 'x-request-id'));
      answers.push({ status: response.status, headers, body: await response.text(), id: response.headers.get('x-request-id') });
    }
    assert.equal(answers[0].status, 200);
    assert.equal(new Set(answers.map((a) => a.id)).size, 3, 'a request id per answer');
    for (const answer of answers.slice(1)) {
      assert.equal(answer.body, answers[0].body, url.pathname);
      assert.deepEqual(answer.headers, answers[0].headers, url.pathname);
    }
    assert.match(answers[0].headers['content-type'], /application\/(json|jwk-set\+json)/);
  }
});
