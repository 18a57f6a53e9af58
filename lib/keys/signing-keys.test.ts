// Signing key rotation: the state machine on a clock of its own, the admin's rotate and retire,
// instances racing on one database, the watch that rebuilds the provider. SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Database } from '../db/database.ts';
import { insertSigningKey, listActiveSigningKeys } from '../db/secrets.ts';
import { generateSigningJwk, loadSigningKeys } from '../oidc/keys.ts';
import { listSigningKeyInfo, signingKeysVersion } from './repository.ts';
import { testDatabases } from '../db/testing.ts';
import { LONGEST_SIGNED_LIFETIME } from '../oidc/signed-lifetimes.ts';
import { createLogger, memoryLog } from '../ops/log.ts';
import { BY_CLI } from '../audit/log.ts';
import { Conflict, NotFound } from '../platform/errors.ts';
import {
  checkSigningKeys,
  dueSteps,
  listSigningKeys,
  logSigningKeySteps,
  retireSigningKey,
  rotateSigningKeys,
  rotationSettings,
  startSigningKeyRotation,
  type SigningKeyInfo,
} from './signing-keys.ts';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const settings = rotationSettings({ KEY_ROTATION_DAYS: 90, KEY_PUBLISH_AHEAD_HOURS: 24 });
const T0 = Date.parse('2026-01-01T00:00:00Z');

const states = (keys: SigningKeyInfo[], alg: string) =>
  keys
    .filter((k) => k.alg === alg)
    .map((k) => k.state)
    .sort();
const byState = async (db: Database, alg: string, state: string) => (await listSigningKeyInfo(db)).filter((k) => k.alg === alg && k.state === state);
const audits = async (db: Database, action: string) =>
  db.sql.all<{ target_id: string; details: string }>('SELECT target_id, details FROM audit_events WHERE action = ?', [action]);

test('the state machine, as a pure function: first keys, a next key ahead of its day, the takeover, the retirement', () => {
  const key = (kid: string, state: SigningKeyInfo['state'], activatesAt: number, retireAfter = 0): SigningKeyInfo => ({
    kid,
    alg: 'ES256',
    state,
    createdAt: activatesAt,
    activatesAt,
    retireAfter,
  });
  assert.deepEqual(
    dueSteps([], settings, T0).map((s) => s.kind),
    ['create', 'create'],
  );
  const rsa = { ...key('r', 'current', T0 + 80 * DAY), alg: 'RS256' };
  assert.deepEqual(dueSteps([key('a', 'current', T0), rsa], settings, T0 + 88 * DAY), []);
  const [create] = dueSteps([key('a', 'current', T0), rsa], settings, T0 + 89 * DAY);
  assert.deepEqual(create, { kind: 'create', alg: 'ES256', state: 'next', activatesAt: T0 + 90 * DAY });
  assert.deepEqual(dueSteps([key('a', 'current', T0), key('b', 'next', T0 + 90 * DAY), rsa], settings, T0 + 90 * DAY - 1), []);
  assert.deepEqual(
    dueSteps([key('a', 'current', T0), key('b', 'next', T0 + 90 * DAY), rsa], settings, T0 + 90 * DAY).map((s) => s.kind),
    ['promote'],
  );
  assert.deepEqual(dueSteps([key('b', 'current', T0), key('a', 'previous', T0 - DAY, T0 + HOUR), rsa], settings, T0 + HOUR - 1), []);
  assert.deepEqual(
    dueSteps([key('b', 'current', T0), key('a', 'previous', T0 - DAY, T0 + HOUR), rsa], settings, T0 + HOUR).map((s) => s.kind),
    ['retire'],
  );
  // 0 days: no automatic next key, but a scheduled one (an admin's) still takes over on time.
  const off = rotationSettings({ KEY_ROTATION_DAYS: 0, KEY_PUBLISH_AHEAD_HOURS: 24 });
  assert.deepEqual(dueSteps([key('a', 'current', T0), rsa], off, T0 + 900 * DAY), []);
  assert.equal(dueSteps([key('a', 'current', T0), key('b', 'next', T0 + DAY), rsa], off, T0 + DAY)[0].kind, 'promote');
});

for (const storage of testDatabases('signing-keys')) {
  describe(`signing key rotation on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    const fresh = async () => {
      const db = await storage.open();
      await db.sql.run('DELETE FROM signing_keys');
      await db.sql.run("DELETE FROM audit_events WHERE action LIKE 'key.%'");
      return db;
    };

    test('automatic rotation: published a day ahead, signing on its day, the old key published until its tokens expired', async () => {
      const db = await fresh();
      assert.equal((await checkSigningKeys(db, settings, { now: T0 })).length, 2, 'a first start creates one current key per algorithm');
      assert.equal((await audits(db, 'key.created')).length, 2);
      assert.deepEqual(await checkSigningKeys(db, settings, { now: T0 + 80 * DAY }), []);
      const [first] = await byState(db, 'ES256', 'current');

      await checkSigningKeys(db, settings, { now: T0 + 89 * DAY });
      const [next] = await byState(db, 'ES256', 'next');
      assert.equal(next.activatesAt, T0 + 90 * DAY);
      // Published, after the key that signs: oidc-provider signs with the first key of an algorithm.
      const published = (await listActiveSigningKeys(db)).filter((k) => k.alg === 'ES256').map((k) => k.kid);
      assert.deepEqual(published, [first.kid, next.kid]);

      const takeover = T0 + 90 * DAY;
      await checkSigningKeys(db, settings, { now: takeover });
      assert.equal((await byState(db, 'ES256', 'current'))[0].kid, next.kid);
      const [previous] = await byState(db, 'ES256', 'previous');
      assert.equal(previous.kid, first.kid);
      assert.equal(previous.retireAfter, takeover + LONGEST_SIGNED_LIFETIME * 1000);
      assert.deepEqual(
        (await listActiveSigningKeys(db)).filter((k) => k.alg === 'ES256').map((k) => k.kid),
        [next.kid, first.kid],
      );
      const [rotated] = (await audits(db, 'key.rotated')).filter((a) => a.target_id === next.kid);
      assert.equal(JSON.parse(rotated.details).previousKid, first.kid);

      await checkSigningKeys(db, settings, { now: previous.retireAfter - 1 });
      assert.equal((await byState(db, 'ES256', 'previous')).length, 1);
      await checkSigningKeys(db, settings, { now: previous.retireAfter });
      assert.deepEqual(states(await listSigningKeyInfo(db), 'ES256'), ['current']);
      assert.equal(JSON.parse((await audits(db, 'key.retired')).find((a) => a.target_id === first.kid)!.details).reason, 'expired');
    });

    test("an admin's rotate: a next key a day ahead, promoted once that day has passed; --now at once", async () => {
      const db = await fresh();
      await checkSigningKeys(db, settings, { now: T0 });
      const [first] = await byState(db, 'RS256', 'current');
      const [scheduled] = await rotateSigningKeys(db, settings, { algs: ['RS256'], now: T0 + HOUR, by: BY_CLI });
      assert.equal(scheduled.outcome, 'scheduled');
      assert.equal(scheduled.activatesAt, T0 + 25 * HOUR);
      // Again before the day has passed: the same key, the same time, no second key.
      assert.deepEqual(await rotateSigningKeys(db, settings, { algs: ['RS256'], now: T0 + 2 * HOUR, by: BY_CLI }), [scheduled]);
      assert.deepEqual(states(await listSigningKeyInfo(db), 'RS256'), ['current', 'next']);
      // The check promotes it on time, with no admin.
      await checkSigningKeys(db, settings, { now: T0 + 25 * HOUR });
      assert.equal((await byState(db, 'RS256', 'current'))[0].kid, scheduled.kid);
      assert.equal((await byState(db, 'RS256', 'previous'))[0].kid, first.kid);

      const [emergency] = await rotateSigningKeys(db, settings, { algs: ['RS256'], immediately: true, now: T0 + 26 * HOUR, by: BY_CLI });
      assert.equal(emergency.outcome, 'rotated');
      assert.equal((await byState(db, 'RS256', 'current'))[0].kid, emergency.kid);
      assert.deepEqual(states(await listSigningKeyInfo(db), 'RS256'), ['current', 'previous', 'previous']);
      const rotated = (await audits(db, 'key.rotated')).find((a) => a.target_id === emergency.kid)!;
      assert.deepEqual(JSON.parse(rotated.details).immediately, true);
      assert.deepEqual(states(await listSigningKeyInfo(db), 'ES256'), ['current'], 'the other algorithm is left alone');
    });

    test('retire: never the signing key; a previous key early, on purpose; an unknown kid is not found', async () => {
      const db = await fresh();
      await checkSigningKeys(db, settings, { now: T0 });
      const [first] = await byState(db, 'ES256', 'current');
      await assert.rejects(retireSigningKey(db, first.kid, { now: T0, by: BY_CLI }), Conflict);
      await rotateSigningKeys(db, settings, { algs: ['ES256'], immediately: true, now: T0 + HOUR, by: BY_CLI });
      const { early } = await retireSigningKey(db, first.kid, { now: T0 + HOUR, by: BY_CLI });
      assert.equal(early, true);
      assert.ok(!(await listActiveSigningKeys(db)).some((k) => k.kid === first.kid), 'gone from what the provider publishes');
      await assert.rejects(retireSigningKey(db, first.kid, { now: T0 + HOUR, by: BY_CLI }), NotFound);
      const [retired] = (await audits(db, 'key.retired')).filter((a) => a.target_id === first.kid);
      assert.deepEqual(JSON.parse(retired.details), { alg: 'ES256', reason: 'admin', early: true });
    });

    test('instances racing: one promotion, one audit entry; two keys created at once settle on one', async () => {
      const db = await fresh();
      await checkSigningKeys(db, settings, { now: T0 });
      await rotateSigningKeys(db, settings, { now: T0, by: BY_CLI });
      const results = await Promise.all([1, 2, 3].map(() => checkSigningKeys(db, settings, { now: T0 + 25 * HOUR })));
      assert.equal(results.flat().filter((s) => s.kind === 'promote').length, 2, 'each algorithm promoted once in all');
      assert.equal((await audits(db, 'key.rotated')).length, 2);
      for (const alg of ['ES256', 'RS256']) assert.deepEqual(states(await listSigningKeyInfo(db), alg), ['current', 'previous']);

      // Duplicates made all the same (a database from before, an admin racing the check): the later current one keeps signing, the later next one goes.
      const db2 = await fresh();
      for (const at of [T0, T0 + 1]) {
        for (const alg of ['ES256', 'RS256'] as const) {
          const jwk = generateSigningJwk(alg);
          await insertSigningKey(db2, { kid: jwk.kid, alg, privateJwk: jwk as unknown as Record<string, unknown>, createdAt: new Date(at) });
        }
      }
      await rotateSigningKeys(db2, settings, { algs: ['ES256'], now: T0 + 2, by: BY_CLI });
      await db2.sql.run("UPDATE signing_keys SET state = 'next' WHERE kid IN (SELECT kid FROM signing_keys WHERE alg = 'RS256' AND state = 'current' LIMIT 1)");
      const before = await listSigningKeyInfo(db2);
      const signing = before.filter((k) => k.alg === 'ES256' && k.state === 'current').sort((a, b) => b.activatesAt - a.activatesAt)[0];
      await checkSigningKeys(db2, settings, { now: T0 + 3 });
      const after = await listSigningKeyInfo(db2);
      assert.deepEqual(
        after.filter((k) => k.alg === 'ES256' && k.state === 'current').map((k) => k.kid),
        [signing.kid],
      );
      assert.equal(after.filter((k) => k.alg === 'ES256' && k.state === 'next').length, 1);
      assert.equal(after.filter((k) => k.alg === 'RS256' && k.state === 'current').length, 1);
    });

    test('instances starting at once on an empty database make one current key per algorithm, and log what they made', async () => {
      for (let round = 0; round < 3; round++) {
        const db = await fresh();
        const { log, lines } = memoryLog();
        // The start's check and the provider's own first read, as two instances would run them.
        const runs = await Promise.all([
          checkSigningKeys(db, settings, { now: T0 }),
          checkSigningKeys(db, settings, { now: T0 }),
          loadSigningKeys(db).then(() => []),
          checkSigningKeys(db, settings, { now: T0 }),
        ]);
        for (const steps of runs) logSigningKeySteps(log, steps);
        const keys = await listSigningKeyInfo(db);
        for (const alg of ['ES256', 'RS256']) assert.deepEqual(states(keys, alg), ['current'], `round ${round}: one ${alg} key`);
        const created = runs.flat().filter((step) => step.kind === 'create');
        assert.ok(created.length <= 2);
        assert.equal((await audits(db, 'key.created')).length, created.length, 'an audit entry for each key a check made');
        for (const step of created) {
          const line = lines.find((l) => (l.signing_key as { kid: string }).kid === step.kid);
          assert.ok(line, `a log line for ${step.kid}`);
          assert.equal(line.level, 30, 'at info');
          assert.deepEqual(line.signing_key, {
            action: 'create',
            kid: step.kid,
            alg: step.alg,
            state: 'current',
            activates_at: new Date(T0).toISOString(),
          });
          assert.match(String(line.msg), new RegExp(`created ${step.kid}, the ${step.alg} key that signs from now on`));
        }
      }
    });

    test('stored sealed, listed without key material', async () => {
      const db = await fresh();
      await checkSigningKeys(db, settings, { now: T0 });
      const published = await listActiveSigningKeys(db);
      const raw = (await db.sql.all<{ private_jwk: string }>('SELECT private_jwk FROM signing_keys')).map((r) => r.private_jwk).join('\n');
      for (const key of published) assert.ok(!raw.includes(String(key.privateJwk.d)));
      for (const key of await listSigningKeys(db))
        assert.deepEqual(Object.keys(key).sort(), ['activatesAt', 'alg', 'createdAt', 'kid', 'retireAfter', 'state']);
    });

    test('the watch: a change made elsewhere reaches refreshProvider within one interval; what is due is applied', async () => {
      const db = await fresh();
      await checkSigningKeys(db, settings, { now: T0 });
      const versions: string[] = [];
      let now = T0 + HOUR;
      const stop = startSigningKeyRotation(
        {
          db,
          now: () => now,
          log: createLogger({ level: 'silent' }),
          refreshProvider: async (version) => {
            versions.push(version!);
            return true;
          },
        },
        settings,
        { intervalMs: 20 },
      );
      const waitFor = async (check: () => boolean | Promise<boolean>) => {
        for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 10));
        assert.ok(await check());
      };
      await waitFor(() => versions.length > 0);
      await rotateSigningKeys(db, settings, { algs: ['ES256'], now, by: BY_CLI }); // "another instance"
      const changed = signingKeysVersion(await listSigningKeyInfo(db));
      await waitFor(() => versions.at(-1) === changed);
      now = T0 + 26 * HOUR; // the scheduled key's time: the watch promotes it by itself
      await waitFor(async () => (await byState(db, 'ES256', 'previous')).length === 1);
      stop();
    });
  });
}
