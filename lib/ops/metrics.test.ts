// The metrics registry and its server: what each call counts, the closed label lists, the gauges read at scrape time.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { countActiveSessions, upsertArtifact } from '../db/artifacts.ts';
import { testDatabases } from '../db/testing.ts';
import { adapterFor } from '../oidc/adapter.ts';
import { metricRoute } from '../oidc/mounts/metric-routes.ts';
import { memoryLog } from './log.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseEnv } from '../config/env.ts';
import { createMetricsServer, metricsMount, metricsResponse, metricsTokenCheck, startMetricsServer } from './metrics-server.ts';
import { buildInfo, createMetrics, type Metrics, serverRoute } from './metrics.ts';
import { countedThrottle } from './throttle-metrics.ts';
import type { Throttle } from '../platform/throttle.ts';
import { RedisUnavailable } from '../db/redis-health.ts';

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

test('pages, the admin API, assets and probes are counted and timed under routes of their own, never their paths', async () => {
  assert.equal(serverRoute('/interaction/Xy12abcdefghijklmnop/login'), 'page');
  assert.equal(serverRoute('/account'), 'page');
  assert.equal(serverRoute('/admin/users/4f1c'), 'page');
  assert.equal(serverRoute('/api/admin/users/4f1c'), 'admin_api');
  assert.equal(serverRoute('/api/admin'), 'admin_api');
  assert.equal(serverRoute('/api/administrators'), 'api');
  assert.equal(serverRoute('/api/auth/session'), 'api');
  assert.equal(serverRoute('/_next/static/chunks/abc.js'), 'asset');
  assert.equal(serverRoute('/healthz'), 'health');
  assert.equal(serverRoute('/readyz'), 'health');
  assert.equal(serverRoute('/metrics'), 'metrics');
  const metrics = createMetrics();
  metrics.serverRequest('page')(200);
  metrics.serverRequest('admin_api')(201);
  metrics.serverRequest('admin_api')(500);
  assert.equal(await sample(metrics, 'gatehouse_http_requests_total{route="page",status="200"}'), 1);
  assert.equal(await sample(metrics, 'gatehouse_http_requests_total{route="admin_api",status="500"}'), 1);
  assert.equal(await sample(metrics, 'gatehouse_http_request_duration_seconds_count{route="admin_api",status="201"}'), 1);
});

test("the throttle's refusals by check and reason, and its lockouts, counted from what the throttle answers", async () => {
  const metrics = createMetrics();
  const refuse = { allowed: false as const, reason: 'locked' as const, retryAfterSeconds: 900, until: new Date() };
  const wait = { ...refuse, reason: 'throttled' as const, retryAfterSeconds: 2 };
  const fake = {
    beforePasswordCheck: async () => refuse,
    beforeSecondFactor: async () => ({ allowed: true as const }),
    clientAuthenticationFailed: async () => wait,
    beforeMailRequest: async () => ({ allowed: true as const }),
    beforeSignUp: async () => wait,
    beforeLinkCheck: async () => wait,
    passwordFailed: async () => ({ locked: true }),
    secondFactorFailed: async () => ({ locked: false }),
    unlock: async () => true,
  } as unknown as Throttle;
  const throttle = countedThrottle(fake, metrics);
  const attempt = { account: undefined, username: 'x', ip: null };
  assert.deepEqual(await throttle.beforePasswordCheck(attempt), refuse, 'the answer is passed on unchanged');
  await throttle.clientAuthenticationFailed({ clientId: 'c', ip: null });
  await throttle.clientAuthenticationFailed({ clientId: 'c', ip: null });
  await throttle.beforeSecondFactor('a');
  await throttle.beforeSignUp(null);
  await throttle.beforeLinkCheck(null);
  await throttle.passwordFailed(attempt);
  await throttle.secondFactorFailed('a');
  assert.equal(await throttle.unlock('a'), true, "what is not counted is the throttle's own");
  assert.equal(await sample(metrics, 'gatehouse_throttle_refusals_total{kind="password",reason="locked"}'), 1);
  assert.equal(await sample(metrics, 'gatehouse_throttle_refusals_total{kind="client",reason="throttled"}'), 2);
  assert.equal(await sample(metrics, 'gatehouse_throttle_refusals_total{kind="sign_up",reason="throttled"}'), 1);
  assert.equal(await sample(metrics, 'gatehouse_throttle_refusals_total{kind="link",reason="throttled"}'), 1);
  assert.equal(await sample(metrics, 'gatehouse_throttle_refusals_total{kind="second_factor",reason="throttled"}'), undefined);
  assert.equal(await sample(metrics, 'gatehouse_lockouts_total{kind="password"}'), 1);
  assert.equal(await sample(metrics, 'gatehouse_lockouts_total{kind="second_factor"}'), undefined);
});

test('storage errors by operation and by the store that failed; a call that settles without one is none', async () => {
  const metrics = createMetrics();
  metrics.storageCall('find')();
  metrics.storageCall('upsert')(new RedisUnavailable('127.0.0.1:6379'));
  metrics.storageCall('upsert')(new Error('database is locked'));
  assert.equal(await sample(metrics, 'gatehouse_storage_errors_total{operation="upsert",store="redis"}'), 1);
  assert.equal(await sample(metrics, 'gatehouse_storage_errors_total{operation="upsert",store="database"}'), 1);
  assert.equal(await sample(metrics, 'gatehouse_storage_errors_total{operation="find",store="database"}'), undefined);
  assert.equal(await sample(metrics, 'gatehouse_storage_call_duration_seconds_count{operation="upsert"}'), 2);
});

test('readiness, Redis, the pool and the build as gauges, read at each scrape; none of them without its source', async () => {
  let ready = true;
  let redis: 'unknown' | 'up' | 'down' = 'up';
  let pool = { total: 4, idle: 1, waiting: 2 };
  const metrics = createMetrics({
    ready: async () => ready,
    redis: () => redis,
    databasePool: () => pool,
    build: { version: '1.2.3', node: '24.0.0' },
    currentSigningKeys: async () => [{ alg: 'ES256', since: Date.now() - 3 * 86_400_000 }],
  });
  const keyAge = await sample(metrics, 'gatehouse_signing_key_age_seconds{alg="ES256"}');
  assert.ok(keyAge !== undefined && Math.abs(keyAge - 3 * 86_400) < 60, `three days: ${keyAge}`);
  assert.equal(await sample(metrics, 'gatehouse_ready'), 1);
  assert.equal(await sample(metrics, 'gatehouse_redis_up'), 1);
  assert.equal(await sample(metrics, 'gatehouse_database_pool_connections{state="busy"}'), 3);
  assert.equal(await sample(metrics, 'gatehouse_database_pool_connections{state="idle"}'), 1);
  assert.equal(await sample(metrics, 'gatehouse_database_pool_waiting_queries'), 2);
  assert.equal(await sample(metrics, 'gatehouse_build_info{version="1.2.3",node="24.0.0"}'), 1);
  ready = false;
  redis = 'down';
  pool = { total: 10, idle: 0, waiting: 7 };
  assert.equal(await sample(metrics, 'gatehouse_ready'), 0);
  assert.equal(await sample(metrics, 'gatehouse_redis_up'), 0);
  assert.equal(await sample(metrics, 'gatehouse_database_pool_connections{state="busy"}'), 10);
  assert.equal(await sample(metrics, 'gatehouse_database_pool_waiting_queries'), 7);
  redis = 'unknown';
  assert.equal(await sample(metrics, 'gatehouse_redis_up'), 0, 'not connected yet is not up');

  const bare = await createMetrics().registry.metrics();
  for (const name of [
    'gatehouse_ready',
    'gatehouse_redis_up',
    'gatehouse_database_pool_connections',
    'gatehouse_build_info',
    'gatehouse_signing_key_age_seconds',
  ]) {
    assert.doesNotMatch(bare, new RegExp(`^${name}`, 'm'), name);
  }
  assert.deepEqual(buildInfo(), { version: JSON.parse(readFileSync('package.json', 'utf8')).version, node: process.versions.node });
  assert.deepEqual(buildInfo('/nonexistent-folder'), { version: 'unknown', node: process.versions.node });
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
  const { log } = memoryLog();
  const metrics = createMetrics();
  metrics.signIn('succeeded');
  const server = await startMetricsServer(metrics, { host: '127.0.0.1', port: 0, log });
  try {
    assert.equal(await startMetricsServer(createMetrics(), { host: '127.0.0.1', port: 0, log }), server, 'a second start gets the first');
    const response = await fetch(server.url);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    assert.match(await response.text(), /^gatehouse_sign_ins_total\{outcome="succeeded"\} 1$/m);
    assert.equal((await fetch(server.url.replace('/metrics', '/'))).status, 404);
    assert.equal((await fetch(server.url, { method: 'POST' })).status, 404);
  } finally {
    await server.close();
  }
  assert.equal(createMetricsServer(metrics, log).listening, false);
});

test('METRICS_TOKEN: the bearer of the token only, compared whole; the others are told how to authenticate', () => {
  const token = randomBytes(32).toString('hex');
  const check = metricsTokenCheck(token);
  assert.equal(check(`Bearer ${token}`), 'ok');
  assert.equal(check(`bearer ${token}`), 'ok', 'the scheme is case-insensitive (RFC 7235 §2.1)');
  assert.equal(check(undefined), 'missing');
  assert.equal(check(`Basic ${Buffer.from(`x:${token}`).toString('base64')}`), 'missing');
  assert.equal(check(`Bearer ${token.slice(0, -1)}`), 'wrong');
  assert.equal(check(`Bearer ${token}0`), 'wrong');
  assert.equal(check(`Bearer ${token.toUpperCase()}`), 'wrong');
});

test('METRICS_TOKEN: at least 32 token characters, unset or empty as off', () => {
  assert.equal(parseEnv({}).METRICS_TOKEN, undefined);
  assert.equal(parseEnv({ METRICS_TOKEN: '  ' }).METRICS_TOKEN, undefined);
  const token = randomBytes(32).toString('base64');
  assert.equal(parseEnv({ METRICS_TOKEN: token }).METRICS_TOKEN, token);
  for (const wrong of ['short-token', 'a'.repeat(31), `${'a'.repeat(40)} b`, `${'a'.repeat(40)}"`]) {
    assert.throws(() => parseEnv({ METRICS_TOKEN: wrong }), /METRICS_TOKEN: METRICS_TOKEN must be at least 32 characters/, wrong);
  }
});

test("GET /metrics on the issuer's port: 200 with the token, 401 with a challenge without it, other paths and methods left to Next", async () => {
  const { log } = memoryLog();
  const metrics = createMetrics();
  metrics.consent('granted');
  const token = randomBytes(32).toString('hex');
  const mount = metricsMount(metrics, token, log);
  const server = createServer((req, res) => {
    if (!mount(req, res)) res.writeHead(418).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const ok = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('cache-control'), 'no-store');
    assert.match(await ok.text(), /^gatehouse_consents_total\{outcome="granted"\} 1$/m);
    const none = await fetch(`${url}/metrics`);
    assert.equal(none.status, 401);
    assert.equal(none.headers.get('www-authenticate'), 'Bearer realm="metrics"');
    assert.doesNotMatch(await none.text(), /gatehouse_/);
    const wrong = await fetch(`${url}/metrics?x=1`, { headers: { authorization: `Bearer ${randomBytes(32).toString('hex')}` } });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.headers.get('www-authenticate'), 'Bearer realm="metrics", error="invalid_token"');
    assert.equal((await fetch(`${url}/metrics`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status, 418);
    assert.equal((await fetch(`${url}/metricsx`, { headers: { authorization: `Bearer ${token}` } })).status, 418);
  } finally {
    server.close();
  }

  // Under `next start` (app/metrics): the same answers, and 404 without METRICS_TOKEN.
  const request = (authorization?: string) => new Request('http://localhost/metrics', { headers: authorization ? { authorization } : {} });
  assert.equal((await metricsResponse(request(`Bearer ${token}`), metrics, token, log)).status, 200);
  assert.equal((await metricsResponse(request(), metrics, token, log)).status, 401);
  assert.equal((await metricsResponse(request(`Bearer ${token}`), metrics, undefined, log)).status, 404);
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
      const Adapter = adapterFor(db, { now: Date.now, metrics });
      const sessions = new Adapter('Session');
      await sessions.find('nothing-here');
      await sessions.find('nothing-here');
      await sessions.upsert(randomBytes(8).toString('hex'), { accountId: 'a' }, 60);
      await assert.rejects(new Adapter('Client').upsert('c', {}, 60));
      assert.equal(await sample(metrics, 'gatehouse_storage_call_duration_seconds_count{operation="find"}'), 2);
      assert.equal(await sample(metrics, 'gatehouse_storage_call_duration_seconds_count{operation="upsert"}'), 2);
      assert.equal(await sample(metrics, 'gatehouse_storage_errors_total{operation="upsert",store="database"}'), 1, 'the failed upsert');
      // A code used twice is refused (invalid_grant), which is the store working, not failing.
      const codes = new Adapter('AuthorizationCode');
      const code = randomBytes(16).toString('base64url');
      await codes.upsert(code, { accountId: 'a', clientId: 'c' }, 60);
      await codes.consume(code);
      await assert.rejects(codes.consume(code), { name: 'InvalidGrant' });
      assert.equal(await sample(metrics, 'gatehouse_storage_errors_total{operation="consume",store="database"}'), undefined);
      const untimed = adapterFor(db, { now: Date.now });
      assert.notEqual(untimed.prototype.find, Adapter.prototype.find, 'each adapterFor builds its own class');
    });
  });
}
