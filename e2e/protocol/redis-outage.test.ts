// A Redis outage (issue 29; README, *When Redis is lost*): an instance of npm start's server with REDIS_URL pointing at a
// redis-server this file starts itself, on a database of its own. Under a small token load (refresh rotations and
// client-credentials grants, each with client authentication, which reads the throttle's counters) Redis is stopped,
// then started again empty:
// - every refresh and client-credentials request of the load is answered 200, before, during and after the outage
//   (the throttle counts in the database; access tokens go to the table meanwhile), and a token issued during the
//   outage still introspects as active once Redis is back;
// - what cannot work without Redis (an authorization request, and the login of a sign-in begun before: their
//   interaction lives there) fails with a 5xx whose server_error line names Redis, and works again once it is back;
// - the log has one JSON line for Redis lost and one for Redis back, each naming it, and no ioredis text on stderr;
// - gatehouse_redis_up goes 1, 0, 1 on the metrics port.
// Runs on the npm start runs (either database); skipped where redis-server is not installed, except under CI.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { registerClient } from '../../lib/clients/manage.ts';
import { createUser } from '../../lib/users/manage.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { authorizeQuery, basic, pkce, redirectUri } from '../support/fixtures.ts';
import { freePort, isolatedDatabase, type ServerProcess, startServer } from '../support/server.ts';

/** Workers rotating a refresh token, and workers asking for client-credentials tokens, one request at a time each. */
const REFRESH_WORKERS = 2;
const CREDENTIALS_WORKERS = 1;
/** A ceiling on each worker's requests, so the load stays bounded however the machine is paced. */
const MAX_REQUESTS = 400;
/** A pause between one worker's requests: a small load, a few dozen requests a second. */
const PACE_MS = 20;
/** How long Redis stays down at least: long enough for ioredis to fail several reconnections (each would have been a stderr line). */
const OUTAGE_MS = 3000;
/** Generous, for a loaded 2-core machine: bounds on waiting, not measurements. */
const WAIT_MS = 30_000;

const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;
const skip =
  process.env.GATEHOUSE_TEST_MOUNT === 'next'
    ? "runs on the npm start runs (the instance's log and metrics are the same under next start)"
    : !hasRedisServer && process.env.CI !== 'true'
      ? 'redis-server is not installed (Debian: apt-get install redis-server); under CI=true a missing redis-server fails this test'
      : false;

let redisPort = 0;
let redis: ChildProcess | undefined;
let db: ReturnType<typeof isolatedDatabase> | undefined;
let server: ServerProcess | undefined;
let metricsUrl = '';
let app: { id: string };
let appAuth = '';
let apiAuth = '';
const users: { username: string; password: string }[] = [];

/** Starts redis-server on `redisPort`, keeping nothing on disk; resolves once it answers PING. */
async function startRedis(): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; ) {
    if (await pings()) return child;
    await sleep(50);
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not answer on port ${redisPort}`);
}

/** Whether something answers PING on `redisPort`. */
function pings(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(redisPort, '127.0.0.1');
    socket.setTimeout(1000, () => socket.destroy());
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      resolve(data.toString().startsWith('+PONG'));
      socket.destroy();
    });
  });
}

async function stopRedis(): Promise<void> {
  const child = redis;
  redis = undefined;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await gone;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The value of one series on the instance's metrics port, or undefined when it is not there. */
async function sample(series: string): Promise<number | undefined> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + WAIT_MS; Date.now() < deadline; await sleep(100)) {
    if (await check()) return;
  }
  assert.fail(`${what}: not within ${WAIT_MS} ms`);
}

/** The instance's log lines that parse as JSON. */
function logLines(): Array<Record<string, unknown>> {
  return server!
    .output()
    .split('\n')
    .flatMap((line) => {
      try {
        const parsed = JSON.parse(line);
        return parsed && typeof parsed === 'object' ? [parsed as Record<string, unknown>] : [];
      } catch {
        return [];
      }
    });
}

async function token(body: Record<string, string>, authorization: string): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(`${server!.url}/oauth/token`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
    signal: AbortSignal.timeout(WAIT_MS),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: { text: text.slice(0, 200) } };
  }
}

async function introspect(accessToken: string): Promise<boolean> {
  const response = await fetch(`${server!.url}/oauth/introspect`, {
    method: 'POST',
    headers: { authorization: apiAuth, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: accessToken }),
  });
  assert.equal(response.status, 200);
  return (await response.json()).active === true;
}

/** A full sign-in at the instance: its login and consent pages, the code redeemed; returns the refresh token. */
async function signIn(user: { username: string; password: string }): Promise<string> {
  const { verifier, challenge } = await pkce();
  const callback = await authorize(new TestBrowser(server!.url), new URL(`/oauth/authorize?${authorizeQuery(app, challenge)}`, server!.url), user);
  const code = callback.searchParams.get('code');
  assert.ok(code, `no code: ${callback}`);
  const redeemed = await token({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }, appAuth);
  assert.equal(redeemed.status, 200, JSON.stringify(redeemed.body));
  assert.ok(redeemed.body.refresh_token);
  return redeemed.body.refresh_token;
}

before(async () => {
  if (skip) return;
  assert.ok(hasRedisServer, 'redis-server is not installed: under CI=true this test must run (apt-get install redis-server)');
  redisPort = await freePort();
  redis = await startRedis();
  db = isolatedDatabase('redis-outage');
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  server = await startServer(
    {
      DATABASE_URL: db.url,
      REDIS_URL: `redis://127.0.0.1:${redisPort}`,
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: '127.0.0.1',
      ADMIN_PASSWORD: randomBytes(18).toString('base64url'),
      LOG_LEVEL: 'info',
    },
    { mount: 'server', ready: { path: '/readyz', timeoutMs: 120_000 } },
  );
  const store = database(db.url);
  const registered = await registerClient(store, { name: 'Outage app', grantTypes: ['authorization_code', 'refresh_token'], redirectUris: [redirectUri] });
  app = registered.client;
  appAuth = basic(app.id, registered.clientSecret!);
  const api = await registerClient(store, {
    name: 'Outage API',
    grantTypes: ['client_credentials'],
    redirectUris: [],
    scopes: ['introspect'],
    resourceServer: true,
  });
  apiAuth = basic(api.client.id, api.clientSecret!);
  for (let i = 0; i < REFRESH_WORKERS + 1; i++) {
    const user = { username: `outage-${i}-${randomBytes(4).toString('hex')}`, password: `pw-${randomBytes(12).toString('base64url')}` };
    await createUser(store, { ...user, email: `${user.username}@example.test`, name: 'Outage' });
    users.push(user);
  }
});

after(async () => {
  await server?.stop();
  await stopRedis();
  if (db) {
    await closeDatabase(db.url);
    await db.drop();
  }
});

test('Redis stopped and started again under a token load: refresh and client credentials go on, the log and redis_up say Redis', { skip }, async (t) => {
  assert.equal(await sample('gatehouse_redis_up'), 1, 'Redis answers at start');
  // One refresh token per worker, and one held aside to rotate during the outage.
  const [spare, ...refreshTokens] = await Promise.all(users.map(signIn));
  // A sign-in begun before the outage, its login page shown: its interaction is in Redis.
  const pending = new TestBrowser(server!.url);
  const { challenge } = await pkce();
  const loginPage = await pending.navigate(new URL(`/oauth/authorize?${authorizeQuery(app, challenge)}`, server!.url));
  assert.equal(loginPage.response.status, 200);
  const loginHtml = await loginPage.response.text();

  // The load: each worker one request at a time, until told to stop (or its ceiling).
  const failures: string[] = [];
  const answered = { refresh: 0, credentials: 0 };
  let running = true;
  const refreshWorker = async (refreshToken: string) => {
    for (let i = 0; running && i < MAX_REQUESTS; i++) {
      const rotated = await token({ grant_type: 'refresh_token', refresh_token: refreshToken }, appAuth);
      if (rotated.status !== 200) {
        failures.push(`refresh: ${rotated.status} ${JSON.stringify(rotated.body)}`);
        return;
      }
      answered.refresh++;
      refreshToken = rotated.body.refresh_token;
      await sleep(PACE_MS);
    }
  };
  const credentialsWorker = async () => {
    for (let i = 0; running && i < MAX_REQUESTS; i++) {
      const issued = await token({ grant_type: 'client_credentials', scope: 'introspect' }, apiAuth);
      if (issued.status !== 200) failures.push(`client_credentials: ${issued.status} ${JSON.stringify(issued.body)}`);
      else answered.credentials++;
      await sleep(PACE_MS);
    }
  };
  const load = Promise.all([...refreshTokens.map(refreshWorker), ...Array.from({ length: CREDENTIALS_WORKERS }, credentialsWorker)]);
  try {
    await until('the load is running', async () => answered.refresh >= 4 && answered.credentials >= 2);

    const atStart = { ...answered };
    const stoppedAt = performance.now();
    await stopRedis();
    await until('gatehouse_redis_up 0', async () => (await sample('gatehouse_redis_up')) === 0);
    const seenDown = performance.now() - stoppedAt;
    const before = { ...answered };
    await until(
      'refresh and client credentials answered while Redis is down',
      async () => answered.refresh >= before.refresh + 6 && answered.credentials >= before.credentials + 3,
    );

    // Issued while Redis is down, by a refresh: introspected now, and again once Redis is back.
    const duringOutage = await authorizationWithoutRedis();
    const rotated = await token({ grant_type: 'refresh_token', refresh_token: spare }, appAuth);
    assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
    const outageToken = rotated.body.access_token;
    assert.equal(await introspect(outageToken), true, 'a token issued while Redis is down is active');
    assert.ok(duringOutage >= 500, `an authorization request without Redis: ${duringOutage}`);
    // The log is written in batches (lib/ops/log.ts): the line follows the answer within 100 ms or so.
    const serverErrors = () => logLines().filter((l) => l.store === 'redis' && /^server_error/.test(String(l.msg)));
    await until('the server_error line of the failed authorization request, naming Redis', async () => serverErrors().length >= 1);
    const named = serverErrors();
    assert.match(JSON.stringify((named[0].err as { message?: string }).message), /Redis at 127\.0\.0\.1:\d+ is unavailable/);
    // The sign-in begun before: its password posted now fails too (a Next route handler), logged the same way, with its route.
    const posted = await pending.submit(loginHtml, '/login', { username: users[0].username, password: users[0].password });
    assert.ok(posted.response.status >= 500, `the login posted without Redis: ${posted.response.status}`);
    await posted.response.arrayBuffer();
    await until("the login's server_error line", async () =>
      logLines().some((l) => l.store === 'redis' && l.route === '/interaction/[uid]/login' && String(l.msg) === 'server_error: Redis is unavailable'),
    );

    await sleep(OUTAGE_MS - (performance.now() - stoppedAt));
    const duringTotal = { refresh: answered.refresh - atStart.refresh, credentials: answered.credentials - atStart.credentials };
    const restartedAt = performance.now();
    redis = await startRedis();
    await until('gatehouse_redis_up 1 again', async () => (await sample('gatehouse_redis_up')) === 1);
    const seenBack = performance.now() - restartedAt;
    const outageMs = performance.now() - stoppedAt;
    const afterBack = { ...answered };
    await until(
      'refresh and client credentials answered after Redis is back',
      async () => answered.refresh >= afterBack.refresh + 4 && answered.credentials >= afterBack.credentials + 2,
    );
    assert.equal(await introspect(outageToken), true, 'the token issued during the outage is still active with Redis back');
    // What needs Redis works again: a whole sign-in, its interaction and code in Redis.
    assert.ok(await signIn(users[0]));
    t.diagnostic(
      `Redis down ${Math.round(outageMs)} ms: redis_up 0 after ${Math.round(seenDown)} ms, 1 again ${Math.round(seenBack)} ms after the restart; ` +
        `answered 200 while down: ${duringTotal.refresh} refreshes, ${duringTotal.credentials} client-credentials grants`,
    );
  } finally {
    running = false;
    await load;
  }
  t.diagnostic(`the whole load: ${answered.refresh} refreshes and ${answered.credentials} client-credentials grants answered 200, ${failures.length} not`);
  assert.deepEqual(failures, [], 'every request of the load was answered 200');

  await until('the line for Redis back', async () => logLines().some((l) => l.event === 'redis_back'));
  const lost = logLines().filter((l) => l.event === 'redis_lost');
  const back = logLines().filter((l) => l.event === 'redis_back');
  assert.equal(lost.length, 1, `one line for Redis lost: ${JSON.stringify(lost)}`);
  assert.equal(back.length, 1, `one line for Redis back: ${JSON.stringify(back)}`);
  assert.equal(lost[0].level, 50);
  assert.equal(back[0].level, 30);
  for (const line of [...lost, ...back]) {
    assert.equal(line.redis, `127.0.0.1:${redisPort}`);
    assert.match(String(line.msg), /^Redis at 127\.0\.0\.1:\d+ is (unavailable|back)/);
  }
  assert.doesNotMatch(server!.output(), /\[ioredis\]/, 'no plain-text ioredis lines');
});

/** The status of an authorization request's first answer while Redis is down. */
async function authorizationWithoutRedis(): Promise<number> {
  const { challenge } = await pkce();
  const response = await fetch(new URL(`/oauth/authorize?${authorizeQuery(app, challenge)}`, server!.url), { redirect: 'manual' });
  await response.arrayBuffer();
  return response.status;
}
