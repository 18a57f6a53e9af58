// runs-on: mounts
// CORS at the provider's endpoints (clientBasedCORS): a browser-based client's own origins only.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baseUrl, makeClient, post } from '../support/fixtures.ts';

const refreshRequest = (clientId: string) => ({ grant_type: 'refresh_token', refresh_token: 'not-a-token', client_id: clientId });

// A private-scheme redirect URI (RFC 8252 §7.1) has no origin of its own: URL
// parsing gives the opaque "null", the Origin that sandboxed frames and file:
// pages send (RFC 6454 §7.1). Allowing it would let any such page read the answers.
test('a native client\'s private-scheme redirect URI allows no origin, "null" least of all', async () => {
  const native = await makeClient({ type: 'public', redirectUris: ['com.example.app:/callback'] });
  const response = await post('/oauth/token', refreshRequest(native.id), { origin: 'null' });
  assert.equal(response.headers.get('access-control-allow-origin'), null);
  assert.equal(response.status, 400);
  assert.equal((await response.json()).error, 'invalid_request');
});

test("a browser-based client's redirect URI origin is allowed, another origin is not", async () => {
  const spa = await makeClient({ type: 'public', redirectUris: ['http://localhost:5173/callback', 'com.example.app:/callback'] });
  const allowed = await post('/oauth/token', refreshRequest(spa.id), { origin: 'http://localhost:5173' });
  assert.equal(allowed.headers.get('access-control-allow-origin'), 'http://localhost:5173');
  assert.equal((await allowed.json()).error, 'invalid_grant');
  for (const origin of ['null', 'http://localhost:5174', 'https://evil.example']) {
    const refused = await post('/oauth/token', refreshRequest(spa.id), { origin });
    assert.equal(refused.headers.get('access-control-allow-origin'), null, origin);
    assert.equal(refused.status, 400, origin);
  }
});

test('a preflight from the opaque origin "null" is not allowed either', async () => {
  const preflight = (origin: string) =>
    fetch(new URL('/oauth/token', baseUrl), {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
  const refused = await preflight('null');
  assert.equal(refused.headers.get('access-control-allow-origin'), null);
  // The control: a real origin's preflight is answered (the request itself is judged by clientBasedCORS).
  assert.equal((await preflight('http://localhost:5173')).headers.get('access-control-allow-origin'), 'http://localhost:5173');
});
