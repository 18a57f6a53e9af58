// Password guessing over HTTP: a run of wrong passwords is refused before any check, then locks the account;
// client secrets are throttled per client_id at the token, introspection and revocation endpoints; two instances
// on one database share the counters. The default limits (lib/config/env.ts) apply.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { auditEventsFor } from '../../lib/services/audit.ts';
import { database } from '../../lib/db/database.ts';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';
import { TestBrowser } from '../support/browser.ts';
import { authorizationRequest, basic, baseUrl, databaseUrl, makeClient, makeUser, post } from '../support/fixtures.ts';
import { startInstance } from '../support/server.ts';

let second: string;
let stopSecond: () => void;

before(async () => {
  ({ url: second, stop: stopSecond } = await startInstance({ DATABASE_URL: databaseUrl, ISSUER: baseUrl }));
});

after(() => stopSecond?.());

type Outcome = 'wrong' | 'throttled' | 'signed_in';

/** One authorization request's login form at `origin`, and a way to submit it again and again. */
async function loginForm(origin = baseUrl) {
  const client = await makeClient();
  const { url } = await authorizationRequest(client);
  const browser = new TestBrowser(origin, baseUrl); // behind a load balancer: the issuer's origin
  const start = new URL(url);
  let page = await browser.navigate(new URL(`${start.pathname}${start.search}`, origin));
  let html = await page.response.text();
  return async (username: string, password: string): Promise<{ outcome: Outcome; retryAfter?: number }> => {
    page = await browser.submit(html, '/login', { username, password });
    // Another instance than the issuer's address sends the browser back to the issuer's own URL: follow it here.
    if (page.location?.pathname.startsWith('/interaction/')) page = await browser.navigate(new URL(`${page.location.pathname}${page.location.search}`, origin));
    if (page.location) return { outcome: 'signed_in' };
    html = await page.response.text();
    if (html.includes('/confirm"')) return { outcome: 'signed_in' }; // on to the consent step
    if (/Too many attempts; try again in/.test(html)) {
      const seconds = Number(page.url.searchParams.get('retry_after'));
      return { outcome: 'throttled', retryAfter: seconds };
    }
    assert.match(html, /The username or password is not right/);
    return { outcome: 'wrong' };
  };
}

const sleep = (seconds: number) => new Promise((r) => setTimeout(r, seconds * 1000));
const checkedFailures = async (userId: string) =>
  (await auditEventsFor(database(databaseUrl), { involvingUserId: userId, actions: ['sign_in.failed'] }, 200)).filter(
    (e) => e.details.reason === 'wrong_password',
  ).length;

test('fifty wrong passwords in a row: five free, then refused without a check, the right one too; waited out, the run locks the account until an admin unlocks it', async () => {
  const user = await makeUser();
  const submit = await loginForm();
  const outcomes: Outcome[] = [];
  for (let i = 0; i < 50; i++) outcomes.push((await submit(user.username, `guess ${i}`)).outcome);
  await sleep(0.3); // audit entries are written just after the answer
  const checked = await checkedFailures(user.id);
  // Each entry is one argon2id verification that ran: the first five cost nothing, the sixth earns a wait,
  // and a slow machine may reach the end of a wait or three within the fifty (1 + 2 + 4 s).
  assert.ok(checked >= 6 && checked <= 9, `${checked} passwords verified of 50`);
  assert.equal(outcomes.filter((o) => o === 'wrong').length, checked, 'each check answered "not right"');
  assert.equal(outcomes.filter((o) => o === 'throttled').length, 50 - checked, 'every other attempt refused, saying when to try again');
  assert.deepEqual(outcomes.slice(0, 6), Array(6).fill('wrong'));

  // Right after a checked failure the wait is at least two seconds: the right password is refused as well.
  let last = await submit(user.username, 'another guess');
  while (last.outcome === 'throttled') {
    await sleep(last.retryAfter!);
    last = await submit(user.username, 'another guess');
  }
  assert.equal((await submit(user.username, user.password)).outcome, 'throttled', 'the right password waits too');

  // Waiting out each delay and guessing again reaches the lock (the tenth failure of the day).
  let locked: { outcome: Outcome; retryAfter?: number } | undefined;
  for (let i = 0; i < 6 && !locked; i++) {
    const wait = await submit(user.username, 'x');
    assert.equal(wait.outcome, 'throttled');
    if (wait.retryAfter! > 60) locked = wait;
    else {
      await sleep(wait.retryAfter!);
      assert.equal((await submit(user.username, `late guess ${i}`)).outcome, 'wrong');
    }
  }
  assert.ok(locked && locked.retryAfter! > 600, `locked for the lock period, not a short delay (${locked?.retryAfter} s)`);
  assert.equal((await submit(user.username, user.password)).outcome, 'throttled', 'the right password is refused while locked');
  await sleep(0.3);
  const lockouts = await auditEventsFor(database(databaseUrl), { involvingUserId: user.id, actions: ['user.locked'] }, 10);
  assert.equal(lockouts.length, 1, 'the lock is in the audit log, under the account');

  const token = await adminToken(await makeAdminApiClient());
  const unlocked = await api('POST', `/api/admin/users/${user.id}/unlock`, { token });
  assert.equal(unlocked.status, 200);
  assert.equal(unlocked.body.locked_until, null);
  assert.equal((await submit(user.username, user.password)).outcome, 'signed_in', 'unlocked, the right password signs in');
});

test('a username that names no account is refused at the same step as one that does', async () => {
  const submit = await loginForm();
  const nobody = `nobody-${randomBytes(4).toString('hex')}`;
  const outcomes: Outcome[] = [];
  for (let i = 0; i < 7; i++) outcomes.push((await submit(nobody, `guess ${i}`)).outcome);
  assert.deepEqual(outcomes.slice(0, 6), Array(6).fill('wrong'));
  assert.equal(outcomes[6], 'throttled');
});

test('wrong client secrets: ten answered 401, then growing waits answered 429 with Retry-After at every endpoint, the right secret too', async () => {
  const client = await makeClient();
  const right = { authorization: basic(client.id, client.clientSecret!) };
  const wrong = { authorization: basic(client.id, 'not-the-secret') };
  const statuses: number[] = [];
  for (let i = 0; i < 10; i++) statuses.push((await post('/oauth/revoke', { token: 'x' }, wrong)).status);
  assert.deepEqual(statuses, Array(10).fill(401), 'ten free failures');
  // Each further failure doubles the wait: waited out, they reach one of eight seconds.
  let retryAfter = 0;
  for (let i = 0; i < 8 && retryAfter < 8; i++) {
    const answer = await post('/oauth/revoke', { token: 'x' }, wrong);
    if (answer.status === 429) {
      retryAfter = Number(answer.headers.get('retry-after'));
      if (retryAfter < 8) await sleep(retryAfter);
    } else assert.equal(answer.status, 401);
  }
  assert.ok(retryAfter >= 8, `a wait of ${retryAfter} s`);
  for (const path of ['/oauth/token', '/oauth/introspect', '/oauth/revoke']) {
    const body: Record<string, string> = path === '/oauth/token' ? { grant_type: 'client_credentials' } : { token: 'x' };
    const refused = await post(path, body, right);
    assert.equal(refused.status, 429, path);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1, `${path}: Retry-After`);
    const json = await refused.json();
    assert.deepEqual(Object.keys(json).sort(), ['error', 'error_description']);
    assert.equal(json.error, 'too_many_requests');
    assert.match(json.error_description, /try again in \d+ seconds/);
  }
  await sleep(retryAfter + 0.5);
  assert.equal((await post('/oauth/revoke', { token: 'x' }, right)).status, 200, 'after the wait the right secret works');
});

test('two instances on one database share the counters: failures at one are refused at the other', async () => {
  const user = await makeUser();
  const [here, there] = [await loginForm(), await loginForm(second)];
  for (let i = 0; i < 6; i++) assert.equal((await here(user.username, `guess ${i}`)).outcome, 'wrong');
  // The sixth failure earned a second's wait; waited out, a seventh earns two.
  await sleep(1.1);
  assert.equal((await here(user.username, 'guess 7')).outcome, 'wrong');
  const refused = await there(user.username, user.password);
  assert.equal(refused.outcome, 'throttled', 'the other instance refuses the right password too');
  assert.ok(refused.retryAfter! >= 1);
});
