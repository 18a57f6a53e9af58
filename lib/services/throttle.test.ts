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

/** The documented defaults (lib/config/env.ts): 5 free, waits 1-60 s, lock after 10 for 15 min, 30 a day; 30 free / 300 per source an hour; 10 free / 100 per client an hour. */
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
  assert.deepEqual(defaults.client, { free: 10, cap: 100, windowSeconds: 3600 });
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

    test('a run of failures earns waits of 1, 2, 4, 8 s, then a 15-minute lock the admin sees; the lock ends', async (t) => {
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
      const state = await throttle.lockState(attempt.account!.id);
      assert.equal(state?.lockedUntil.getTime(), Date.now() + 900_000);
      tick(899);
      assert.deepEqual(refusedFor(await throttle.beforePasswordCheck(attempt)), { reason: 'locked', retryAfterSeconds: 1 });
      tick(1);
      assert.equal(await throttle.lockState(attempt.account!.id), undefined);
      const eleventh = await failOnce(throttle, attempt);
      assert.deepEqual([eleventh.locked, eleventh.wait?.retryAfterSeconds], [true, 900], 'each failure after ten locks again');
    });

    test('at most 30 guesses a day per account: then locked until the day ends, and an admin can unlock', async (t) => {
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
      assert.equal((await throttle.lockState(attempt.account!.id))?.lockedUntil.getTime(), Date.now() + (dayLeft - 900) * 1000);
      tick(dayLeft - 900);
      assert.deepEqual(await throttle.beforePasswordCheck(attempt), { allowed: true }, 'a new day');
      await throttle.passwordFailed(attempt);

      const other = known();
      for (let i = 1; i < 30; i++) tick((await failOnce(throttle, other)).wait?.retryAfterSeconds ?? 0);
      assert.equal((await failOnce(throttle, other)).locked, true);
      assert.equal((await throttle.beforePasswordCheck(other)).allowed, false);
      assert.equal(await throttle.unlock(other.account!.id), true, 'it was locked');
      assert.equal(await throttle.lockState(other.account!.id), undefined);
      assert.deepEqual(await failOnce(throttle, other), { locked: false }, 'unlocking starts the count again');
      assert.equal(await throttle.unlock(other.account!.id), false, 'nothing to unlock');
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

    test('client authentication: 10 failures an hour per client_id are free, then waits; other clients are not affected', async (t) => {
      const throttle = await open();
      const tick = mockClock(t);
      const clientId = `client-${tag()}`;
      for (let i = 0; i < 10; i++) {
        assert.deepEqual(await throttle.beforeClientAuthentication(clientId), { allowed: true });
        assert.deepEqual(await throttle.clientAuthenticationFailed(clientId), { locked: false });
      }
      const eleventh = await throttle.clientAuthenticationFailed(clientId);
      assert.deepEqual([eleventh.locked, eleventh.wait?.reason, eleventh.wait?.retryAfterSeconds], [false, 'throttled', 1]);
      assert.deepEqual(refusedFor(await throttle.beforeClientAuthentication(clientId)), { reason: 'throttled', retryAfterSeconds: 1 });
      assert.deepEqual(await throttle.beforeClientAuthentication(`client-${tag()}`), { allowed: true });
      tick(1);
      for (let i = 12; i < 100; i++) tick((await throttle.clientAuthenticationFailed(clientId)).wait?.retryAfterSeconds ?? 0);
      assert.equal((await throttle.clientAuthenticationFailed(clientId)).wait?.retryAfterSeconds, 60, 'the hundredth');
      const check = await throttle.beforeClientAuthentication(clientId);
      assert.equal(check.allowed ? undefined : check.reason, 'throttled', 'at 100 an hour: refused until the hour ends');
      tick(3600);
      assert.deepEqual(await throttle.beforeClientAuthentication(clientId), { allowed: true });
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

/** Lock after 4 failures (3 free, no waits in between), so no time needs to pass. */
const quick: ThrottleSettings = { ...defaults, account: { ...defaults.account, free: 3, lockAfter: 4 } };

/** Failures counted on two instances add up; a lock and an unlock on one hold on the other. */
async function sharedCounters(first: Throttle, second: Throttle) {
  const account = known();
  for (const throttle of [first, second, first]) assert.deepEqual(await failOnce(throttle, account), { locked: false });
  assert.equal((await failOnce(second, account)).locked, true, 'the fourth failure, counted over both instances, locks');
  assert.equal(refusedFor(await first.beforePasswordCheck(account))?.reason, 'locked');
  assert.ok(await first.lockState(account.account!.id));
  assert.equal(await first.unlock(account.account!.id), true);
  assert.deepEqual(await second.beforePasswordCheck(account), { allowed: true });
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

  test('client authentication waits after 10 failures', async () => {
    const [throttle] = await pair(defaults);
    const clientId = `client-${tag()}`;
    for (let i = 0; i < 10; i++) assert.deepEqual(await throttle.clientAuthenticationFailed(clientId), { locked: false });
    assert.equal((await throttle.clientAuthenticationFailed(clientId)).wait?.reason, 'throttled');
    assert.equal((await throttle.beforeClientAuthentication(clientId)).allowed, false);
  });
});
