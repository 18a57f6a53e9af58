// runs-on: stores
// alone: kills an instance under load and bounds what fails; a busier machine widens what is in flight
// Failover (issue 13; README, *Deploying*): two instances of npm start's server on one PostgreSQL
// database behind nginx (e2e/support/nginx.ts, the README's configuration without TLS; ISSUER is the
// proxy's URL, TRUST_PROXY=1). While full sign-ins (authorization code + PKCE through the login and
// consent pages) and token and refresh requests run through the proxy, one instance gets `kill -9`:
// - what fails is only what was in flight on the killed instance, at most one request per worker of
//   the load: a POST nginx had sent there (nginx does not send it again: not idempotent) is nginx's
//   502; a GET is sent again to the other instance, where only an authorization step the killed one
//   had already completed can fail (its interaction is gone). Gatehouse itself answers no 5xx, and
//   everything sent once the killed instance is gone is answered, by the other;
// - no refresh token is lost: every one a client holds from a 200 rotates once afterwards;
// - a browser session the killed instance wrote goes on at the other; started again on the same
//   database, it continues that session and one the other wrote after the kill (prompt=none),
//   introspects what the other issued, and nginx sends to it again;
// - no authorization code is redeemed twice: a redeemed code replayed at once is invalid_grant, a
//   code whose redemption died with the instance redeems at most once when sent again, and one code
//   sent to both instances at once gets one 200 and one invalid_grant.
// Runs on the PostgreSQL run of npm start's server, in a schema of its own, with nginx from the
// system's packages: skipped where nginx is not installed, except under CI, where it must be.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { registerClient } from '../../lib/clients/manage.ts';
import { createUser } from '../../lib/users/manage.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { authorizeQuery, basic, pkce, redirectUri } from '../support/fixtures.ts';
import { findNginx, startNginx, TEST_REQUEST_HEADER, type ReverseProxy, type ProxyLogLine } from '../support/nginx.ts';
import { freePort, isolatedDatabase, type ServerProcess, startServer } from '../support/server.ts';

/** Workers running full sign-ins (each: the pages, the code redeemed, one refresh), one request at a time each. */
const SIGN_IN_WORKERS = 4;
/** Workers rotating one refresh token after another, one request at a time each. */
const REFRESH_WORKERS = 2;
/** Requests in flight at once, at most: so also at most this many can be in flight on the killed instance. */
const CONCURRENCY = SIGN_IN_WORKERS + REFRESH_WORKERS;
/** Sign-ins completed before the kill. */
const KILL_AFTER = 6;
/** Sign-ins begun after the killed instance is gone that must complete before the load stops. */
const AFTER_KILL = 8;
/** A ceiling on each refresh worker, so the load stays bounded however the machine is paced. */
const MAX_ROTATIONS = 400;
/** Generous, for a loaded 2-core machine: a bound on the load, not a measurement. */
const LOAD_DEADLINE_MS = 240_000;

const nginx = findNginx();
const skip =
  process.env.GATEHOUSE_TEST_MOUNT === 'next' || !/^postgres(ql)?:/.test(process.env.GATEHOUSE_TEST_DATABASE_URL ?? '')
    ? "runs on the PostgreSQL run of npm start's server"
    : !nginx && process.env.CI !== 'true'
      ? 'nginx is not installed (Debian: apt-get install nginx); under CI=true, .ci/run installs it and a missing nginx fails this test'
      : false;

/** An instance behind the proxy; `address` as nginx's log names it. */
type Instance = ServerProcess & { address: string };

/** One request the load sent: its id in nginx's log, when it left, and what came back (a status or a connection error). */
interface Sent {
  id: number;
  method: string;
  path: string;
  startedAt: number;
  /** What a working server answers it. */
  expect: number[];
  status?: number;
  error?: string;
}

/** One full sign-in of the load, and what its client holds afterwards. */
interface Cycle {
  startedAt: number;
  browser: TestBrowser;
  /** `sent`'s indices of its requests, [from, to). */
  requests: [number, number];
  /** This one replays its code at once instead of refreshing (a replay revokes the grant, RFC 6749 §4.1.2). */
  replay: boolean;
  code?: string;
  verifier?: string;
  redemption?: number;
  /** The client's one retry of a redemption nginx answered 502 (the instance died with it), as a client would. */
  retry?: { status: number; error?: string };
  replayed?: { status: number; error?: string };
  /** The refresh token the client holds, from a 200; dropped when a request that used it failed (then its fate is unknown). */
  refreshToken?: string;
  completed?: boolean;
  failure?: string;
}

/** The instances' database: a PostgreSQL schema of this file's own, dropped at the end. */
let db: ReturnType<typeof isolatedDatabase> | undefined;
const adminPassword = randomBytes(18).toString('base64url');
let proxy: ReverseProxy | undefined;
let proxyUrl = '';
const instances: Instance[] = [];
let app: { id: string };
let resourceServerAuth = '';
const users: { username: string; password: string }[] = [];

/** Where requests went, and the clock the kill is read against (performance.now()). */
const sent: Sent[] = [];
const cycles: Cycle[] = [];
const refreshHolders: { refreshToken?: string; rotations: number; failure?: string }[] = [];
let killedAt = Number.POSITIVE_INFINITY;
let goneAt = Number.POSITIVE_INFINITY;
/** Access tokens issued after the kill (by the surviving instance), for the restarted one to introspect. */
const issuedAfterKill: string[] = [];

function connectionError(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

/** The answers a working server gives the load: 200, or a redirect of the sign-in flow. */
const WORKING = [200, 302, 303];

/** fetch, each request tagged with an id that nginx's access log records, and kept in `sent` with the statuses it should get. */
async function send(input: string | URL | Request, init: RequestInit = {}, expect = WORKING): Promise<Response> {
  const url = new URL(input instanceof Request ? input.url : input);
  const record: Sent = { id: sent.length + 1, method: init.method ?? 'GET', path: url.pathname, startedAt: performance.now(), expect };
  sent.push(record);
  const headers = new Headers(init.headers);
  headers.set(TEST_REQUEST_HEADER, String(record.id));
  try {
    const response = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(90_000) });
    record.status = response.status;
    return response;
  } catch (error) {
    record.error = connectionError(error);
    throw error;
  }
}
const tagged: typeof fetch = (input, init) => send(input, init);

async function startGatehouse(port: number): Promise<Instance> {
  // Behind the proxy: every URL is the proxy's, and the client's address is the one nginx appends.
  // Ready is what a load balancer's health check asks: migrated, keys loaded, database answering.
  const server = await startServer(
    { DATABASE_URL: db!.url, ISSUER: proxyUrl, TRUST_PROXY: '1', ADMIN_PASSWORD: adminPassword, METRICS_PORT: '' },
    { port, mount: 'server', host: '127.0.0.1', ready: { path: '/readyz', timeoutMs: 120_000 } },
  );
  return { ...server, address: `127.0.0.1:${port}` };
}

const form = (body: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  body: new URLSearchParams(body),
});

/** A token request from the public client (no secret: PKCE and client_id), as the status and the JSON it answered. */
async function tokenRequest(origin: string, body: Record<string, string>, expect = [200]): Promise<{ status: number; body: Record<string, string> }> {
  const response = await send(`${origin}/oauth/token`, form({ client_id: app.id, ...body }), expect);
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status, body: {} };
  }
}

const newCycle = (replay = false): Cycle => ({
  startedAt: performance.now(),
  browser: new TestBrowser(proxyUrl, proxyUrl, tagged),
  requests: [sent.length, sent.length],
  replay,
});

/**
 * A full sign-in through the proxy: the pages, the code redeemed, then one refresh, or (`replay`)
 * the code sent again, which must be refused. Throws at the first unexpected answer.
 */
async function signIn(cycle: Cycle, user: { username: string; password: string }) {
  try {
    const { verifier, challenge } = await pkce();
    const callback = await authorize(cycle.browser, new URL(`/oauth/authorize?${authorizeQuery(app, challenge)}`, proxyUrl), user);
    const code = callback.searchParams.get('code');
    assert.ok(code, `no code: ${callback}`);
    Object.assign(cycle, { code, verifier });
    const body = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier };
    let redeemed = await tokenRequest(proxyUrl, body);
    cycle.redemption = redeemed.status;
    if (redeemed.status === 502) {
      // The instance died with it, perhaps after consuming the code: a client may well try once more.
      redeemed = await tokenRequest(proxyUrl, body, [200, 400]);
      cycle.retry = { status: redeemed.status, error: redeemed.body.error };
    }
    assert.equal(redeemed.status, 200, `code redemption: ${JSON.stringify(redeemed.body)}`);
    assert.ok(redeemed.body.refresh_token, 'a refresh token');
    if (cycle.replay) {
      const replayed = await tokenRequest(proxyUrl, body, [400]);
      cycle.replayed = { status: replayed.status, error: replayed.body.error };
      assert.equal(replayed.body.error, 'invalid_grant', `the code replayed: ${replayed.status} ${JSON.stringify(replayed.body)}`);
    } else {
      cycle.refreshToken = redeemed.body.refresh_token;
      cycle.refreshToken = await rotate(cycle.refreshToken);
    }
  } finally {
    cycle.requests[1] = sent.length;
  }
}

/** Rotates a refresh token through the proxy (a public client's rotates at every use); returns the new one. */
async function rotate(refreshToken: string): Promise<string> {
  const refreshed = await tokenRequest(proxyUrl, { grant_type: 'refresh_token', refresh_token: refreshToken });
  assert.equal(refreshed.status, 200, `refresh: ${JSON.stringify(refreshed.body)}`);
  assert.ok(refreshed.body.refresh_token && refreshed.body.refresh_token !== refreshToken, 'the refresh token rotated');
  if (performance.now() > goneAt) issuedAfterKill.push(refreshed.body.access_token);
  return refreshed.body.refresh_token;
}

before(async () => {
  if (skip) return;
  assert.ok(nginx, 'nginx is not installed: .ci/run installs it (apt-get install nginx) under CI');
  db = isolatedDatabase('failover');
  const [proxyPort, portA, portB] = [await freePort(), await freePort(), await freePort()];
  proxyUrl = `http://127.0.0.1:${proxyPort}`;
  // One after the other: the first start migrates the new schema.
  instances.push(await startGatehouse(portA));
  instances.push(await startGatehouse(portB));
  proxy = await startNginx(
    nginx,
    proxyPort,
    instances.map((i) => i.address),
  );

  // Through the services, on the instances' database, as the CLI would.
  const store = database(db.url);
  ({ client: app } = await registerClient(store, { name: 'Failover SPA', type: 'public', redirectUris: [redirectUri] }));
  const { client: api, clientSecret } = await registerClient(store, {
    name: 'Failover API',
    grantTypes: ['client_credentials'],
    redirectUris: [],
    scopes: ['introspect'],
    resourceServer: true,
  });
  resourceServerAuth = basic(api.id, clientSecret!);
  for (let i = 0; i < SIGN_IN_WORKERS + REFRESH_WORKERS; i++) {
    const user = { username: `failover-${i}-${randomBytes(4).toString('hex')}`, password: `pw-${randomBytes(12).toString('base64url')}` };
    await createUser(store, { ...user, email: `${user.username}@example.test`, name: 'Failover' });
    users.push(user);
  }
});

after(async () => {
  const errors = instances.flatMap((i) =>
    i
      .output()
      .split('\n')
      .filter((line) => /"level":(50|60)/.test(line)),
  );
  if (errors.length > 0) console.log(`--- error lines of the instances ---\n${errors.join('\n')}`);
  if (proxy && /\[(alert|emerg|crit)\]/.test(proxy.errorLog())) console.log(`--- nginx ---\n${proxy.errorLog()}`);
  await proxy?.stop();
  for (const instance of instances) {
    await instance.stop();
  }
  if (db) {
    await closeDatabase(db.url);
    await db.drop();
  }
});

/** The load's requests whose answer was not what a working server gives (200, or a redirect of the flow). */
/** The load's requests whose answer was not what a working server gives. */
const failed = (list: Sent[]) => list.filter((r) => r.error !== undefined || !r.expect.includes(r.status!));

/** The access log's line for a request of `sent`. */
const lineOf = (lines: ProxyLogLine[], r: Sent) => lines.find((line) => line.requestId === String(r.id));

/** A silent authorization request (OIDC Core §3.1.2.1, prompt=none) with `browser`'s session at `origin`: its code, redeemed there. */
async function silentSignIn(browser: TestBrowser, origin: string): Promise<{ code?: string; redemption?: number; answer: string }> {
  const { verifier, challenge } = await pkce();
  const step = await browser.navigate(`${origin}/oauth/authorize?${authorizeQuery(app, challenge, { prompt: 'none' })}`);
  const code = step.location?.searchParams.get('code') ?? undefined;
  const answer = `${step.response.status} ${step.location ?? step.url}`.replace(/code=[^&]+/, 'code=…');
  if (!code) return { answer };
  const redeemed = await tokenRequest(origin, { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier });
  return { code, redemption: redeemed.status, answer };
}

/** A sign-in before the load whose session the instance to be killed wrote (it answered the step that signed it in). */
let signedInByKilled: Cycle | undefined;

/** Which instance answered the cycle's last authorization step, the one that signs the session in and answers the code. */
async function signedInAt(cycle: Cycle): Promise<string | undefined> {
  const last = sent
    .slice(...cycle.requests)
    .filter((r) => r.method === 'GET' && r.path.startsWith('/oauth/authorize'))
    .at(-1);
  if (!last) return undefined;
  // nginx writes a request's log line after the answer went out (its log phase): it may be a moment behind.
  for (const deadline = Date.now() + 5_000; ; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const line = lineOf(proxy!.log(), last);
    if (line || Date.now() > deadline) return line?.upstreams.at(-1);
  }
}

test('kill -9 of one instance under load: only requests in flight on it fail, the other serves everything else', { skip, timeout: 600_000 }, async (t) => {
  const [killed, survivor] = instances;
  const deadline = Date.now() + LOAD_DEADLINE_MS;
  const completedAfterKill = () => cycles.filter((c) => c.completed && c.startedAt > goneAt).length;
  const done = () => completedAfterKill() >= AFTER_KILL || Date.now() > deadline;
  const kill = () => {
    killedAt = performance.now();
    killed.child.kill('SIGKILL');
    void killed.exited.then(() => (goneAt = performance.now()));
  };

  // A browser session the instance to be killed wrote. nginx takes turns, so from one client alone
  // each sign-in's last step lands where the previous one's did when a sign-in takes an even number
  // of requests, and on every other try when odd: one request between every other try meets both.
  for (let tries = 0; !signedInByKilled; tries++) {
    assert.ok(tries < 6, "nginx sent a sign-in's last step to the instance to be killed");
    const cycle = newCycle();
    await signIn(cycle, users[0]);
    if ((await signedInAt(cycle)) === killed.address) signedInByKilled = cycle;
    else if (tries % 2 === 0) await (await send(`${proxyUrl}/.well-known/openid-configuration`)).arrayBuffer();
  }

  // Tokens for the refresh workers, from sign-ins before the load.
  for (let i = 0; i < REFRESH_WORKERS; i++) {
    const cycle = newCycle();
    await signIn(cycle, users[SIGN_IN_WORKERS + i]);
    refreshHolders.push({ refreshToken: cycle.refreshToken, rotations: 0 });
  }
  const loadStartsAt = sent.length;

  const signInWorker = async (user: { username: string; password: string }) => {
    for (let n = 0; !done(); n++) {
      const cycle = newCycle(n % 2 === 1);
      cycles.push(cycle);
      try {
        await signIn(cycle, user);
        cycle.completed = true;
        if (cycles.filter((c) => c.completed).length === KILL_AFTER) kill();
      } catch (error) {
        cycle.failure = (error instanceof Error ? error.message : String(error)).slice(0, 300);
        // A refresh that failed may have rotated the token on the killed instance: its fate is unknown.
        cycle.refreshToken = undefined;
      }
    }
  };
  const refreshWorker = async (holder: (typeof refreshHolders)[number]) => {
    while (!done() && holder.rotations < MAX_ROTATIONS && holder.refreshToken) {
      try {
        holder.refreshToken = await rotate(holder.refreshToken);
        holder.rotations++;
      } catch (error) {
        holder.failure = (error instanceof Error ? error.message : String(error)).slice(0, 300);
        holder.refreshToken = undefined;
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  await Promise.all([...users.slice(0, SIGN_IN_WORKERS).map(signInWorker), ...refreshHolders.map(refreshWorker)]);
  await killed.exited;

  const load = sent.slice(loadStartsAt);
  // nginx writes a request's log line after the answer went out (its log phase): wait for the last ones.
  let lines = proxy!.log();
  for (const deadline = Date.now() + 10_000; Date.now() < deadline && load.some((r) => !lineOf(lines, r)); lines = proxy!.log()) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const failures = failed(load);
  const afterGone = load.filter((r) => r.startedAt > goneAt);
  const retried = load.filter((r) => (lineOf(lines, r)?.upstreams.length ?? 0) > 1).length;
  const byInstance = (address: string) => load.filter((r) => lineOf(lines, r)?.upstreams.at(-1) === address).length;
  const shortPath = (path: string) => path.replace(/\/[\w-]{16,}/g, '/:id');
  t.diagnostic(
    `${cycles.length} sign-ins (${cycles.filter((c) => c.completed).length} completed, ${completedAfterKill()} of them begun after the kill), ` +
      `${refreshHolders.map((h) => h.rotations).join(' + ')} rotations by the refresh workers; ${load.length} requests through nginx: ` +
      `${byInstance(killed.address)} answered by the killed instance, ${byInstance(survivor.address)} by the other, ${retried} passed on by nginx; ` +
      `the killed instance was gone ${Math.round(goneAt - killedAt)} ms after SIGKILL, ${afterGone.length} requests were sent after that; ` +
      `${failures.length} failed: ${JSON.stringify(failures.map((r) => `${r.method} ${shortPath(r.path)} ${r.status ?? r.error}`))}`,
  );

  assert.ok(Number.isFinite(killedAt), `the kill came within the load's ${LOAD_DEADLINE_MS} ms`);
  assert.ok(completedAfterKill() >= AFTER_KILL, `${completedAfterKill()} of ${AFTER_KILL} sign-ins begun after the kill completed before the deadline`);
  assert.ok(byInstance(killed.address) > 0 && byInstance(survivor.address) > 0, 'nginx spread the load over both instances before the kill');

  // Each failure: sent before the instance was gone, to it, and answered by nginx for want of its answer.
  for (const r of failures) {
    const line = lineOf(lines, r);
    const what = `${r.method} ${shortPath(r.path)} (${r.status ?? r.error}; nginx: ${JSON.stringify(line)})`;
    assert.ok(r.startedAt < goneAt, `sent before the killed instance was gone: ${what}`);
    assert.ok(line, `nginx received it: ${what}`);
    assert.equal(line.upstreams[0], killed.address, `sent to the killed instance: ${what}`);
    assert.equal(line.upstreamStatuses[0], 502, `no answer from it (nginx's 502): ${what}`);
    // A POST nginx had sent is not sent again. A GET is, and can then only fail at the other instance
    // when it was not idempotent after all: an authorization resume whose interaction the killed
    // instance had already consumed (oidc-provider destroys it at the resume).
    if (r.method === 'POST') assert.deepEqual(line.upstreams, [killed.address], `a POST nginx had sent is not sent again: ${what}`);
    else assert.match(r.path, /^\/oauth\/authorize\/[\w-]+$/, `a GET sent again failed at the other instance: ${what}`);
  }
  assert.ok(failures.length <= CONCURRENCY, `${failures.length} failed requests, at most one in flight per worker (${CONCURRENCY})`);

  // Gatehouse itself never answered 5xx: every 5xx in nginx's log is its own 502 for the killed instance.
  for (const r of load) {
    const line = lineOf(lines, r);
    assert.ok(line, `nginx logged request ${r.id} (${r.method} ${shortPath(r.path)}, ${r.status ?? r.error})`);
    line.upstreams.forEach((address, i) => {
      if (line.upstreamStatuses[i] >= 500) assert.equal(address, killed.address, `a 5xx from ${address}: ${JSON.stringify(line)}`);
    });
  }

  // After it was gone, everything was answered, and by the other instance.
  assert.ok(afterGone.length >= AFTER_KILL * 6, `${afterGone.length} requests after the kill`);
  assert.deepEqual(failed(afterGone), [], 'every request sent after the kill was answered');
  const elsewhere = afterGone.filter((r) => lineOf(lines, r)?.upstreams.at(-1) !== survivor.address);
  assert.deepEqual(elsewhere, [], 'every request sent after the kill was answered by the surviving instance');

  // The browser session the killed instance wrote continues at the other.
  const silent = await silentSignIn(signedInByKilled!.browser, proxyUrl);
  assert.equal(silent.redemption, 200, `a session the killed instance wrote continues through the proxy with prompt=none: ${silent.answer}`);
});

test('no refresh token is lost: each one a client holds from a 200 rotates once after the kill', { skip, timeout: 300_000 }, async (t) => {
  const held = [...cycles.map((c) => c.refreshToken), ...refreshHolders.map((h) => h.refreshToken)].filter((token): token is string => Boolean(token));
  // Refresh requests in flight on the killed instance, whose outcome the client cannot know (it may have rotated the token before it died).
  const gotTokens = (c: Cycle) => c.redemption === 200 || c.retry?.status === 200;
  const unknown = cycles.filter((c) => !c.replay && gotTokens(c) && !c.refreshToken).length + refreshHolders.filter((h) => !h.refreshToken).length;
  const refused: string[] = [];
  for (let i = 0; i < held.length; i += 4) {
    await Promise.all(
      held.slice(i, i + 4).map(async (token) => {
        try {
          await rotate(token);
        } catch (error) {
          refused.push((error instanceof Error ? error.message : String(error)).slice(0, 200));
        }
      }),
    );
  }
  t.diagnostic(`${held.length} refresh tokens rotated after the kill; ${unknown} left out, their last refresh having been in flight on the killed instance`);
  assert.ok(held.length >= Math.floor(AFTER_KILL / 2), `${held.length} refresh tokens held`);
  assert.ok(unknown <= CONCURRENCY, `${unknown} refresh tokens of unknown fate, at most one per worker`);
  assert.deepEqual(refused, [], 'every refresh token held was accepted once more');
});

test('the killed instance, started again on the same database, serves the same sessions and introspects what the other issued', {
  skip,
  timeout: 300_000,
}, async (t) => {
  const killed = instances[0];
  const restarted = await startGatehouse(killed.port);
  instances.push(restarted);

  // Browser sessions it wrote before the kill, and the other wrote after it, continued silently there.
  // (Not one that replayed its code: the replay revoked its grant, so its session would be asked for consent again.)
  const afterwards = cycles.findLast((c) => c.completed && !c.replay && c.startedAt > goneAt);
  for (const [when, cycle] of [
    ['signed in by it before the kill', signedInByKilled],
    ['signed in by the other after the kill', afterwards],
  ] as const) {
    assert.ok(cycle, `a session ${when}`);
    const silent = await silentSignIn(cycle.browser, restarted.url);
    assert.equal(silent.redemption, 200, `the session ${when} continues at the restarted instance with prompt=none: ${silent.answer}`);
  }

  // Access tokens the surviving instance issued while the other was down.
  assert.ok(issuedAfterKill.length > 0, 'tokens were issued after the kill');
  const inactive: number[] = [];
  for (let i = 0; i < issuedAfterKill.length; i += 10) {
    const batch = issuedAfterKill.slice(i, i + 10);
    const answers = await Promise.all(
      batch.map(
        async (token) =>
          (await (await fetch(`${restarted.url}/oauth/introspect`, form({ token }, { authorization: resourceServerAuth }))).json()) as { active: boolean },
      ),
    );
    answers.forEach((answer, j) => answer.active || inactive.push(i + j));
  }
  assert.deepEqual(inactive, [], `the restarted instance introspects all ${issuedAfterKill.length} tokens the other issued as active`);

  // nginx tries it again once its fail_timeout is over, and it answers.
  let toTheOther = 0;
  for (const deadline = Date.now() + 90_000; ; toTheOther++) {
    const response = await tagged(`${proxyUrl}/.well-known/openid-configuration`);
    await response.arrayBuffer();
    const line = lineOf(proxy!.log(), sent.at(-1)!);
    if (line?.upstreams.at(-1) === restarted.address && response.status === 200) break;
    assert.ok(Date.now() < deadline, 'nginx sends requests to the restarted instance again');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  t.diagnostic(`nginx sent a request to the restarted instance again after ${toTheOther} to the other`);
});

test('no authorization code is redeemed twice: a replay is invalid_grant, a retry after a 502 redeems at most once, and one code sent to both instances at once gets one 200', {
  skip,
  timeout: 300_000,
}, async (t) => {
  const [, survivor, restarted] = instances;
  // Replays during the load, within the code's 60 s (past it a code is refused as unknown, which would prove nothing).
  const replays = cycles.filter((c) => c.replayed);
  const answeredReplays = replays.filter((c) => c.replayed!.status !== 502);
  assert.deepEqual(
    answeredReplays.filter((c) => c.replayed!.error !== 'invalid_grant').map((c) => c.replayed),
    [],
    'every replayed code answered by Gatehouse was refused with invalid_grant',
  );
  assert.ok(replays.length - answeredReplays.length <= CONCURRENCY, `replays in flight on the killed instance: ${replays.length - answeredReplays.length}`);
  assert.ok(
    answeredReplays.length >= Math.floor((KILL_AFTER + AFTER_KILL - SIGN_IN_WORKERS) / 2),
    `${answeredReplays.length} codes replayed (every other sign-in of each worker)`,
  );
  // A redemption in flight on the killed instance, sent again by the client at once: either it was
  // consumed there (invalid_grant) or not (200), never both redeemed.
  const retries = cycles.filter((c) => c.retry);
  for (const c of retries) {
    assert.ok(c.retry!.status === 200 || c.retry!.error === 'invalid_grant', `a code retried after a 502: ${JSON.stringify(c.retry)}`);
  }

  // The same code at both instances at once: one 200, one invalid_grant.
  const raced: string[] = [];
  for (let i = 0; i < 3; i++) {
    const { verifier, challenge } = await pkce();
    const callback = await authorize(newCycle().browser, new URL(`/oauth/authorize?${authorizeQuery(app, challenge)}`, proxyUrl), users[i]);
    const code = callback.searchParams.get('code')!;
    const body = { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier };
    const answers = await Promise.all([tokenRequest(restarted.url, body, [200, 400]), tokenRequest(survivor.url, body, [200, 400])]);
    raced.push(answers.map((a) => a.body.error ?? a.status).join(' / '));
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400], `one code sent to both instances at once: ${raced.at(-1)}`);
    assert.equal(answers.find((a) => a.status === 400)!.body.error, 'invalid_grant');
  }
  t.diagnostic(
    `${answeredReplays.length} codes replayed during the load, all invalid_grant; ${retries.length} redemptions retried after a 502: ` +
      `${JSON.stringify(retries.map((c) => c.retry!.error ?? c.retry!.status))}; raced between the instances: ${JSON.stringify(raced)}`,
  );
});
