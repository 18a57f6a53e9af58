// The metrics registry and its server: what each call counts, the closed label lists, the gauges read at scrape time.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { countActiveSessions, upsertArtifact } from '../db/artifacts.ts';
import { testDatabases } from '../db/testing.ts';
import { adapterFor } from '../oidc/adapter.ts';
import { metricRoute } from '../oidc/mounts/metric-routes.ts';
import { createMetricsServer, startMetricsServer } from './metrics-server.ts';
import { createMetrics, type Metrics } from './metrics.ts';

/** One sample's value from the text format, or undefined when the series does not exist. */
async function sample(metrics: Metrics, series: string): Promise<number | undefined> {
  const line = (await metrics.registry.metrics()).split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test('a provider request is counted and timed under its route and status', async () => {
  const metrics = createMetrics();
  metrics.providerRequest('token')(200);
  metrics.providerRequest('token')(200);
  metrics.providerRequest('token')(401);
  assert.equal(await sample(metrics, 'gatehouse_http_requests_total{route="token",status="200"}'), 2);
  assert.equal(await sample(metrics, 'gatehouse_http_requests_total{route="token",status="401"}'), 1);
  assert.equal(await sample(metrics, 'gatehouse_http_request_duration_seconds_count{route="token",status="200"}'), 2);
});

test('paths become one of the closed list of routes, never themselves', () => {
  assert.equal(metricRoute('/.well-known/openid-configuration'), 'discovery');
  assert.equal(metricRoute('/oauth/jwks'), 'jwks');
  assert.equal(metricRoute('/oauth/authorize'), 'authorization');
  assert.equal(metricRoute('/oauth/authorize/Xy12-resume-uid'), 'authorization');
  assert.equal(metricRoute('/oauth/token'), 'token');
  assert.equal(metricRoute('/oauth/userinfo'), 'userinfo');
  assert.equal(metricRoute('/oauth/introspect'), 'introspection');
  assert.equal(metricRoute('/oauth/revoke'), 'revocation');
  assert.equal(metricRoute('/oauth/logout/confirm'), 'end_session');
  assert.equal(metricRoute('/oauth/wp-admin.php'), 'other');
  assert.equal(metricRoute('/.well-known/webfinger'), 'other');
});

test('tokens per grant type, sign-ins and consents per outcome; an unknown grant type is `other`', async () => {
  const metrics = createMetrics();
  metrics.tokenIssued('client_credentials');
  metrics.tokenIssued('urn:made:up');
  metrics.tokenIssued(undefined);
  metrics.signIn('failed');
  metrics.signIn('throttled');
  metrics.consent('denied');
  assert.equal(await sample(metrics, 'gatehouse_tokens_issued_total{grant_type="client_credentials"}'), 1);
  assert.equal(await sample(metrics, 'gatehouse_tokens_issued_total{grant_type="other"}'), 2);
  assert.equal(await sample(metrics, 'gatehouse_sign_ins_total{outcome="failed"}'), 1);
  assert.equal(await sample(metrics, 'gatehouse_sign_ins_total{outcome="throttled"}'), 1);
  assert.equal(await sample(metrics, 'gatehouse_sign_ins_total{outcome="succeeded"}'), undefined);
  assert.equal(await sample(metrics, 'gatehouse_consents_total{outcome="denied"}'), 1);
});

test('gauges are read at scrape time; a session count that fails is NaN and the scrape still answers', async () => {
  let waiting = 3;
  let sessions: () => Promise<number> = async () => 7;
  const metrics = createMetrics({ activeSessions: () => sessions(), argon2: () => ({ waiting, running: 2 }) });
  assert.equal(await sample(metrics, 'gatehouse_argon2id_queue_length'), 3);
  assert.equal(await sample(metrics, 'gatehouse_argon2id_in_progress'), 2);
  assert.equal(await sample(metrics, 'gatehouse_active_sessions'), 7);
  waiting = 0;
  sessions = () => Promise.reject(new Error('database down'));
  assert.equal(await sample(metrics, 'gatehouse_argon2id_queue_length'), 0);
  assert.ok(Number.isNaN(await sample(metrics, 'gatehouse_active_sessions')));
});

test('process metrics only when asked: memory and event-loop lag', async () => {
  assert.equal(await sample(createMetrics(), 'process_resident_memory_bytes'), undefined);
  const text = await createMetrics({ processMetrics: true }).registry.metrics();
  assert.match(text, /^process_resident_memory_bytes \d+/m);
  assert.match(text, /^nodejs_eventloop_lag_seconds /m);
  assert.match(text, /^nodejs_heap_size_used_bytes /m);
});

test('the metrics server: GET /metrics in the text format, 404 elsewhere, one server per process', async () => {
  const metrics = createMetrics();
  metrics.signIn('succeeded');
  const server = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0 });
  try {
    assert.equal(await startMetricsServer(createMetrics(), { host: '127.0.0.1', port: 0 }), server, 'a second start gets the first');
    const response = await fetch(server.url);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    assert.match(await response.text(), /^gatehouse_sign_ins_total\{outcome="succeeded"\} 1$/m);
    assert.equal((await fetch(server.url.replace('/metrics', '/'))).status, 404);
    assert.equal((await fetch(server.url, { method: 'POST' })).status, 404);
  } finally {
    await server.close();
  }
  assert.equal(createMetricsServer(metrics).listening, false);
});

for (const storage of testDatabases('metrics')) {
  describe(`storage metrics on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('active sessions: unexpired Session rows only', async () => {
      const db = await storage.open();
      const now = Date.now();
      const before = await countActiveSessions(db.sql, now);
      const id = () => randomBytes(16).toString('base64url');
      await upsertArtifact(db.sql, 'Session', id(), { accountId: 'a' }, now + 60_000);
      await upsertArtifact(db.sql, 'Session', id(), { accountId: 'a' }, now - 1);
      await upsertArtifact(db.sql, 'AccessToken', id(), { accountId: 'a' }, now + 60_000);
      assert.equal(await countActiveSessions(db.sql, now), before + 1);
    });

    test("the provider's adapter times each call per operation, failures included", async () => {
      const db = await storage.open();
      const metrics = createMetrics();
      const Adapter = adapterFor(db, metrics);
      const sessions = new Adapter('Session');
      await sessions.find('nothing-here');
      await sessions.find('nothing-here');
      await sessions.upsert(randomBytes(8).toString('hex'), { accountId: 'a' }, 60);
      await assert.rejects(new Adapter('Client').upsert('c', {}, 60));
      assert.equal(await sample(metrics, 'gatehouse_storage_call_duration_seconds_count{operation="find"}'), 2);
      assert.equal(await sample(metrics, 'gatehouse_storage_call_duration_seconds_count{operation="upsert"}'), 2);
      const untimed = adapterFor(db);
      assert.notEqual(untimed.prototype.find, Adapter.prototype.find, 'each adapterFor builds its own class');
    });
  });
}
