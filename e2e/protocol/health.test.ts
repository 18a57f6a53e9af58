// GET /healthz and /readyz (lib/ops/health.ts) on the server under test, whichever mount serves them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { baseUrl } from '../support/fixtures.ts';

for (const path of ['/healthz', '/readyz']) {
  test(`${path}: 200 {"status":"ok"}, JSON, never cached, no cookie; HEAD the same without a body`, async () => {
    const response = await fetch(new URL(path, baseUrl));
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(response.headers.get('set-cookie'), null);
    assert.deepEqual(await response.json(), { status: 'ok' });
    const head = await fetch(new URL(path, baseUrl), { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });
}

test('the metrics are not on the issuer: /metrics there is a page Next does not have', async () => {
  assert.equal((await fetch(new URL('/metrics', baseUrl))).status, 404);
});
