// runs-on: everywhere
// alone: counts how many of fifty rapid guesses were checked before the waits ran out: a busier server checks fewer of them in time
// Password guessing over HTTP: a run of wrong passwords from one address is refused before any check, then locks
// that address out of the account, while the owner's browser that signed in before keeps working; wrong client
// secrets are throttled per source address at the token, introspection and revocation endpoints, and a right secret
// is never refused; two instances on one database share the counters. The default limits (lib/config/env.ts) apply.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { auditEventsFor } from '../../lib/audit/log.ts';
import { database } from '../../lib/db/database.ts';
import { PORTAL_CLIENT_ID, portalClientSecret } from '../../lib/clients/portal-client.ts';
import { TestBrowser } from '../support/browser.ts';
import { authorizationRequest, basic, baseUrl, codeFlow, databaseUrl, makeClient, makeUser, redirectUri } from '../support/fixtures.ts';
import { startInstance } from '../support/server.ts';

/**
 * A second instance on the same database, whose own waits last a second at most (THROTTLE_MAX_DELAY_SECONDS=1):
 * counters and waits are shared, and a wait is as long as the instance that recorded the failure makes it.
 */
let second: string;
let stopSecond: () => void;
/** An instance behind a "proxy" (TRUST_PROXY=1): its requests say which address they come from. */
let proxied: string;
let stopProxied: () => void;

before(async () => {
  ({ url: second, stop: stopSecond } = await startInstance({ DATABASE_URL: databaseUrl, ISSUER: baseUrl, THROTTLE_MAX_DELAY_SECONDS: '1' }));
  ({ url: proxied, stop: stopProxied } = await startInstance({ DATABASE_URL: databaseUrl, ISSUER: baseUrl, TRUST_PROXY: '1' }));
});

after(() => {
  stopSecond?.();
  stopProxied?.();
});

type Outcome = 'wrong' | 'throttled' | 'signed_in';

/** One authorization request's login form at `origin`, and a way to submit it again and again. */
async function loginForm(origin = baseUrl, browser = new TestBrowser(origin, baseUrl) /* behind a load balancer: the issuer's origin */) {
  const client = await makeClient();
  const { url } = await authorizationRequest(client, { prompt: 'login' });
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

test('fifty wrong passwords in a row from one address: five free, then refused without a check, the right one too; waited out, the run locks the address out, not the owner’s browser', async () => {
  const user = await makeUser();
  // The owner signed in from this browser before: it holds a device cookie for the account.
  const owners = new TestBrowser(baseUrl);
  assert.equal((await (await loginForm(baseUrl, owners))(user.username, user.password)).outcome, 'signed_in');
  const submit = await loginForm();
  const outcomes: Outcome[] = [];
  for (let i = 0; i < 50; i++) outcomes.push((await submit(user.username, `guess ${i}`)).outcome);
  await sleep(0.3); // audit entries are written just after the answer
  const checked = await checkedFailures(user.id);
  // Each entry is one argon2id verification that ran: the first five cost nothing, the sixth earns a wait,
  // and a slow or busy machine may reach the end of a wait or several within the fifty (1 + 2 + 4 + 8 ... s).
  assert.ok(checked >= 6 && checked <= 12, `${checked} passwords verified of 50`);
  assert.equal(outcomes.filter((o) => o === 'wrong').length, checked, 'each check answered "not right"');
  assert.equal(outcomes.filter((o) => o === 'throttled').length, 50 - checked, 'every other attempt refused, saying when to try again');
  assert.deepEqual(outcomes.slice(0, 6), Array(6).fill('wrong'));

  // Right after a checked failure the wait is at least two seconds: the right password is refused as well.
  let last = await submit(user.username, 'another guess');
  // (A machine slow enough to check the tenth guess above has locked the address already: nothing to wait out.)
  while (last.outcome === 'throttled' && last.retryAfter! <= 60) {
    await sleep(last.retryAfter!);
    last = await submit(user.username, 'another guess');
  }
  assert.equal((await submit(user.username, user.password)).outcome, 'throttled', 'the right password waits too');

  // Waiting out each delay and guessing again reaches the lock (the tenth failure of the day). The doubling waits
  // are the part above's (and lib/platform/throttle.test.ts's); these late guesses go to the second instance, whose
  // waits last a second, instead of waiting out 4 + 8 + 16 s here. Each answer is a wait (waited out), a checked
  // wrong password, or the lock.
  const patient = await loginForm(second);
  let locked: { outcome: Outcome; retryAfter?: number } | undefined;
  for (let i = 0; i < 20 && !locked; i++) {
    const answer = await patient(user.username, `late guess ${i}`);
    if (answer.outcome === 'throttled' && answer.retryAfter! > 60) locked = answer;
    else if (answer.outcome === 'throttled') await sleep(answer.retryAfter!);
    else assert.equal(answer.outcome, 'wrong');
  }
  assert.ok(locked && locked.retryAfter! > 600, `locked for the lock period, not a short delay (${locked?.retryAfter} s)`);
  assert.equal((await submit(user.username, user.password)).outcome, 'throttled', 'the right password is refused from a new browser while locked');
  await sleep(0.3);
  assert.equal(await checkedFailures(user.id), 10, 'locked at the tenth checked failure (THROTTLE_ACCOUNT_LOCK_AFTER), however many were checked above');
  const lockouts = await auditEventsFor(database(databaseUrl), { involvingUserId: user.id, actions: ['user.locked'] }, 10);
  assert.equal(lockouts.length, 1, 'the lock is in the audit log, under the account');
  assert.equal((await (await loginForm(baseUrl, owners))(user.username, user.password)).outcome, 'signed_in', 'the owner’s browser, same address, at once');
});

test('a username that names no account is refused at the same step as one that does', async () => {
  const submit = await loginForm();
  const nobody = `nobody-${randomBytes(4).toString('hex')}`;
  const outcomes: Outcome[] = [];
  let sent = 0;
  for (let i = 0; i < 6; i++) {
    sent = Date.now();
    outcomes.push((await submit(nobody, `guess ${i}`)).outcome);
  }
  assert.deepEqual(outcomes, Array(6).fill('wrong'), 'five free failures and a sixth that is checked, as for an account');
  // The sixth earns a wait of a second or more: the next guess is refused, unless this machine was too busy to send it
  // before the wait ran out; then it is checked like any guess after a wait, and a later one is refused. (A failure is
  // recorded after its request was sent and a guess checked before its answer came: the span between the two bounds
  // the server's wait from above.)
  for (let i = 6; i < 12; i++) {
    const previous = sent;
    sent = Date.now();
    const answer = await submit(nobody, `guess ${i}`);
    if (answer.outcome === 'throttled') {
      assert.ok(answer.retryAfter! >= 1, 'says when to try again');
      return;
    }
    assert.equal(answer.outcome, 'wrong');
    assert.ok(Date.now() - previous >= 1000, `guess ${i + 1} was checked within ${Date.now() - previous} ms of the last failure: before any wait ran out`);
  }
  assert.fail('never refused');
});

test('two hundred wrong client secrets, paced and in bursts, for an app and for the portal: the right secret works at once throughout, from the same address; the attacker gets 429', async () => {
  const client = await makeClient({ grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'] });
  const portalSecret = await portalClientSecret(database(databaseUrl));
  const from = `198.51.100.${randomBytes(1)[0] % 250}`;
  /** A POST to the proxied instance from `from`. */
  const postFrom = (path: string, body: Record<string, string>, authorization: string) =>
    fetch(new URL(path, proxied), {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': from },
      body: new URLSearchParams(body).toString(),
    });
  const right = basic(client.id, client.clientSecret!);
  const portal = basic(PORTAL_CLIENT_ID, portalSecret);
  // A person signs in to the app now; the app redeems the code once the attack is over.
  const flow = await codeFlow(client);
  const statuses: number[] = [];
  for (let round = 0; round < 10; round++) {
    // A burst of twenty, half for the app, half for the portal's public client_id...
    const burst = Array.from({ length: 20 }, (_, i) =>
      postFrom('/oauth/revoke', { token: 'x' }, basic(i % 2 ? PORTAL_CLIENT_ID : client.id, `guess-${round}-${i}`)),
    );
    statuses.push(...(await Promise.all(burst)).map((r) => r.status));
    // ...and the owners' right secrets, at once, from the same address: never refused.
    for (const path of ['/oauth/token', '/oauth/introspect', '/oauth/revoke']) {
      const body: Record<string, string> = path === '/oauth/token' ? { grant_type: 'client_credentials' } : { token: 'x' };
      assert.equal((await postFrom(path, body, right)).status, 200, `${path}, round ${round}: the app's right secret`);
    }
    assert.equal((await postFrom('/oauth/revoke', { token: 'x' }, portal)).status, 200, `round ${round}: the portal's right secret`);
    await sleep(0.1);
  }
  // The first burst's twenty arrive together: whichever ten the server counts first are answered 401, in any order.
  assert.ok(statuses.slice(0, 20).filter((s) => s === 401).length >= 10, 'the first ten counted are answered 401');
  assert.ok(statuses.filter((s) => s === 429).length >= 150, `the attacker is slowed: ${statuses.filter((s) => s === 429).length} of 200 answered 429`);
  assert.ok(statuses.every((s) => s === 401 || s === 429));
  // A wrong secret while the source waits is refused. The suite's servers make a wait last a second at most
  // (THROTTLE_MAX_DELAY_SECONDS=1), which a loaded machine can outlast between two requests: the guess it then lets
  // through is a 401 that earns the next wait, and the guess after it is refused.
  let refused = await postFrom('/oauth/introspect', { token: 'x' }, basic(client.id, 'another guess'));
  for (let tries = 1; refused.status === 401 && tries < 3; tries++) {
    refused = await postFrom('/oauth/introspect', { token: 'x' }, basic(client.id, `another guess ${tries}`));
  }
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get('retry-after')) >= 1, 'Retry-After');
  const json = await refused.json();
  assert.deepEqual(Object.keys(json).sort(), ['error', 'error_description']);
  assert.equal(json.error, 'too_many_requests');
  assert.match(json.error_description, /try again in \d+ seconds/);
  // The app's code redemption, with its right secret, from the attacker's address, at once.
  const redeemed = await postFrom(
    '/oauth/token',
    { grant_type: 'authorization_code', code: flow.code, redirect_uri: redirectUri, code_verifier: flow.verifier },
    right,
  );
  assert.equal(redeemed.status, 200, await redeemed.clone().text());
  assert.ok((await redeemed.json()).id_token, 'tokens for the person');
  // Another address is not the attacker's: its wrong secret is a plain 401.
  const elsewhere = await fetch(new URL('/oauth/revoke', proxied), {
    method: 'POST',
    headers: { authorization: basic(client.id, 'typo'), 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '192.0.2.77' },
    body: 'token=x',
  });
  assert.equal(elsewhere.status, 401);
});

test('two instances on one database share the counters: failures at one are refused at the other, from the same address', async () => {
  const user = await makeUser();
  const [here, there] = [await loginForm(), await loginForm(second)];
  for (let i = 0; i < 6; i++) assert.equal((await here(user.username, `guess ${i}`)).outcome, 'wrong');
  // The sixth failure earned a second's wait; waited out, a seventh earns two.
  await sleep(1.1);
  assert.equal((await here(user.username, 'guess 7')).outcome, 'wrong');
  const refused = await there(user.username, user.password);
  assert.equal(refused.outcome, 'throttled', 'the other instance refuses the right password from a new browser at that address too');
  assert.ok(refused.retryAfter! >= 1);
});
