// runs-on: everywhere
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

test("the metrics are on the issuer's port only with METRICS_TOKEN (scripts/test.ts sets one), and only for its bearer", async () => {
  // Without METRICS_TOKEN, /metrics there is 404 (lib/ops/metrics.test.ts); e2e/protocol/metrics.test.ts presents the token.
  assert.equal((await fetch(new URL('/metrics', baseUrl))).status, process.env.GATEHOUSE_TEST_METRICS_TOKEN ? 401 : 404);
});
