// runs-on: stores
// Workers (WORKERS, scripts/primary.mjs): `npm start` serving from several processes on one port behaves as one
// server. An instance of its own with WORKERS=2, on a database of the suite's kind (and Redis on the Redis run),
// every request on a new connection (keep-alive off), so the primary hands them to the workers in turn; which
// worker answered a request is read from the line that worker logged for it (its pid, found by the X-Request-Id the
// client got). Both workers answer; a sign-in, its code and its refresh token pass from one worker to the other; a
// client the admin API creates on one worker is known to the other at the next request, and one it deletes is
// refused there; one scrape of METRICS_PORT (and of /metrics with METRICS_TOKEN) counts both workers' requests; a
// worker killed outright is logged and replaced while the other serves; SIGTERM under a load of token requests
// stops both workers gracefully, the primary exits 0, and every token answered 2xx is active after a start again; a
// start whose first worker fails stops the whole server with a non-zero exit.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:net';
import { after, before, test } from 'node:test';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { registerClient } from '../../lib/clients/manage.ts';
import { createUser } from '../../lib/users/manage.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { basic, pkce, redirectUri } from '../support/fixtures.ts';
import { freePort, isolatedDatabase, type ServerProcess, spawnServer, startServer } from '../support/server.ts';

const skip = process.env.GATEHOUSE_TEST_MOUNT === 'next' ? "scripts/server.mjs's setting (next start is one process)" : false;
const own = isolatedDatabase('workers');
const adminPassword = randomBytes(18).toString('base64url');
const metricsToken = randomBytes(32).toString('hex');
let server: ServerProcess;
let metricsUrl: string;

/** Two workers on the file's database, on `port` (a free one by default), once both serve. */
async function start(port?: number): Promise<ServerProcess> {
  const metricsPort = await freePort();
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const started = await startServer(
    {
      DATABASE_URL: own.url,
      WORKERS: '2',
      ADMIN_PASSWORD: adminPassword,
      METRICS_PORT: String(metricsPort),
      METRICS_HOST: '127.0.0.1',
      METRICS_TOKEN: metricsToken,
    },
    { port, mount: 'server', host: '127.0.0.1' },
  );
  // Discovery answers once the first worker serves; the primary says when both do.
  try {
    await logged(started, /"msg":"listening on \S+:\d+ with 2 workers"/);
  } catch (error) {
    await started.stop('SIGKILL');
    throw error;
  }
  return started;
}

/** Waits until the server's output matches `line` (the log is written in batches, every 100 ms). */
async function logged(process: ServerProcess, line: RegExp, ms = 60_000): Promise<void> {
  for (const until = Date.now() + ms; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
    if (line.test(process.output())) return;
    if (process.child.exitCode !== null) break;
  }
  assert.fail(`the server never logged ${line}:\n${process.output()}`);
}

before(async () => {
  if (!skip) server = await start();
});

after(async () => {
  await server?.stop();
  await closeDatabase(own.url);
  await own.drop();
});

/** Every request ids the responses carried, in order. */
const ids: string[] = [];

/** fetch on a new connection every time (Connection: close), so that the primary hands each to the next worker. */
const fresh: typeof fetch = async (input, init = {}) => {
  const headers = new Headers(init.headers);
  headers.set('connection', 'close');
  const response = await fetch(input, { ...init, headers, signal: init.signal ?? AbortSignal.timeout(20_000) });
  const id = response.headers.get('x-request-id');
  if (id) ids.push(id);
  return response;
};

function form(path: string, body: Record<string, string>, authorization?: string) {
  return fresh(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(authorization ? { authorization } : {}) },
    body: new URLSearchParams(body),
  });
}

/** The pid that logged each request (`"msg":"request"` lines), waiting up to 5 s for lines still in a worker's buffer. */
async function answeredBy(requestIds: string[]): Promise<number[]> {
  const pids = new Map<string, number>();
  for (const until = Date.now() + 5_000; ; await new Promise((resolve) => setTimeout(resolve, 50))) {
    for (const line of server.output().split('\n')) {
      if (!line.includes('"msg":"request"')) continue;
      const entry = JSON.parse(line) as { request_id?: string; pid: number };
      if (entry.request_id) pids.set(entry.request_id, entry.pid);
    }
    if (requestIds.every((id) => pids.has(id)) || Date.now() > until) break;
  }
  const missing = requestIds.filter((id) => !pids.has(id));
  assert.deepEqual(missing, [], 'every request was logged by the worker that answered it');
  return requestIds.map((id) => pids.get(id)!);
}

/** The requests made while `run` ran, by the pid that answered each. */
async function workersOf(run: () => Promise<void>): Promise<number[]> {
  const from = ids.length;
  await run();
  return answeredBy(ids.slice(from));
}

const distinct = (pids: number[]) => [...new Set(pids)].sort();

test('both workers answer, in turn, and neither is the primary', { skip }, async () => {
  const pids = await workersOf(async () => {
    for (let i = 0; i < 10; i++) {
      const response = await fresh(`${server.url}/.well-known/openid-configuration`);
      assert.equal(response.status, 200);
      await response.arrayBuffer();
    }
  });
  assert.equal(distinct(pids).length, 2, `two workers answered: ${pids.join(', ')}`);
  assert.ok(!pids.includes(server.child.pid!), 'the primary answers nothing itself');
  assert.match(server.output(), /"workers":2,"worker_pids":\[\d+,\d+\]/, 'the start line says how many workers');
});

test('a sign-in, its code exchange, a refresh and userinfo, spread over both workers', { skip }, async () => {
  const db = database(own.url);
  const { client, clientSecret } = await registerClient(db, { name: 'Workers app', redirectUris: [redirectUri] });
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const user = await createUser(db, { username: `user-${randomBytes(6).toString('hex')}`, password, email: 'workers@example.test', name: 'Worker' });
  const auth = basic(client.id, clientSecret!);
  const pids = await workersOf(async () => {
    const { verifier, challenge } = await pkce();
    const query = new URLSearchParams({
      client_id: client.id,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid offline_access',
      prompt: 'consent',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const callback = await authorize(new TestBrowser(server.url, server.url, fresh), new URL(`/oauth/authorize?${query}`, server.url), {
      username: user.username,
      password,
    });
    const code = callback.searchParams.get('code');
    assert.ok(code, `a code: ${callback}`);
    const exchanged = await form('/oauth/token', { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier }, auth);
    const tokens = (await exchanged.json()) as Record<string, string>;
    assert.equal(exchanged.status, 200, JSON.stringify(tokens));
    assert.ok(tokens.refresh_token, 'a refresh token');
    const refreshed = await form('/oauth/token', { grant_type: 'refresh_token', refresh_token: tokens.refresh_token }, auth);
    const renewed = (await refreshed.json()) as Record<string, string>;
    assert.equal(refreshed.status, 200, JSON.stringify(renewed));
    for (const token of [tokens.access_token, renewed.access_token]) {
      const userinfo = await fresh(`${server.url}/oauth/userinfo`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(userinfo.status, 200);
      assert.equal(((await userinfo.json()) as { sub: string }).sub, user.id);
    }
  });
  assert.equal(distinct(pids).length, 2, `the flow's ${pids.length} requests were answered by both workers: ${pids.join(', ')}`);
});

test('a client the admin API creates is usable at the next request, on the other worker; one it deletes is refused there', { skip }, async () => {
  const db = database(own.url);
  const { client: automation, clientSecret } = await registerClient(db, {
    name: 'Automation',
    grantTypes: ['client_credentials'],
    redirectUris: [],
    scopes: ['admin'],
    adminApi: true,
  });
  const granted = await form('/oauth/token', { grant_type: 'client_credentials', scope: 'admin' }, basic(automation.id, clientSecret!));
  const { access_token: token } = (await granted.json()) as { access_token: string };
  assert.equal(granted.status, 200);
  // On PostgreSQL the other worker hears of a deletion by notification, a moment after the commit
  // (lib/db/read-cache.ts); on SQLite it asks data_version before it reads the client.
  const sqlite = own.url.startsWith('file:');
  const crossings = { created: 0, deleted: 0 };
  for (let round = 0; round < 4; round++) {
    const pids = await workersOf(async () => {
      const created = await fresh(`${server.url}/api/admin/clients`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ client_name: `Job ${round}`, grant_types: ['client_credentials'], scope: 'openid' }),
      });
      const body = (await created.json()) as { client_id: string; client_secret: string };
      assert.equal(created.status, 201, JSON.stringify(body));
      const job = basic(body.client_id, body.client_secret);
      const used = await form('/oauth/token', { grant_type: 'client_credentials' }, job);
      assert.equal(used.status, 200, `the new client gets a token at once: ${await used.text()}`);
      const deleted = await fresh(`${server.url}/api/admin/clients/${body.client_id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
      assert.equal(deleted.status, 204);
      let refused = await form('/oauth/token', { grant_type: 'client_credentials' }, job);
      for (const until = Date.now() + 2_000; !sqlite && refused.status === 200 && Date.now() < until; ) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        refused = await form('/oauth/token', { grant_type: 'client_credentials' }, job);
      }
      assert.equal(refused.status, 401, `the deleted client is refused: ${await refused.text()}`);
    });
    // created, used, deleted, refused (and on PostgreSQL any refusal asked again)
    if (pids[0] !== pids[1]) crossings.created++;
    if (pids[2] !== pids[3]) crossings.deleted++;
  }
  assert.ok(crossings.created > 0 && crossings.deleted > 0, `the change and the next request met on different workers: ${JSON.stringify(crossings)}`);
});

/** The scrape's samples by series (name and labels as written). */
async function scrape(url: string, headers: Record<string, string> = {}): Promise<Map<string, number>> {
  const response = await fresh(url, { headers });
  assert.equal(response.status, 200);
  const samples = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    samples.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return samples;
}

/** Discovery's 200s in a scrape, whatever order its labels are written in. */
const discoveries = (samples: Map<string, number>) =>
  [...samples]
    .filter(([series]) => /^gatehouse_http_requests_total\{/.test(series) && series.includes('route="discovery"') && series.includes('status="200"'))
    .reduce((sum, [, value]) => sum + value, 0);

test("one scrape of METRICS_PORT, or of /metrics on the issuer's port, counts every worker's requests", { skip }, async () => {
  // A request is counted once its response has gone: give the last one a moment.
  const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
  await settle();
  const before = discoveries(await scrape(metricsUrl));
  const REQUESTS = 12;
  const pids = await workersOf(async () => {
    for (let i = 0; i < REQUESTS; i++) await (await fresh(`${server.url}/.well-known/openid-configuration`)).arrayBuffer();
  });
  assert.equal(distinct(pids).length, 2, `both workers answered: ${pids.join(', ')}`);
  await settle();
  const samples = await scrape(metricsUrl);
  assert.equal(discoveries(samples) - before, REQUESTS, 'every request counted, whichever worker answered it');
  assert.equal(samples.get('gatehouse_workers'), 2, 'the scrape sums two workers');
  assert.equal(samples.get('gatehouse_ready'), 1, 'ready: the lowest of the workers, not their sum');
  // Twice on the issuer's port: one scrape from each worker, each asking the primary for the whole server's.
  for (let i = 0; i < 2; i++) {
    const onIssuer = await scrape(`${server.url}/metrics`, { authorization: `Bearer ${metricsToken}` });
    assert.equal(discoveries(onIssuer), discoveries(samples), "the issuer's /metrics answers the same sums");
  }
});

test('a worker killed outright is logged and replaced, while the other serves', { skip, timeout: 120_000 }, async () => {
  const pids = distinct(
    await workersOf(async () => {
      for (let i = 0; i < 4; i++) await (await fresh(`${server.url}/.well-known/openid-configuration`)).arrayBuffer();
    }),
  );
  assert.equal(pids.length, 2);
  const [killed, survivor] = pids;
  process.kill(killed, 'SIGKILL');
  await logged(server, new RegExp(`"msg":"worker ${killed} ended \\(signal SIGKILL\\): another starts`));
  // From now on every request is answered: by the survivor until the replacement serves, then by both.
  const seen = new Set<number>();
  for (const until = Date.now() + 90_000; Date.now() < until && ![...seen].some((pid) => pid !== survivor); ) {
    const [pid] = await workersOf(async () => {
      const response = await fresh(`${server.url}/.well-known/openid-configuration`);
      assert.equal(response.status, 200);
      await response.arrayBuffer();
    });
    assert.notEqual(pid, killed);
    seen.add(pid);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const replacement = [...seen].find((pid) => pid !== survivor);
  assert.ok(replacement, `a new worker answers (seen: ${[...seen].join(', ')}):\n${server.output().slice(-3000)}`);
  assert.notEqual(replacement, server.child.pid);
  assert.match(server.output(), new RegExp(`"msg":"worker ${replacement} serves in place of the one that ended"`));
});

/** One request's outcome: its status and body, or the connection error it failed with. */
type Outcome = { status: number; body: Record<string, string>; at: number } | { error: string; at: number };

async function outcome(request: Promise<Response>): Promise<Outcome> {
  try {
    const response = await request;
    const text = await response.text();
    let body: Record<string, string> = {};
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: a 5xx page, reported by its status
    }
    return { status: response.status, body, at: performance.now() };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { error: cause?.code ?? cause?.message ?? String(error), at: performance.now() };
  }
}

test('SIGTERM under a load of token requests: both workers finish what they began, the primary exits 0, every 2xx is kept', {
  skip,
  timeout: 180_000,
}, async (t) => {
  const { client: service, clientSecret } = await registerClient(database(own.url), {
    name: 'Orders API',
    grantTypes: ['client_credentials'],
    redirectUris: [],
    scopes: ['introspect'],
    resourceServer: true,
  });
  const auth = basic(service.id, clientSecret!);
  const token = () => outcome(form('/oauth/token', { grant_type: 'client_credentials', scope: 'introspect' }, auth));
  const REQUESTS = 120;
  const SIGNAL_AFTER = 30;
  let answered = 0;
  let signalledAt = Number.POSITIVE_INFINITY;
  const signalled = Promise.withResolvers<void>();
  const count = (result: Outcome) => {
    if (++answered === SIGNAL_AFTER) {
      signalledAt = performance.now();
      server.child.kill('SIGTERM');
      signalled.resolve();
    }
    return result;
  };
  const from = ids.length;
  const load = Array.from({ length: REQUESTS }, () => token().then(count));
  await signalled.promise;
  // Sent after the signal: refused, cut at the connection or answered, but never a 5xx.
  const late = Array.from({ length: 10 }, token);
  const results = await Promise.all([...load, ...late]);
  const stopped = await server.exited;
  const log = server.output();
  const statuses = results.map((r) => ('status' in r ? r.status : r.error));
  t.diagnostic(`${results.length} token requests: ${Object.entries(Object.groupBy(statuses, String)).map(([what, list]) => `${what}: ${list?.length}`)}`);

  assert.deepEqual(stopped, { code: 0, signal: null }, `the primary exits 0\n${log.slice(-4000)}`);
  assert.deepEqual(
    results.filter((r) => 'status' in r && r.status !== 200),
    [],
    `every answer is a 200 (${JSON.stringify(statuses)})`,
  );
  const ok = results.filter((r): r is Extract<Outcome, { status: number }> => 'status' in r);
  assert.ok(ok.length >= SIGNAL_AFTER, `${ok.length} answered`);
  // Every connection the primary accepted went to a worker and was answered: what failed of the load sent before
  // the signal failed as at one process's stop, refused or still in the kernel's queue when the port closed.
  // (node:cluster's own round robin reset most of them: it drops what it accepted and had not handed out.)
  const cut = results.slice(0, REQUESTS).filter((r) => 'error' in r && r.error !== 'ECONNREFUSED');
  assert.ok(cut.length <= REQUESTS / 10, `${cut.length} of the ${REQUESTS} requests sent before the signal were cut`);
  assert.ok(
    ok.some((r) => r.at > signalledAt),
    'requests in flight when the signal came were answered after it',
  );
  assert.equal(distinct(await answeredBy(ids.slice(from))).length, 2, 'both workers answered the load');
  // Each worker and the primary: stopping, then stopped, within the grace period.
  assert.equal(log.match(/"msg":"stopping"/g)?.length, 3, log.slice(-4000));
  assert.equal(log.match(/"msg":"stopped"/g)?.length, 3, log.slice(-4000));
  assert.doesNotMatch(log, /closing their connections|not stopped after|did not stop cleanly|still running/);

  // Started again on the same database and port: what was answered 2xx before the stop was committed.
  server = await start(server.port);
  const inactive: string[] = [];
  for (let i = 0; i < ok.length; i += 20) {
    const batch = ok.slice(i, i + 20);
    const answers = await Promise.all(
      batch.map(async (r) => (await (await form('/oauth/introspect', { token: r.body.access_token }, auth)).json()) as { active: boolean }),
    );
    answers.forEach((answer, j) => answer.active || inactive.push(batch[j].body.access_token.slice(0, 8)));
  }
  assert.deepEqual(inactive, [], `every token answered 2xx before the stop is active after it (${ok.length} checked)`);
});

test('a start whose first worker fails stops the whole server with a non-zero exit; WORKERS is checked before any starts', { skip }, async () => {
  // The metrics port taken: the first worker's start-up asks the primary for it, and fails as one process's would.
  const taken: Server = createServer();
  const takenPort = await new Promise<number>((resolve) => taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)));
  try {
    const failing = await spawnServer(
      { DATABASE_URL: own.url, WORKERS: '2', ADMIN_PASSWORD: adminPassword, METRICS_PORT: String(takenPort), METRICS_HOST: '127.0.0.1' },
      { mount: 'server', host: '127.0.0.1' },
    );
    const timer = setTimeout(() => failing.child.kill('SIGKILL'), 60_000);
    const exit = await failing.exited;
    clearTimeout(timer);
    const output = failing.output();
    assert.equal(exit.signal, null, output);
    assert.notEqual(exit.code, 0, output);
    assert.match(output, /"msg":"start-up failed"/);
    assert.match(output, /ended during the server's start \(exit code 1\): the server stops/);
    assert.equal(output.match(/"msg":"start-up failed"/g)?.length, 1, 'the second worker never started');
  } finally {
    taken.close();
  }
  const mistyped = await spawnServer({ DATABASE_URL: own.url, WORKERS: 'two' }, { mount: 'server', host: '127.0.0.1' });
  assert.deepEqual(await mistyped.exited, { code: 2, signal: null });
  assert.match(mistyped.output(), /WORKERS must be auto \(one per core\) or a whole number from 1 to 256/);
});
