// The storage adapter's contract, on every supported store: SQLite always,
// PostgreSQL when TEST_DATABASE_URL is set (CI sets it), and each of them with
// the short-lived artifacts in Redis (REDIS_URL) when a Redis answers at
// TEST_REDIS_URL (default redis://127.0.0.1:6379).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { Redis } from 'ioredis';
import pg from 'pg';
import { deleteExpiredArtifacts, destroyArtifactsOfClient, hashArtifactId, hashStoredCredentials, REDIS_MODELS } from '../db/artifacts.ts';
import { destroyArtifactsOfAccount, destroyGrantsOfAccountForClient, lastIssuedByClient } from '../account/repository.ts';
import { closeDatabase, database, type Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { adapterFor } from './adapter.ts';

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

interface Store {
  name: string;
  url?: string;
  redisUrl?: string;
  skip: string | false;
}
const dir = mkdtempSync(join(tmpdir(), 'gatehouse-adapter-'));
const pgBase = process.env.TEST_DATABASE_URL;
const schemas: string[] = [];
const pgUrl = () => {
  if (!pgBase) return undefined;
  const schema = `gh_adapter_${randomBytes(4).toString('hex')}`;
  schemas.push(schema);
  return `${pgBase}${pgBase.includes('?') ? '&' : '?'}schema=${schema}`;
};
const noPostgres = pgBase ? false : 'TEST_DATABASE_URL is not set: PostgreSQL not tested';
const noRedis = redisReachable ? false : `no Redis at ${REDIS_URL} (TEST_REDIS_URL): Redis not tested`;
const stores: Store[] = [
  { name: 'SQLite', url: `file:${join(dir, 'adapter.db')}`, skip: false },
  { name: 'PostgreSQL', url: pgUrl(), skip: noPostgres },
  { name: 'SQLite with Redis', url: `file:${join(dir, 'adapter-redis.db')}`, redisUrl: REDIS_URL, skip: noRedis },
  { name: 'PostgreSQL with Redis', url: pgUrl(), redisUrl: REDIS_URL, skip: noPostgres || noRedis },
];

after(async () => {
  const redis = redisReachable ? new Redis(REDIS_URL) : undefined;
  for (const store of stores) {
    if (!store.url || store.skip) continue;
    const prefix = await database(store.url).redisArtifacts?.keyPrefix();
    const keys = prefix ? await redis!.keys(`${prefix}*`) : [];
    if (keys.length > 0) await redis!.del(...keys);
    await closeDatabase(store.url);
  }
  await redis?.quit();
  rmSync(dir, { recursive: true, force: true });
  if (!pgBase) return;
  const client = new pg.Client({ connectionString: pgBase });
  await client.connect();
  for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await client.end();
});

const id = () => randomBytes(12).toString('base64url');

/** Every value stored for the provider, keys included: the table's rows and, with Redis, this store's keys. */
async function everythingStored(db: Database): Promise<string> {
  const rows = (await db.sql.all<{ id: string; payload: string }>('SELECT id, payload FROM oidc_model_instances')).map((r) => r.id + r.payload);
  if (!db.redisArtifacts) return rows.join('\n');
  const redis = new Redis(REDIS_URL);
  try {
    const values: string[] = [];
    for (const key of await redis.keys(`${await db.redisArtifacts.keyPrefix()}*`)) {
      const type = await redis.type(key);
      values.push(key, ...(type === 'hash' ? Object.values(await redis.hgetall(key)) : await redis.zrange(key, 0, -1)));
    }
    return [...rows, ...values].join('\n');
  } finally {
    await redis.quit();
  }
}

/** Whether an artifact is stored under this key, in the store that holds its model. */
async function storedUnder(db: Database, model: string, key: string): Promise<boolean> {
  if (db.redisArtifacts && REDIS_MODELS.has(model)) return (await db.redisArtifacts.find(model, key)) !== undefined;
  return (await db.sql.one('SELECT 1 AS x FROM oidc_model_instances WHERE model = ? AND id = ?', [model, key])) !== undefined;
}

for (const { name, url, redisUrl, skip } of stores) {
  describe(`storage adapter on ${name}`, { skip }, () => {
    let migrated: Promise<void> | undefined;
    const open = async () => {
      await (migrated ??= migrate(url!).then(() => undefined));
      return database(url!, { redisUrl });
    };
    const adapter = async (model: string) => {
      const Adapter = adapterFor(await open(), { now: Date.now });
      return new Adapter(model);
    };

    test('upsert then find returns the payload; upsert again replaces it', async () => {
      const tokens = await adapter('AccessToken');
      const key = id();
      await tokens.upsert(key, { jti: key, kind: 'AccessToken', clientId: 'c1', accountId: 'a1', grantId: 'g1', scope: 'openid' }, 60);
      assert.deepEqual(await tokens.find(key), { jti: key, kind: 'AccessToken', clientId: 'c1', accountId: 'a1', grantId: 'g1', scope: 'openid' });
      await tokens.upsert(key, { jti: key, kind: 'AccessToken', clientId: 'c1', scope: 'openid email' }, 60);
      assert.equal((await tokens.find(key))?.scope, 'openid email');
      assert.equal(await tokens.find(id()), undefined);
    });

    test('models do not see each other’s ids', async () => {
      const key = id();
      await (await adapter('AccessToken')).upsert(key, { jti: key }, 60);
      assert.equal(await (await adapter('RefreshToken')).find(key), undefined);
    });

    test('a token looked up as all three kinds at once costs one query, and each kind gets its own answer', async () => {
      const key = id();
      const [access, credentials, refresh] = await Promise.all(['AccessToken', 'ClientCredentials', 'RefreshToken'].map(adapter));
      await refresh.upsert(key, { jti: key, kind: 'RefreshToken', clientId: 'c1' }, 60);
      const sql = database(url!).sql;
      const all = sql.all.bind(sql);
      let queries = 0;
      sql.all = ((...args: Parameters<typeof all>) => {
        queries++;
        return all(...args);
      }) as typeof sql.all;
      try {
        const found = await Promise.all([access.find(key), credentials.find(key), refresh.find(key)]);
        assert.deepEqual(found, [undefined, undefined, { jti: key, kind: 'RefreshToken', clientId: 'c1' }]);
        // With Redis, the access and client-credentials lookups that miss there look in the table too, once
        // together (lib/db/artifact-store.ts: tokens issued while Redis was lost are kept there).
        assert.equal(queries, redisUrl ? 2 : 1);
      } finally {
        sql.all = all;
      }
      // The shared read ends with its turn of the event loop: a later lookup sees later changes.
      await refresh.destroy(key);
      assert.equal(await refresh.find(key), undefined);
    });

    test('concurrent saves, lookups and consumptions each get their own answer (on PostgreSQL, one statement per kind)', async () => {
      const db = await open();
      const [refresh, sessions] = await Promise.all([adapter('RefreshToken'), adapter('Session')]);
      const tokens = Array.from({ length: 8 }, () => id());
      const cookies = Array.from({ length: 8 }, () => id());
      const counted = async (run: () => Promise<unknown>) => {
        const { one, all, run: write } = db.sql;
        let count = 0;
        const count1 =
          <F extends (...args: never[]) => unknown>(f: F) =>
          (...args: Parameters<F>) => {
            count++;
            return f.apply(db.sql, args);
          };
        Object.assign(db.sql, { one: count1(one), all: count1(all), run: count1(write) });
        try {
          await run();
        } finally {
          Object.assign(db.sql, { one, all, run: write });
        }
        return count;
      };
      const saves = await counted(() =>
        Promise.all([
          ...tokens.map((t, i) => refresh.upsert(t, { jti: t, kind: 'RefreshToken', n: i }, 60)),
          ...cookies.map((c, i) => sessions.upsert(c, { jti: c, uid: `uid-${c}`, n: i }, 60)),
        ]),
      );
      const found = await Promise.all([...tokens.map((t) => refresh.find(t)), ...cookies.map((c) => sessions.find(c))]);
      assert.deepEqual(
        found.map((p) => p?.n),
        [...tokens.map((_, i) => i), ...cookies.map((_, i) => i)],
      );
      const lookups = await counted(() => Promise.all([...tokens.map((t) => refresh.find(t)), ...cookies.map((c) => sessions.find(c))]));
      const consumed = await Promise.allSettled([...tokens, tokens[0]].map((t) => refresh.consume(t)));
      assert.deepEqual(
        consumed.map((r) => r.status),
        [...tokens.map(() => 'fulfilled'), 'rejected'],
        'each consumed once; the second consumption of the first one loses',
      );
      if (db.sql.kind === 'postgresql') {
        assert.equal(saves, 1, 'the saves of one turn: one statement');
        assert.equal(lookups, 2, 'the lookups of one turn: one statement per kind');
      }
    });

    test('findByUid finds a session by its uid, without its id (the cookie value is not stored)', async () => {
      const sessions = await adapter('Session');
      const key = id();
      const uid = id();
      await sessions.upsert(key, { jti: key, uid, accountId: 'a2' }, 60);
      assert.deepEqual(await sessions.findByUid(uid), { uid, accountId: 'a2' });
      assert.equal((await sessions.find(key))?.jti, key, 'found by its value, the session gets its id back');
      assert.equal(await sessions.findByUid(id()), undefined);
    });

    test('a credential is stored under its SHA-256 and nowhere in the row (or Redis key); a reference is stored as it is', async () => {
      const db = await open();
      const grantId = id();
      for (const model of ['AccessToken', 'AuthorizationCode', 'RefreshToken', 'ClientCredentials', 'Session']) {
        const key = id();
        await (await adapter(model)).upsert(key, { jti: key, kind: model, grantId, uid: id() }, 60);
        assert.ok(!(await everythingStored(db)).includes(key), `${model}: the value appears nowhere`);
        assert.ok(await storedUnder(db, model, hashArtifactId(key)), model);
        assert.equal((await (await adapter(model)).find(key))?.jti, key);
        assert.equal(await (await adapter(model)).find(hashArtifactId(key)), undefined, `${model}: the stored key is not the credential`);
      }
      await (await adapter('Grant')).upsert(grantId, { jti: grantId, kind: 'Grant' }, 60);
      assert.ok(await storedUnder(db, 'Grant', grantId), "a grant's id is a reference, kept as it is");
    });

    test("an interaction keeps its session's uid but not the session's cookie value", async () => {
      const interactions = await adapter('Interaction');
      const [uid, cookie, sessionUid] = [id(), id(), id()];
      await interactions.upsert(uid, { jti: uid, kind: 'Interaction', session: { accountId: 'a3', uid: sessionUid, cookie } }, 60);
      assert.deepEqual((await interactions.find(uid))?.session, { accountId: 'a3', uid: sessionUid });
      assert.ok(await storedUnder(await open(), 'Interaction', uid));
      assert.ok(!(await everythingStored(await open())).includes(cookie));
    });

    test('rows written before credentials were hashed are rekeyed in place and keep working', async () => {
      const { sql } = await open();
      const [token, session, interaction, cookie] = [id(), id(), id(), id()];
      const insert = (model: string, key: string, payload: object) =>
        sql.run('INSERT INTO oidc_model_instances (model, id, payload, grant_id, expires_at) VALUES (?, ?, ?, ?, ?)', [
          model,
          key,
          JSON.stringify(payload),
          'g-legacy',
          Date.now() + 60_000,
        ]);
      await insert('RefreshToken', token, { jti: token, kind: 'RefreshToken', clientId: 'c1' });
      await insert('Session', session, { jti: session, uid: 'u-legacy', accountId: 'a4' });
      await insert('Interaction', interaction, { jti: interaction, session: { uid: 'u-legacy', cookie } });
      assert.ok((await hashStoredCredentials(sql, 2)) >= 3);
      assert.equal(await hashStoredCredentials(sql, 2), 0, 'a second run finds nothing to do');
      const everything = (await sql.all<{ id: string; payload: string }>('SELECT id, payload FROM oidc_model_instances'))
        .map((r) => r.id + r.payload)
        .join('\n');
      for (const value of [token, session, cookie]) assert.ok(!everything.includes(value));
      assert.deepEqual(await (await adapter('RefreshToken')).find(token), { jti: token, kind: 'RefreshToken', clientId: 'c1' });
      assert.equal((await (await adapter('Session')).find(session))?.accountId, 'a4');
      await (await adapter('RefreshToken')).consume(token);
      assert.ok((await (await adapter('RefreshToken')).find(token))?.consumed, 'consumed through the hashed key');
    });

    test('findByUserCode finds a device code by its user code', async () => {
      const codes = await adapter('DeviceCode');
      const key = id();
      await codes.upsert(key, { jti: key, userCode: 'ABCD-EFGH' }, 60);
      assert.equal((await codes.findByUserCode('ABCD-EFGH'))?.jti, key);
      assert.equal(await codes.findByUserCode('ZZZZ-ZZZZ'), undefined);
    });

    test('consume marks the artifact consumed exactly once, even when racing', async () => {
      const codes = await adapter('AuthorizationCode');
      const key = id();
      const grantId = id();
      await codes.upsert(key, { jti: key, grantId }, 60);
      const results = await Promise.allSettled(Array.from({ length: 5 }, () => codes.consume(key)));
      assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
      for (const r of results.filter((r) => r.status === 'rejected')) {
        assert.equal((r as PromiseRejectedResult).reason.error, 'invalid_grant');
      }
      // The loser of the race revoked the grant (RFC 6749 §10.5): the code is gone with it.
      assert.equal(await codes.find(key), undefined);
    });

    test('a consumed artifact reports `consumed` in epoch seconds', async () => {
      const codes = await adapter('AuthorizationCode');
      const key = id();
      await codes.upsert(key, { jti: key }, 60);
      await codes.consume(key);
      const consumed = (await codes.find(key))?.consumed as number;
      assert.ok(Math.abs(consumed - Date.now() / 1000) < 5);
    });

    test('destroy removes one artifact', async () => {
      const tokens = await adapter('AccessToken');
      const [a, b] = [id(), id()];
      await tokens.upsert(a, { jti: a }, 60);
      await tokens.upsert(b, { jti: b }, 60);
      await tokens.destroy(a);
      assert.equal(await tokens.find(a), undefined);
      assert.ok(await tokens.find(b));
    });

    test('revokeByGrantId removes that model’s artifacts of the grant only', async () => {
      const access = await adapter('AccessToken');
      const refresh = await adapter('RefreshToken');
      const grantId = id();
      const [a1, a2, r1, other] = [id(), id(), id(), id()];
      await access.upsert(a1, { jti: a1, grantId }, 60);
      await access.upsert(a2, { jti: a2, grantId }, 60);
      await refresh.upsert(r1, { jti: r1, grantId }, 60);
      await access.upsert(other, { jti: other, grantId: id() }, 60);
      await access.revokeByGrantId(grantId);
      assert.equal(await access.find(a1), undefined);
      assert.equal(await access.find(a2), undefined);
      assert.ok(await refresh.find(r1), 'another model is revoked by its own call');
      assert.ok(await access.find(other));
    });

    test('expired artifacts are not found and are cleaned up (Redis expires its own)', async () => {
      const [access, refresh] = await Promise.all([adapter('AccessToken'), adapter('RefreshToken')]);
      const [a, r] = [id(), id()];
      await access.upsert(a, { jti: a }, 1);
      await refresh.upsert(r, { jti: r }, 1);
      assert.ok(await access.find(a));
      assert.ok(await refresh.find(r));
      await new Promise((done) => setTimeout(done, 1100));
      assert.equal(await access.find(a), undefined);
      assert.equal(await refresh.find(r), undefined);
      assert.ok((await deleteExpiredArtifacts((await open()).sql, Date.now())) >= 1);
      assert.ok(!(await storedUnder(await open(), 'AccessToken', hashArtifactId(a))) || !redisUrl, 'gone from Redis at its expiry');
    });

    test('artifacts without expiry live until destroyed', async () => {
      const grants = await adapter('Grant');
      const key = id();
      await grants.upsert(key, { jti: key }, undefined as unknown as number);
      assert.ok(await grants.find(key));
    });

    test('disabling an account or deleting a client removes what they hold', async () => {
      const [sessions, grants, tokens, credentials] = await Promise.all(['Session', 'Grant', 'AccessToken', 'ClientCredentials'].map(adapter));
      const [account, other, client] = [`acct-${id()}`, `acct-${id()}`, `client-${id()}`];
      const [s, g, h, t, u, c] = [id(), id(), id(), id(), id(), id()];
      await sessions.upsert(s, { jti: s, uid: id(), accountId: account }, 60);
      await grants.upsert(g, { jti: g, accountId: account, clientId: client }, 60);
      await grants.upsert(h, { jti: h, accountId: other, clientId: client }, 60);
      // A person's tokens belong to a grant; a client's own (client_credentials) to no one else.
      await tokens.upsert(t, { jti: t, grantId: g, accountId: account, clientId: client }, 60);
      await tokens.upsert(u, { jti: u, grantId: h, accountId: other, clientId: client }, 60);
      await credentials.upsert(c, { jti: c, clientId: client }, 60);
      assert.equal(await destroyArtifactsOfAccount(await open(), account), 3);
      assert.equal(await sessions.find(s), undefined);
      assert.equal(await grants.find(g), undefined);
      assert.equal(await tokens.find(t), undefined);
      assert.ok(await tokens.find(u));
      assert.equal(await destroyArtifactsOfClient(await open(), client), 3);
      assert.equal(await grants.find(h), undefined);
      assert.equal(await tokens.find(u), undefined);
      assert.equal(await credentials.find(c), undefined);
    });

    test("revoking an app for a person ends that app's grants, codes and tokens of theirs, and nothing else", async () => {
      const [grants, codes, tokens, refresh] = await Promise.all(['Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken'].map(adapter));
      const [account, client, grantId, otherGrant] = ['acct-r', `client-${id()}`, id(), id()];
      const [code, token, rt, kept] = [id(), id(), id(), id()];
      await grants.upsert(grantId, { jti: grantId, kind: 'Grant', accountId: account, clientId: client }, 60);
      await grants.upsert(otherGrant, { jti: otherGrant, kind: 'Grant', accountId: account, clientId: 'another-client' }, 60);
      const iat = Math.floor(Date.now() / 1000);
      await codes.upsert(code, { jti: code, grantId, accountId: account, clientId: client, iat }, 60);
      await tokens.upsert(token, { jti: token, grantId, accountId: account, clientId: client, iat: iat + 1 }, 60);
      await refresh.upsert(rt, { jti: rt, grantId, accountId: account, clientId: client, iat }, 60);
      await tokens.upsert(kept, { jti: kept, grantId: otherGrant, accountId: account, clientId: 'another-client', iat }, 60);
      assert.equal((await lastIssuedByClient(await open(), account, Date.now())).get(client), iat + 1, 'the latest token, wherever it is held');
      const { grantIds, removed } = await destroyGrantsOfAccountForClient(await open(), account, client);
      assert.deepEqual(grantIds, [grantId]);
      assert.equal(removed, 4);
      for (const [model, key] of [
        [grants, grantId],
        [codes, code],
        [tokens, token],
        [refresh, rt],
      ] as const) {
        assert.equal(await model.find(key), undefined);
      }
      assert.ok(await tokens.find(kept));
      assert.ok(await grants.find(otherGrant));
    });

    test('the Client model is read from the clients table and never written', async () => {
      const clients = await adapter('Client');
      assert.equal(await clients.find('no-such-client'), undefined);
      await assert.rejects(clients.upsert('x', { client_id: 'x' }, 60));
    });
  });
}
