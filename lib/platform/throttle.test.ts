// Throttling and lockout (issue 10): what a person who mistypes, a guesser and an admin each see,
// on every store the counters can live in. Time moves with node:test's mocked Date (the
// library reads Date.now()), so no test waits or depends on the machine's speed; on Redis,
// where keys expire in the server, only steps that need no time to pass are tested.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, mock, test } from 'node:test';
import { Redis } from 'ioredis';
import { closeDatabase, database, type Database } from '../db/database.ts';
import { testDatabases } from '../db/testing.ts';
import { type Check, createThrottle, type PasswordAttempt, type Throttle, type ThrottleSettings, throttleSettings } from './throttle.ts';

/**
 * The documented defaults (lib/config/env.ts): per (account, source) or known browser 5 free, waits 1-60 s, lock
 * after 10 for 15 min, 30 a day; new browsers locked out of an account after 100 failures a day; 30 free / 300 per
 * source an hour; wrong client secrets 10 free / 100 per source an hour, 10,000 an hour over all sources.
 */
const defaults = throttleSettings();
const tag = () => randomBytes(4).toString('hex');
let addresses = 0;
const freshIp = () => `10.${randomBytes(1)[0]}.${Math.floor(++addresses / 250)}.${(addresses % 250) + 1}`;
const known = (ip = freshIp()): PasswordAttempt => ({ account: { id: `u-${tag()}` }, username: `alice-${tag()}`, ip });
const unknown = (ip = freshIp(), username = `nobody-${tag()}`): PasswordAttempt => ({ account: undefined, username, ip });

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const redisReachable = await (async () => {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
})();

const storages = testDatabases('throttle');
const sqlite = storages[0];

/** Starts the mocked clock at the real time; undone after the test. */
function mockClock(t: { after(fn: () => void): void }) {
  mock.timers.enable({ apis: ['Date'], now: Date.now() });
  t.after(() => mock.timers.reset());
  return (seconds: number) => mock.timers.tick(seconds * 1000);
}

/** A password check that is allowed and fails; returns what the failure earned. */
async function failOnce(throttle: Throttle, attempt: PasswordAttempt) {
  const check = await throttle.beforePasswordCheck(attempt);
  assert.deepEqual(check, { allowed: true }, 'the check before the failure must be allowed');
  return throttle.passwordFailed(attempt);
}

const refusedFor = (check: Check) => (check.allowed ? undefined : { reason: check.reason, retryAfterSeconds: check.retryAfterSeconds });

test('the defaults are the documented ones, and out-of-order settings stop the start naming the variables', () => {
  assert.deepEqual(defaults.account, { free: 5, lockAfter: 10, lockSeconds: 900, cap: 30, windowSeconds: 86_400 });
  assert.deepEqual(defaults.source, { free: 30, cap: 300, windowSeconds: 3600 });
  assert.deepEqual(defaults.newBrowsers, { free: 100, lockAfter: 100, lockSeconds: 86_400, cap: 100, windowSeconds: 86_400 });
  assert.deepEqual(defaults.client, { free: 10, cap: 100, windowSeconds: 3600 });
  assert.deepEqual(defaults.clientGlobal, { free: 10_000, cap: 10_000, windowSeconds: 3600 });
  assert.deepEqual([defaults.delaySeconds, defaults.maxDelaySeconds], [1, 60]);
  assert.throws(
    () => throttleSettings(settingsEnv({ THROTTLE_ACCOUNT_LOCK_AFTER: 40 })),
    /THROTTLE_ACCOUNT_LOCK_AFTER must not exceed THROTTLE_ACCOUNT_DAILY_CAP/,
  );
  assert.throws(() => throttleSettings(settingsEnv({ THROTTLE_SOURCE_FREE_FAILURES: 300 })), /THROTTLE_SOURCE_FREE_FAILURES must be below/);
});

function settingsEnv(overrides: Record<string, number>) {
  return {
    THROTTLE_ACCOUNT_FREE_FAILURES: 5,
    THROTTLE_ACCOUNT_LOCK_AFTER: 10,
    THROTTLE_ACCOUNT_LOCK_SECONDS: 900,
    THROTTLE_ACCOUNT_DAILY_CAP: 30,
    THROTTLE_SOURCE_FREE_FAILURES: 30,
    THROTTLE_SOURCE_HOURLY_CAP: 300,
    THROTTLE_CLIENT_FREE_FAILURES: 10,
    THROTTLE_CLIENT_HOURLY_CAP: 100,
    THROTTLE_CLIENT_GLOBAL_HOURLY_CAP: 10_000,
    THROTTLE_NEW_BROWSER_LOCK_AFTER: 100,
    THROTTLE_DELAY_SECONDS: 1,
    THROTTLE_MAX_DELAY_SECONDS: 60,
    ...overrides,
  } as unknown as Parameters<typeof throttleSettings>[0];
}

for (const storage of storages) {
  describe(`throttling on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    let db: Database;
    let throttle: Throttle;
    const open = async () => {
      db ??= await storage.open();
      throttle ??= createThrottle({ db, settings: defaults, sweepEveryMs: 0 });
      return throttle;
    };
    after(() => throttle?.close());

    test('a person who mistypes five times is never slowed; signing in clears the count', async (t) => {
      const throttle = await open();
      mockClock(t);
      for (const attempt of [known(), unknown()]) {
        for (let i = 0; i < 5; i++) assert.deepEqual(await failOnce(throttle, attempt), { locked: false });
        assert.deepEqual(await throttle.beforePasswordCheck(attempt), { allowed: true });
        await throttle.passwordSucceeded(attempt);
        for (let i = 0; i < 5; i++) assert.deepEqual(await failOnce(throttle, attempt), { locked: false }, 'five more free after a success');
      }
    });

    test('a run of failures from one address earns waits of 1, 2, 4, 8 s, then a 15-minute lock of that address; the lock ends', async (t) => {
      const throttle = await open();
      const tick = mockClock(t);
      const attempt = known();
      for (let i = 0; i < 5; i++) await failOnce(throttle, attempt);
      for (const seconds of [1, 2, 4, 8]) {
        const outcome = await failOnce(throttle, attempt);
        assert.equal(outcome.locked, false);
        assert.deepEqual([outcome.wait?.reason, outcome.wait?.retryAfterSeconds], ['throttled', seconds]);
        assert.deepEqual(refusedFor(await throttle.beforePasswordCheck(attempt)), { reason: 'throttled', retryAfterSeconds: seconds });
        assert.equal(await throttle.lockState(attempt.account!.id), undefined, 'a short wait is not a lock');
        tick(seconds);
      }
      const tenth = await failOnce(throttle, attempt);
      assert.deepEqual([tenth.locked, tenth.wait?.reason, tenth.wait?.retryAfterSeconds], [true, 'locked', 900]);
      assert.equal(await throttle.lockState(attempt.account!.id), undefined, 'one address locked out is not the account locked');
      assert.deepEqual(await throttle.beforePasswordCheck({ ...attempt, ip: freshIp() }), { allowed: true }, 'the owner elsewhere is not slowed');
      tick(899);
      assert.deepEqual(refusedFor(await throttle.beforePasswordCheck(attempt)), { reason: 'locked', retryAfterSeconds: 1 });
      tick(1);
      const eleventh = await failOnce(throttle, attempt);
      assert.deepEqual([eleventh.locked, eleventh.wait?.retryAfterSeconds], [true, 900], 'each failure after ten locks again');
    });

    test('at most 30 guesses a day per account and address: then that address is locked out until the day ends', async (t) => {
      const throttle = await open();
      const tick = mockClock(t);
      const attempt = known();
      let last: Awaited<ReturnType<Throttle['passwordFailed']>> | undefined;
      for (let i = 1; i <= 30; i++) {
        last = await failOnce(throttle, attempt);
        if (i < 30) tick(last.wait?.retryAfterSeconds ?? 0);
      }
      // 5 free, waits of 1+2+4+8 s, then the 10th to 29th each lock for 15 minutes: the 30th comes 5 h 0 min 15 s after the first.
      const dayLeft = 86_400 - (15 + 20 * 900);
      assert.deepEqual([last?.locked, last?.wait?.reason, last?.wait?.retryAfterSeconds], [true, 'locked', dayLeft]);
      tick(900);
      assert.deepEqual(refusedFor(await throttle.beforePasswordCheck(attempt)), { reason: 'locked', retryAfterSeconds: dayLeft - 900 });
      tick(dayLeft - 900);
      assert.deepEqual(await throttle.beforePasswordCheck(attempt), { allowed: true }, 'a new day');
      await throttle.passwordFailed(attempt);
    });

    test("a stranger cannot lock the owner out: the owner's known browser keeps its own budget, a passkey is never counted", async (t) => {
      const throttle = await open();
      const tick = mockClock(t);
      const owner = known();
      const device = `d-${tag()}`;
      // 100 failures a day from browsers the account does not know, spread over addresses (and from the owner's own).
      for (let i = 0; i < 99; i++) await failOnce(throttle, { ...owner, ip: freshIp() });
      const hundredth = await failOnce(throttle, { ...owner, ip: freshIp() });
      assert.deepEqual([hundredth.locked, hundredth.wait?.reason], [true, 'locked'], 'the hundredth locks new browsers out');
      assert.equal(refusedFor(await throttle.beforePasswordCheck({ ...owner, ip: freshIp() }))?.reason, 'locked', 'a new browser anywhere');
      assert.equal(refusedFor(await throttle.beforePasswordCheck(owner))?.reason, 'locked', "a new browser at the owner's address");
      assert.ok((await throttle.lockState(owner.account!.id))?.lockedUntil, 'the admin sees the lock');
      // The owner's browser that signed in before: allowed, from any address, whatever the strangers did.
      const mine = { ...owner, device };
      assert.deepEqual(await throttle.beforePasswordCheck(mine), { allowed: true });
      await throttle.passwordSucceeded(mine);
      // Its own budget: its own mistakes slow it like anyone's (5 free, then waits), and nobody else's.
      for (let i = 0; i < 5; i++) assert.deepEqual(await failOnce(throttle, mine), { locked: false });
      assert.equal((await failOnce(throttle, mine)).wait?.reason, 'throttled');
      tick(1);
      assert.deepEqual(await throttle.beforePasswordCheck({ ...mine, device: `d-${tag()}` }), { allowed: true }, 'another known browser is untouched');
      assert.equal(await throttle.unlock(owner.account!.id), true, 'the admin (or the mailed link) lifts the lock');
      assert.deepEqual(await throttle.beforePasswordCheck({ ...owner, ip: freshIp() }), { allowed: true });
    });

    test('at most three unlock mails a day per account', async (t) => {
      const throttle = await open();
      const tick = mockClock(t);
      const accountId = `u-${tag()}`;
      for (let i = 0; i < 3; i++) assert.deepEqual(await throttle.beforeUnlockMail(accountId), { allowed: true });
      assert.equal((await throttle.beforeUnlockMail(accountId)).allowed, false);
      assert.deepEqual(await throttle.beforeUnlockMail(`u-${tag()}`), { allowed: true }, 'per account');
      tick(86_400);
      assert.deepEqual(await throttle.beforeUnlockMail(accountId), { allowed: true });
    });

    test('parallel guesses cannot pass the daily cap', async () => {
      const throttle = await open();
      const attempt = known();
      const checks = await Promise.all(Array.from({ length: 50 }, () => throttle.beforePasswordCheck(attempt)));
      assert.equal(checks.filter((c) => c.allowed).length, 30);
      assert.ok(checks.every((c) => c.allowed || c.reason === 'locked'));
    });

    test('unknown usernames take exactly the steps known ones take, in any case, and what was typed is not stored', async (t) => {
      const throttle = await open();
      const tick = mockClock(t);
      const name = `Guess-${tag()}`;
      const steps = async (attempts: PasswordAttempt[]) => {
        const seen = [];
        for (const attempt of attempts) {
          const check = await throttle.beforePasswordCheck(attempt);
          const outcome = check.allowed ? await throttle.passwordFailed(attempt) : undefined;
          seen.push({
            check: refusedFor(check),
            wait: outcome?.wait && { reason: outcome.wait.reason, s: outcome.wait.retryAfterSeconds },
            locked: outcome?.locked,
          });
          tick(check.allowed ? (outcome?.wait?.retryAfterSeconds ?? 0) : check.retryAfterSeconds);
        }
        return seen;
      };
      const ip = freshIp();
      const account = known(ip);
      const ofKnown = await steps(Array.from({ length: 12 }, () => account));
      // The same typed name in different cases is one counter, like usernames themselves.
      const ofUnknown = await steps(Array.from({ length: 12 }, (_, i) => unknown(ip, i % 2 ? name.toUpperCase() : name.toLowerCase())));
      assert.deepEqual(ofUnknown, ofKnown);
      assert.deepEqual(
        ofKnown.map((s) => s.wait?.s ?? 0),
        [0, 0, 0, 0, 0, 1, 2, 4, 8, 900, 900, 900],
        'free, waits, then locks',
      );
      if (storage.name === 'SQLite' || storage.name === 'PostgreSQL') {
        const keys = (await db.sql.all<{ key: string }>('SELECT key FROM throttle_counters')).map((r) => r.key);
        assert.ok(keys.some((k) => k.startsWith('password:name:')));
        assert.ok(!keys.some((k) => k.toLowerCase().includes(name.toLowerCase())), 'only an HMAC of the typed name is stored');
      }
    });

    test('many usernames from one address are slowed after 30 failures an hour; other addresses are not', async (t) => {
      const throttle = await open();
      const tick = mockClock(t);
      const ip = freshIp();
      for (let i = 0; i < 30; i++) assert.deepEqual(await failOnce(throttle, unknown(ip)), { locked: false });
      const outcome = await failOnce(throttle, unknown(ip));
      assert.deepEqual([outcome.locked, outcome.wait?.reason, outcome.wait?.retryAfterSeconds], [false, 'throttled', 1]);
      assert.deepEqual(
        refusedFor(await throttle.beforePasswordCheck(known(ip))),
        { reason: 'throttled', retryAfterSeconds: 1 },
        'any account from there waits',
      );
      assert.deepEqual(await throttle.beforePasswordCheck(known()), { allowed: true }, 'another address does not');
      tick(1);
      assert.equal((await failOnce(throttle, unknown(ip))).wait?.retryAfterSeconds, 2);
      tick(3600);
      assert.deepEqual(await failOnce(throttle, unknown(ip)), { locked: false }, 'a new hour');
    });

    test('successful sign-ins do not count against their address', async (t) => {
      const throttle = await open();
      mockClock(t);
      const ip = freshIp();
      for (let i = 0; i < 60; i++) {
        const attempt = known(ip);
        assert.deepEqual(await throttle.beforePasswordCheck(attempt), { allowed: true });
        await throttle.passwordSucceeded(attempt);
      }
      for (let i = 0; i < 30; i++) assert.deepEqual(await failOnce(throttle, unknown(ip)), { locked: false });
    });

    test('wrong client secrets: 10 an hour per address answered 401, then 429 with growing waits, for that address only', async (t) => {
      const throttle = await open();
      const tick = mockClock(t);
      const attacker = { clientId: `client-${tag()}`, ip: freshIp() };
      for (let i = 0; i < 10; i++) assert.deepEqual(await throttle.clientAuthenticationFailed(attacker), { allowed: true });
      assert.deepEqual(await throttle.clientAuthenticationFailed(attacker), { allowed: true }, 'the eleventh is answered 401 and earns a wait');
      assert.deepEqual(refusedFor(await throttle.clientAuthenticationFailed(attacker)), { reason: 'throttled', retryAfterSeconds: 1 });
      assert.deepEqual(
        refusedFor(await throttle.clientAuthenticationFailed({ ...attacker, clientId: `client-${tag()}` })),
        { reason: 'throttled', retryAfterSeconds: 1 },
        'any client, from that address',
      );
      assert.deepEqual(await throttle.clientAuthenticationFailed({ ...attacker, ip: freshIp() }), { allowed: true }, 'the same client from elsewhere');
      tick(1);
      assert.deepEqual(await throttle.clientAuthenticationFailed(attacker), { allowed: true }, 'waited out, answered 401 again');
      assert.deepEqual(refusedFor(await throttle.clientAuthenticationFailed(attacker)), { reason: 'throttled', retryAfterSeconds: 2 }, 'the next wait doubles');
      tick(3600);
      assert.deepEqual(await throttle.clientAuthenticationFailed(attacker), { allowed: true });
    });

    test('second-factor codes have their own counter and lock, which the admin sees and clears', async (t) => {
      const throttle = await open();
      const tick = mockClock(t);
      const accountId = `u-${tag()}`;
      for (let i = 1; i < 10; i++) {
        assert.deepEqual(await throttle.beforeSecondFactor(accountId), { allowed: true });
        tick((await throttle.secondFactorFailed(accountId)).wait?.retryAfterSeconds ?? 0);
      }
      assert.deepEqual(await throttle.beforeSecondFactor(accountId), { allowed: true });
      assert.equal((await throttle.secondFactorFailed(accountId)).locked, true, 'the tenth locks');
      assert.equal((await throttle.beforeSecondFactor(accountId)).allowed, false);
      const password = { account: { id: accountId }, username: 'x', ip: freshIp() };
      assert.deepEqual(await throttle.beforePasswordCheck(password), { allowed: true }, 'the password counter is separate');
      assert.ok(await throttle.lockState(accountId));
      assert.equal(await throttle.unlock(accountId), true);
      assert.deepEqual(await throttle.beforeSecondFactor(accountId), { allowed: true });
      await throttle.secondFactorSucceeded(accountId);
    });

    test('two instances (two connections to one database) share the counters', async () => {
      await open();
      const first = createThrottle({ db, settings: quick, sweepEveryMs: 0 });
      // Another handle on the same database: a second connection, as another instance has.
      const otherUrl = storage.name === 'SQLite' ? storage.url!.replace(/\/([^/]+)$/, '/./$1') : `${storage.url}&application_name=second`;
      const secondDb = database(otherUrl);
      const second = createThrottle({ db: secondDb, settings: quick, sweepEveryMs: 0 });
      try {
        await sharedCounters(first, second);
      } finally {
        await Promise.all([first.close(), second.close()]);
        await closeDatabase(otherUrl);
      }
    });
  });
}

test('wrong client secrets over every address: past the global cap each is answered 429, from any address', async () => {
  // A database of its own: the global count is one key.
  const db = await testDatabases('throttle-global')[0].open();
  const capped = createThrottle({ db, settings: { ...defaults, clientGlobal: { free: 20, cap: 20, windowSeconds: 3600 } }, sweepEveryMs: 0 });
  try {
    for (let i = 0; i < 20; i++) assert.deepEqual(await capped.clientAuthenticationFailed({ clientId: 'c', ip: freshIp() }), { allowed: true });
    assert.equal(refusedFor(await capped.clientAuthenticationFailed({ clientId: 'c', ip: freshIp() }))?.reason, 'throttled', 'a fresh address');
  } finally {
    await capped.close();
  }
});

/** Lock after 4 failures (3 free, no waits in between), new browsers after 6, so no time needs to pass. */
const quick: ThrottleSettings = {
  ...defaults,
  account: { ...defaults.account, free: 3, lockAfter: 4 },
  newBrowsers: { free: 6, lockAfter: 6, lockSeconds: 86_400, cap: 6, windowSeconds: 86_400 },
};

/** Failures counted on two instances add up; a lock and an unlock on one hold on the other. */
async function sharedCounters(first: Throttle, second: Throttle) {
  const account = known();
  for (const throttle of [first, second, first]) assert.deepEqual(await failOnce(throttle, account), { locked: false });
  assert.equal((await failOnce(second, account)).locked, true, 'the fourth failure, counted over both instances, locks the address out');
  assert.equal(refusedFor(await first.beforePasswordCheck(account))?.reason, 'locked');
  // Two more from elsewhere make six from new browsers: the account is locked for every new browser, on both.
  for (const throttle of [first, second]) await failOnce(throttle, { ...account, ip: freshIp() });
  assert.equal(refusedFor(await second.beforePasswordCheck({ ...account, ip: freshIp() }))?.reason, 'locked');
  assert.ok(await first.lockState(account.account!.id));
  assert.equal(await first.unlock(account.account!.id), true);
  assert.deepEqual(await second.beforePasswordCheck({ ...account, ip: freshIp() }), { allowed: true });
  // Unknown usernames too: both derive the same key (its HMAC key is one server secret).
  const guess = unknown();
  for (const throttle of [first, second, first]) await failOnce(throttle, guess);
  assert.equal((await failOnce(second, { ...guess, username: guess.username.toUpperCase() })).locked, true);
  assert.equal(refusedFor(await first.beforePasswordCheck(guess))?.reason, 'locked');
}

describe('throttling on Redis', { skip: redisReachable ? false : `no Redis at ${REDIS_URL} (TEST_REDIS_URL)` }, () => {
  const instances: Throttle[] = [];
  const prefixes: string[] = [];
  const pair = async (settings: ThrottleSettings) => {
    const db = await sqlite.open(); // the HMAC key of unknown usernames lives in the database
    const redisKeyPrefix = `gatehouse-test-${tag()}`;
    prefixes.push(redisKeyPrefix);
    const made = [0, 1].map(() => createThrottle({ db, redisUrl: REDIS_URL, redisKeyPrefix, settings }));
    instances.push(...made);
    return made;
  };
  after(async () => {
    for (const throttle of instances) await throttle.close();
    const redis = new Redis(REDIS_URL);
    for (const prefix of prefixes) {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
    }
    await redis.quit();
  });

  test('two instances share the counters: a lock on one is a lock on the other, an unlock on either clears it', async () => {
    const [first, second] = await pair(quick);
    await sharedCounters(first, second);
  });

  test('unknown usernames take the steps known ones take', async () => {
    const [throttle] = await pair(quick);
    const run = async (attempt: PasswordAttempt) => {
      const seen = [];
      for (let i = 0; i < 6; i++) {
        const check = await throttle.beforePasswordCheck(attempt);
        seen.push(check.allowed ? (await throttle.passwordFailed(attempt)).locked : check.reason);
      }
      return seen;
    };
    const expected = [false, false, false, true, 'locked', 'locked'];
    assert.deepEqual(await run(known()), expected);
    assert.deepEqual(await run(unknown()), expected);
  });

  test('parallel guesses cannot pass the daily cap; the first waits and the per-source slowing apply', async () => {
    const [throttle] = await pair(defaults);
    const attempt = known();
    const checks = await Promise.all(Array.from({ length: 50 }, () => throttle.beforePasswordCheck(attempt)));
    assert.equal(checks.filter((c) => c.allowed).length, 30);
    const ip = freshIp();
    for (let i = 0; i < 30; i++) assert.deepEqual(await failOnce(throttle, unknown(ip)), { locked: false });
    assert.equal((await failOnce(throttle, unknown(ip))).wait?.reason, 'throttled');
    assert.equal(refusedFor(await throttle.beforePasswordCheck(known(ip)))?.reason, 'throttled');
  });

  test('wrong client secrets wait after 10 per address', async () => {
    const [throttle, other] = await pair(defaults);
    const attacker = { clientId: `client-${tag()}`, ip: freshIp() };
    for (let i = 0; i < 11; i++) assert.deepEqual(await throttle.clientAuthenticationFailed(attacker), { allowed: true });
    assert.equal((await other.clientAuthenticationFailed(attacker)).allowed, false, 'the other instance refuses too');
  });
});
