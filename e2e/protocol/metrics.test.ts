// runs-on: everywhere
// alone: expects exactly the figures its own requests moved: another file's requests would move them too
// Prometheus metrics (lib/ops/metrics.ts) scraped from the server under test's METRICS_PORT (scripts/test.ts):
// each test reads the figures, does something over HTTP, reads them again and expects exactly what it caused.
// The same figures on the issuer's own port at /metrics for the bearer of METRICS_TOKEN, and for no one else.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as oidc from 'openid-client';
import { authorize, TestBrowser } from '../support/browser.ts';
import { basic, baseUrl, discover, makeClient, makeUser, pkce, post, redirectUri, signIn } from '../support/fixtures.ts';

const metricsUrl = process.env.GATEHOUSE_TEST_METRICS_URL;
const skip = metricsUrl ? false : 'GATEHOUSE_TEST_METRICS_URL is not set (scripts/test.ts sets it with the server it starts)';

type Scrape = Map<string, number>;

async function scrape(): Promise<Scrape> {
  // The npm start mount counts a request when its response has gone (lib/oidc/mounts/node.ts): give that a moment.
  await new Promise((r) => setTimeout(r, 100));
  const response = await fetch(metricsUrl!);
  assert.equal(response.status, 200);
  const samples: Scrape = new Map();
  for (const line of (await response.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}

/** How much a series moved between two scrapes (a series first seen in `after` moved from 0). */
function moved(before: Scrape, after: Scrape, series: string): number {
  return (after.get(series) ?? 0) - (before.get(series) ?? 0);
}

/** How much the series whose name and labels start with `prefix` moved together (e.g. one route, every status). */
function movedAll(before: Scrape, after: Scrape, prefix: string): number {
  return [...after.keys()].filter((series) => series.startsWith(prefix)).reduce((sum, series) => sum + moved(before, after, series), 0);
}

test('client_credentials: one token issued, one 200 and one 401 at the token endpoint, the calls to storage timed', { skip }, async () => {
  const client = await makeClient({ grantTypes: ['client_credentials'], redirectUris: [], postLogoutRedirectUris: [] });
  const before = await scrape();
  const ok = await post('/oauth/token', { grant_type: 'client_credentials' }, { authorization: basic(client.id, client.clientSecret!) });
  assert.equal(ok.status, 200);
  const refused = await post('/oauth/token', { grant_type: 'client_credentials' }, { authorization: basic(client.id, 'not-the-secret') });
  assert.equal(refused.status, 401);
  const after = await scrape();
  assert.equal(moved(before, after, 'gatehouse_tokens_issued_total{grant_type="client_credentials"}'), 1);
  assert.equal(moved(before, after, 'gatehouse_http_requests_total{route="token",status="200"}'), 1);
  assert.equal(moved(before, after, 'gatehouse_http_requests_total{route="token",status="401"}'), 1);
  assert.equal(moved(before, after, 'gatehouse_http_request_duration_seconds_count{route="token",status="200"}'), 1);
  assert.ok(moved(before, after, 'gatehouse_storage_call_duration_seconds_count{operation="find"}') >= 1, 'the client was read');
});

test('a sign-in with consent and its code redeemed: one sign-in, one consent, one code grant, one more session, one discovery', { skip }, async () => {
  const client = await makeClient();
  const before = await scrape();
  const { tokens } = await signIn(client);
  assert.ok(tokens.access_token);
  const after = await scrape();
  assert.equal(moved(before, after, 'gatehouse_sign_ins_total{outcome="succeeded"}'), 1);
  assert.equal(moved(before, after, 'gatehouse_sign_ins_total{outcome="failed"}'), 0);
  assert.equal(moved(before, after, 'gatehouse_consents_total{outcome="granted"}'), 1);
  assert.equal(moved(before, after, 'gatehouse_tokens_issued_total{grant_type="authorization_code"}'), 1);
  assert.equal(moved(before, after, 'gatehouse_active_sessions'), 1);
  assert.equal(moved(before, after, 'gatehouse_http_requests_total{route="discovery",status="200"}'), 1);
  assert.equal(moved(before, after, 'gatehouse_http_requests_total{route="token",status="200"}'), 1);
  // The request, then its resume after the login and after the consent (RFC 6749 §4.1.1, oidc-provider's resume URL).
  assert.equal(movedAll(before, after, 'gatehouse_http_requests_total{route="authorization",'), 3);
});

test('wrong passwords: each one failed, until the throttle refuses the attempt; a denied consent', { skip }, async () => {
  const user = await makeUser();
  const client = await makeClient();
  const config = await discover(client);
  const { challenge } = await pkce();
  const url = oidc.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' });
  const before = await scrape();
  const browser = new TestBrowser(baseUrl);
  let page = await browser.navigate(url);
  // THROTTLE_ACCOUNT_FREE_FAILURES (5) cost nothing; the 6th earns a wait of 1 s, so an attempt right after is
  // refused unchecked. On a slow machine one more may come after the wait and fail: every attempt counts once.
  for (let i = 0; i < 8; i++) page = await browser.submit(await page.response.text(), '/login', { username: user.username, password: 'wrong' });
  const afterFailures = await scrape();
  const failed = moved(before, afterFailures, 'gatehouse_sign_ins_total{outcome="failed"}');
  const throttled = moved(before, afterFailures, 'gatehouse_sign_ins_total{outcome="throttled"}');
  assert.equal(failed + throttled, 8);
  assert.ok(failed >= 6 && throttled >= 1, `${failed} failed, ${throttled} throttled`);
  // The throttle's own count of what it refused (lib/ops/throttle-metrics.ts): the same attempts, by check and reason.
  assert.equal(movedAll(before, afterFailures, 'gatehouse_throttle_refusals_total{kind="password",'), throttled);
  assert.equal(moved(before, afterFailures, 'gatehouse_sign_ins_total{outcome="succeeded"}'), 0);

  const other = await makeUser();
  const location = await authorize(new TestBrowser(baseUrl), url, other, { consent: 'deny' });
  assert.equal(location.searchParams.get('error'), 'access_denied');
  const afterDenial = await scrape();
  assert.equal(moved(afterFailures, afterDenial, 'gatehouse_sign_ins_total{outcome="succeeded"}'), 1);
  assert.equal(moved(afterFailures, afterDenial, 'gatehouse_consents_total{outcome="denied"}'), 1);
  assert.equal(moved(afterFailures, afterDenial, 'gatehouse_consents_total{outcome="granted"}'), 0);
});

test('process figures: memory, event-loop lag, the argon2id queue; no path ever becomes a label', { skip }, async () => {
  assert.equal((await fetch(new URL('/oauth/no-such-endpoint-d41d8cd9', baseUrl))).status, 404);
  const after = await scrape();
  assert.ok((after.get('process_resident_memory_bytes') ?? 0) > 10_000_000);
  assert.ok(after.has('nodejs_eventloop_lag_seconds'));
  assert.equal(after.get('gatehouse_argon2id_queue_length'), 0);
  assert.ok((after.get('gatehouse_http_requests_total{route="other",status="404"}') ?? 0) >= 1);
  assert.ok(![...after.keys()].some((series) => series.includes('d41d8cd9')));
});

test('pages and the admin API are counted and timed under routes of their own (npm start), never by path', { skip }, async () => {
  const before = await scrape();
  const page = await fetch(new URL('/sign-up-d41d8cd9', baseUrl), { redirect: 'manual' });
  await page.arrayBuffer();
  const admin = await fetch(new URL('/api/admin/users/d41d8cd9', baseUrl));
  assert.equal(admin.status, 401);
  await admin.arrayBuffer();
  const after = await scrape();
  if (process.env.GATEHOUSE_TEST_MOUNT === 'next') return; // Next offers no hook that sees a page's status (lib/oidc/mounts/next-route.ts)
  assert.equal(moved(before, after, `gatehouse_http_requests_total{route="page",status="${page.status}"}`), 1);
  assert.equal(moved(before, after, 'gatehouse_http_requests_total{route="admin_api",status="401"}'), 1);
  assert.equal(moved(before, after, 'gatehouse_http_request_duration_seconds_count{route="admin_api",status="401"}'), 1);
  assert.ok(![...after.keys()].some((series) => series.includes('d41d8cd9')));
});

test('readiness, the build, the pool and Redis as gauges', { skip }, async () => {
  const after = await scrape();
  assert.equal(after.get('gatehouse_ready'), 1);
  const version = JSON.parse(readFileSync('package.json', 'utf8')).version;
  const build = [...after.keys()].find((series) => series.startsWith('gatehouse_build_info{'));
  assert.match(build ?? '', new RegExp(`^gatehouse_build_info\\{version="${version.replaceAll('.', '\\.')}",node="\\d+\\.\\d+\\.\\d+"\\}$`));
  assert.equal(after.get(build!), 1);
  // The server's current ES256 key (lib/oidc/keys.ts) signs since its start at most, so it is younger than a year.
  const keyAge = after.get('gatehouse_signing_key_age_seconds{alg="ES256"}');
  assert.ok(keyAge !== undefined && keyAge >= 0 && keyAge < 365 * 86_400, `key age ${keyAge}`);
  const postgres = /^postgres(ql)?:/.test(process.env.GATEHOUSE_TEST_DATABASE_URL ?? '');
  assert.equal(after.has('gatehouse_database_pool_connections{state="idle"}'), postgres, 'the pool, on PostgreSQL only');
  if (postgres) assert.ok((after.get('gatehouse_database_pool_waiting_queries') ?? -1) >= 0);
  // With REDIS_URL (scripts/test.ts's run with TEST_REDIS_URL) Redis answers; without it, no such series.
  assert.equal(after.get('gatehouse_redis_up'), process.env.REDIS_URL ? 1 : undefined);
});

const metricsToken = process.env.GATEHOUSE_TEST_METRICS_TOKEN;
const logFile = process.env.GATEHOUSE_TEST_LOG_FILE;
const skipToken = metricsToken && logFile ? false : 'GATEHOUSE_TEST_METRICS_TOKEN is not set (scripts/test.ts sets METRICS_TOKEN on the server it starts)';

test("METRICS_TOKEN: /metrics on the issuer's port for the bearer of the token, 401 otherwise, never logged at info", { skip: skipToken }, async () => {
  const url = new URL('/metrics', baseUrl);
  const ok = await fetch(url, { headers: { authorization: `Bearer ${metricsToken}` } });
  assert.equal(ok.status, 200);
  assert.match(ok.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  assert.equal(ok.headers.get('cache-control'), 'no-store');
  const text = await ok.text();
  // The same registry as METRICS_PORT's: the figures of this process.
  assert.match(text, /^gatehouse_http_requests_total\{route="discovery",status="200"\} \d+$/m);
  assert.match(text, /^process_resident_memory_bytes \d+/m);

  const anonymous = await fetch(url);
  assert.equal(anonymous.status, 401);
  assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer realm="metrics"');
  assert.doesNotMatch(await anonymous.text(), /gatehouse_/);
  const wrongToken = `${metricsToken!.slice(0, -4)}beef`;
  const wrong = await fetch(url, { headers: { authorization: `Bearer ${wrongToken}` } });
  assert.equal(wrong.status, 401);
  assert.equal(wrong.headers.get('www-authenticate'), 'Bearer realm="metrics", error="invalid_token"');
  const basicAuth = await fetch(url, { headers: { authorization: `Basic ${Buffer.from(`metrics:${metricsToken}`).toString('base64')}` } });
  assert.equal(basicAuth.status, 401);

  // Scrapes are logged at debug like the probes (lib/ops/request-observer.ts): no info line, and the token nowhere.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const log = readFileSync(logFile!, 'utf8');
  assert.ok(!log.includes(metricsToken!), 'the token is never logged');
  assert.ok(!log.includes(wrongToken), 'nor a wrong one');
  const scrapeLines = log
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; route?: string; level?: number })
    .filter((line) => line.msg === 'request' && line.route === '/metrics');
  assert.deepEqual(scrapeLines, []);
});
