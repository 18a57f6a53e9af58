// Readiness (GET /readyz): each check that fails says which, in words that never carry a connection string.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import { openSql } from '../db/sql.ts';
import { testDatabases } from '../db/testing.ts';
import { createReadiness, healthMount, healthResponse } from './health.ts';

const quiet = () => undefined;

for (const storage of testDatabases('health')) {
  describe(`readiness on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('not ready while the provider is being built, ready once it is', async () => {
      const db = await storage.open();
      let built = false;
      const ready = createReadiness({ db, providerBuilt: () => built, log: quiet });
      assert.deepEqual(await ready(), { ready: false, reason: 'starting: the provider and its signing keys are not loaded yet' });
      built = true;
      assert.deepEqual(await ready(), { ready: true });
    });

    test('a migration of this build not applied is named; once all were applied, that is not asked again', async () => {
      const db = await storage.open();
      const [first] = await db.sql.all<{ migration_name: string }>('SELECT migration_name FROM _prisma_migrations ORDER BY migration_name LIMIT 1');
      const checkedEarlier = createReadiness({ db, providerBuilt: () => true, log: quiet });
      assert.deepEqual(await checkedEarlier(), { ready: true });
      await db.sql.run('UPDATE _prisma_migrations SET rolled_back_at = CURRENT_TIMESTAMP WHERE migration_name = ?', [first.migration_name]);
      try {
        const fresh = createReadiness({ db, providerBuilt: () => true, log: quiet });
        assert.deepEqual(await fresh(), { ready: false, reason: `migrations: 1 not applied (first: ${first.migration_name})` });
        assert.deepEqual(await checkedEarlier(), { ready: true }, 'compared once, then cached');
      } finally {
        await db.sql.run('UPDATE _prisma_migrations SET rolled_back_at = NULL WHERE migration_name = ?', [first.migration_name]);
      }
    });

    test('a closed database: 503 with the reason, the URL nowhere in it, the cause logged once', async () => {
      const sql = openSql(storage.url!);
      await sql.one('SELECT 1');
      await sql.close();
      const logged: string[] = [];
      const ready = createReadiness({ db: { sql }, providerBuilt: () => true, log: (line) => logged.push(line) });
      const response = await healthResponse(new Request('http://localhost/readyz'), '/readyz', ready);
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.deepEqual(await response.json(), { status: 'unavailable', reason: 'database: no answer to SELECT 1' });
      await ready();
      assert.equal(logged.length, 1, 'logged when readiness is lost, not at every probe');
      assert.match(logged[0], /^\[gatehouse\] not ready: database: no answer to SELECT 1: /);
    });
  });
}

test('an unreachable PostgreSQL server: 503, and neither its address nor its user in the answer', async () => {
  const sql = openSql('postgresql://gatehouse:s3cret@127.0.0.1:1/nowhere');
  try {
    const ready = createReadiness({ db: { sql }, providerBuilt: () => true, log: quiet });
    const response = await healthResponse(new Request('http://localhost/readyz'), '/readyz', ready);
    assert.equal(response.status, 503);
    const text = await response.text();
    assert.equal(text, '{"status":"unavailable","reason":"database: no answer to SELECT 1"}');
  } finally {
    await sql.close();
  }
});

test('/healthz answers 200 whatever readiness says; HEAD has no body', async () => {
  const notReady = async () => ({ ready: false as const, reason: 'starting' });
  const get = await healthResponse(new Request('http://localhost/healthz'), '/healthz', notReady);
  assert.equal(get.status, 200);
  assert.deepEqual(await get.json(), { status: 'ok' });
  const head = await healthResponse(new Request('http://localhost/readyz', { method: 'HEAD' }), '/readyz', notReady);
  assert.equal(head.status, 503);
  assert.equal(await head.text(), '');
});

test("npm start's mount answers GET and HEAD /healthz and /readyz and leaves everything else to Next", async () => {
  const mount = healthMount(async () => ({ ready: true }));
  const server = createServer((req, res) => {
    if (!mount(req, res)) res.writeHead(418).end('next');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    for (const path of ['/healthz', '/readyz', '/readyz?verbose=1']) {
      const response = await fetch(`${base}${path}`);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), 'application/json');
      assert.deepEqual(await response.json(), { status: 'ok' });
    }
    assert.equal((await fetch(`${base}/readyz`, { method: 'HEAD' })).status, 200);
    for (const [path, method] of [
      ['/healthz', 'POST'],
      ['/readyz/', 'GET'],
      ['/healthzz', 'GET'],
    ]) {
      assert.equal((await fetch(`${base}${path}`, { method })).status, 418, `${method} ${path} is Next's`);
    }
  } finally {
    server.close();
  }
});
