// runs-on: mounts
// A path whose percent-encoding does not decode to UTF-8 (RFC 3986 §2.1, §2.5) is the
// client's mistake: 400 invalid_request on every route, never a 500.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baseUrl } from '../support/fixtures.ts';

const malformed = [
  '/oauth/%E0%A4%A', // a truncated escape
  '/oauth/token%zz',
  '/.well-known/%FF', // an escape that is no UTF-8
  '/interaction/%zz',
  '/interaction/%E0%A4%A/login',
  '/admin/%',
  '/account/%C0%AF', // an overlong UTF-8 encoding of '/'
  '/api/admin/%zz',
  '/api/auth/%zz',
  '/%',
];

for (const path of malformed) {
  for (const method of ['GET', 'POST']) {
    test(`${method} ${path} answers 400 invalid_request`, async () => {
      const response = await fetch(new URL(path, baseUrl), {
        method,
        ...(method === 'POST' ? { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=b' } : {}),
      });
      assert.equal(response.status, 400);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(await response.json(), {
        error: 'invalid_request',
        error_description: 'the request path is not valid percent-encoded UTF-8',
      });
    });
  }
}

test('a path that decodes is judged as before, the same path undecodable is a 400', async () => {
  assert.equal((await fetch(new URL('/interaction/%E2%9C', baseUrl))).status, 400);
  const provider = await fetch(new URL('/oauth/%6Eope', baseUrl));
  assert.equal(provider.status, 404);
  assert.equal((await provider.json()).error, 'invalid_request');
  const page = await fetch(new URL('/interaction/%E2%9C%93', baseUrl));
  assert.equal(page.status, 200, 'an unknown interaction shows its page');
});
