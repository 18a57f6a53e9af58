// The read cache of grants, sessions and accounts: what this process changes is seen at once; on
// PostgreSQL what another connection changes as soon as PostgreSQL notifies, and nothing is served
// from the cache while the notifications may be missed; on SQLite what another connection commits
// (the CLI) at the next read.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { adapterFor } from '../oidc/adapter.ts';
import { accessOf, apiForToken, permissionsGranted } from '../authorization/repository.ts';
import { mappedClaims } from '../claims/repository.ts';
import { cachedClientMetadata } from '../clients/repository.ts';
import type { Database } from './database.ts';
import { postgresReadCache, READ_CACHE_MAX_AGE_MS } from './read-cache.ts';
import { splitSchema } from './sql.ts';
import { testDatabases } from './testing.ts';

const storages = testDatabases('read_cache');
const postgres = storages.find((storage) => storage.name === 'PostgreSQL')!;
const sqlite = storages.find((storage) => storage.name === 'SQLite')!;
const id = () => randomBytes(12).toString('base64url');
/** Every read as one on a route that reads through the cache (introspection, userinfo: lib/oidc/adapter.ts). */
const onCachedRoute = () => ({ request: {} });
/** Lets the event loop turn: what the SQLite cache checks once per turn is checked again. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** Waits until `check` holds, up to `ms`; returns how long it took. */
async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > ms) assert.fail(`not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A connection of its own, as another instance or the CLI would write. */
async function elsewhere<T>(db: Database, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const { connectionString, schema } = splitSchema(db.url);
  const client = new pg.Client({ connectionString, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Counts the statements run through db.sql while `run` runs. */
async function statements(db: Database, run: () => Promise<unknown>): Promise<number> {
  const { one, all } = db.sql;
  let count = 0;
  db.sql.one = ((...args: Parameters<typeof one>) => {
    count++;
    return one.apply(db.sql, args);
  }) as typeof one;
  db.sql.all = ((...args: Parameters<typeof all>) => {
    count++;
    return all.apply(db.sql, args);
  }) as typeof all;
  try {
    await run();
  } finally {
    db.sql.one = one;
    db.sql.all = all;
  }
  return count;
}

describe('read cache on PostgreSQL', { skip: postgres.url ? false : 'TEST_DATABASE_URL is not set: PostgreSQL not tested' }, () => {
  const ready = async () => {
    const db = await postgres.open();
    const Adapter = adapterFor(db, { now: Date.now, cachedRead: onCachedRoute });
    const grants = new Adapter('Grant');
    const sessions = new Adapter('Session');
    // The first read starts listening; nothing is kept before LISTEN has succeeded.
    await grants.find(id());
    await within(5000, async () => db.cache.active);
    return { db, grants, sessions };
  };

  test('a grant read again costs no statement; a change through this process is seen at once', async () => {
    const { db, grants } = await ready();
    const grantId = id();
    await grants.upsert(grantId, { jti: grantId, kind: 'Grant', accountId: 'a1', openid: { scope: 'openid' } }, 60);
    assert.equal((await grants.find(grantId))?.accountId, 'a1');
    assert.equal(await statements(db, () => grants.find(grantId)), 0);
    await grants.upsert(grantId, { jti: grantId, kind: 'Grant', accountId: 'a1', openid: { scope: 'openid email' } }, 60);
    assert.deepEqual((await grants.find(grantId))?.openid, { scope: 'openid email' });
    await grants.destroy(grantId);
    assert.equal(await grants.find(grantId), undefined);
  });

  test('what is served is a copy: changing it changes nothing cached', async () => {
    const { grants } = await ready();
    const grantId = id();
    await grants.upsert(grantId, { jti: grantId, kind: 'Grant', openid: { scope: 'openid' } }, 60);
    const first = await grants.find(grantId);
    (first!.openid as { scope: string }).scope = 'openid admin';
    assert.deepEqual((await grants.find(grantId))?.openid, { scope: 'openid' });
  });

  test('a grant revoked or a session ended by another connection is seen as soon as PostgreSQL notifies', async () => {
    const { db, grants, sessions } = await ready();
    const [grantId, sessionId, uid] = [id(), id(), id()];
    await grants.upsert(grantId, { jti: grantId, kind: 'Grant', accountId: 'a2' }, 60);
    await sessions.upsert(sessionId, { jti: sessionId, uid, accountId: 'a2' }, 60);
    assert.ok(await grants.find(grantId));
    assert.ok(await sessions.findByUid(uid));
    assert.equal(await statements(db, async () => [await grants.find(grantId), await sessions.findByUid(uid)]), 0, 'both cached');
    await elsewhere(db, (client) => client.query("DELETE FROM oidc_model_instances WHERE model IN ('Grant', 'Session') AND account_id = 'a2'"));
    const took = await within(READ_CACHE_MAX_AGE_MS, async () => (await grants.find(grantId)) === undefined && (await sessions.findByUid(uid)) === undefined);
    assert.ok(took < READ_CACHE_MAX_AGE_MS / 2, `notified, not aged out (${took} ms)`);
  });

  test("a client changed by another connection is forgotten by the provider's client cache", async () => {
    const { db } = await ready();
    const clientId = `c-${id()}`;
    await db.sql.run(
      `INSERT INTO clients (id, name, redirect_uris, grant_types, scope, token_endpoint_auth_method, created_at, updated_at)
       VALUES (?, 'Before', '[]', '["client_credentials"]', 'openid', 'none', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
      [clientId],
    );
    assert.equal((await cachedClientMetadata(db, clientId, Date.now()))?.client_name, 'Before');
    await elsewhere(db, (client) => client.query("UPDATE clients SET name = 'After' WHERE id = $1", [clientId]));
    const took = await within(2000, async () => (await cachedClientMetadata(db, clientId, Date.now()))?.client_name === 'After');
    assert.ok(took < 1000, `notified, not aged out (${took} ms)`);
  });

  test("a client's claim mapping (kept, empty, for every ID token) changed by another connection is seen as soon as PostgreSQL notifies", async () => {
    const { db } = await ready();
    const [clientId, userId, attributeId] = [`c-${id()}`, `u-${id()}`, `a-${id()}`];
    await db.sql.run(
      `INSERT INTO clients (id, name, redirect_uris, grant_types, scope, token_endpoint_auth_method, created_at, updated_at)
       VALUES (?, 'Mapped', '[]', '["client_credentials"]', 'openid', 'none', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
      [clientId],
    );
    await db.sql.run(
      'INSERT INTO users (id, username, username_key, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)',
      [userId, userId, userId, 'x'],
    );
    assert.deepEqual(await mappedClaims(db, clientId, userId), {}, 'no mapping, kept');
    await elsewhere(db, async (client) => {
      await client.query("INSERT INTO user_attributes (id, key, name) VALUES ($1, $1, 'Department')", [attributeId]);
      await client.query('INSERT INTO user_attribute_values (user_id, attribute_id, value, updated_at) VALUES ($1, $2, \'"Sales"\', now())', [
        userId,
        attributeId,
      ]);
      await client.query("INSERT INTO client_claim_mappings (client_id, claim, attribute_id) VALUES ($1, 'department', $2)", [clientId, attributeId]);
    });
    const took = await within(2000, async () => (await mappedClaims(db, clientId, userId)).department === 'Sales');
    assert.ok(took < 1000, `notified, not aged out (${took} ms)`);
    await elsewhere(db, (client) => client.query('DELETE FROM user_attributes WHERE id = $1', [attributeId]));
    await within(1000, async () => Object.keys(await mappedClaims(db, clientId, userId)).length === 0);
  });

  test('who may do what (kept for every token of an API) changed by another connection is seen as soon as PostgreSQL notifies', async () => {
    const { db } = await ready();
    const [userId, clientId, apiId, roleId, groupId] = [`u-${id()}`, `c-${id()}`, `api-${id()}`, `r-${id()}`, `g-${id()}`];
    const resource = `https://${apiId.toLowerCase()}.example.test/`;
    await db.sql.run(
      'INSERT INTO users (id, username, username_key, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)',
      [userId, userId, userId, 'x'],
    );
    await db.sql.run(
      `INSERT INTO clients (id, name, redirect_uris, grant_types, scope, token_endpoint_auth_method, created_at, updated_at)
       VALUES (?, 'Machine', '[]', '["client_credentials"]', 'openid', 'none', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
      [clientId],
    );
    await elsewhere(db, async (client) => {
      await client.query("INSERT INTO apis (id, identifier, name, updated_at) VALUES ($1, $2, 'Orders', now())", [apiId, resource]);
      await client.query("INSERT INTO api_permissions (api_id, name) VALUES ($1, 'orders:read')", [apiId]);
    });
    await within(1000, async () => (await apiForToken(db, resource)) !== undefined);
    // Kept, and empty: the person has no role, the client no grant.
    assert.deepEqual(await accessOf(db, userId), { groups: [], roles: [] });
    assert.deepEqual(await permissionsGranted(db, apiId, { userId }), []);
    assert.deepEqual(await permissionsGranted(db, apiId, { clientId }), []);

    // A role with the permission, given through a group: the model and the person's links change elsewhere.
    await elsewhere(db, async (client) => {
      await client.query("INSERT INTO roles (id, name, updated_at) VALUES ($1, 'reader', now())", [roleId]);
      await client.query("INSERT INTO role_permissions (role_id, api_id, permission) VALUES ($1, $2, 'orders:read')", [roleId, apiId]);
      await client.query("INSERT INTO groups (id, name, updated_at) VALUES ($1, 'sales', now())", [groupId]);
      await client.query('INSERT INTO group_roles (group_id, role_id) VALUES ($1, $2)', [groupId, roleId]);
      await client.query('INSERT INTO group_members (group_id, user_id) VALUES ($1, $2)', [groupId, userId]);
      await client.query("INSERT INTO client_permissions (client_id, api_id, permission) VALUES ($1, $2, 'orders:read')", [clientId, apiId]);
    });
    const took = await within(2000, async () => (await permissionsGranted(db, apiId, { userId })).length === 1);
    assert.ok(took < 1000, `notified, not aged out (${took} ms)`);
    assert.deepEqual(await accessOf(db, userId), { groups: ['sales'], roles: ['reader'] });
    await within(1000, async () => (await permissionsGranted(db, apiId, { clientId })).length === 1);

    // Removed from the group elsewhere: the next token carries neither the role nor the permission.
    await elsewhere(db, (client) => client.query('DELETE FROM group_members WHERE user_id = $1', [userId]));
    await within(1000, async () => (await permissionsGranted(db, apiId, { userId })).length === 0);
    assert.deepEqual(await accessOf(db, userId), { groups: [], roles: [] });
    // The permission deleted elsewhere (its grants cascade): the client's token no longer carries it.
    await elsewhere(db, (client) => client.query("DELETE FROM api_permissions WHERE api_id = $1 AND name = 'orders:read'", [apiId]));
    await within(1000, async () => (await permissionsGranted(db, apiId, { clientId })).length === 0);
  });

  test("what no trigger sees (a client's throttle state) is published to every instance", async () => {
    const { db } = await ready();
    // Another instance's cache on the same database.
    const other = postgresReadCache(db.url, { notify: async () => undefined });
    try {
      await other.read('warm-up', async () => undefined);
      await within(5000, async () => other.active);
      let loads = 0;
      const read = () => other.read('ClientWait:c1', async () => ++loads);
      await read();
      await read();
      assert.equal(loads, 1, 'kept');
      await db.cache.publish('ClientWait:c1');
      await within(1000, async () => {
        await read();
        return loads === 2;
      });
    } finally {
      await other.close();
    }
  });

  test('a session whose change is not yet notified: a token it does not name yet is checked against the table, not refused', async () => {
    const { db } = await ready();
    // One request on a cached route: the token it reads, then the session that must bind it.
    const request = {};
    const Adapter = adapterFor(db, { now: Date.now, cachedRead: () => ({ request }) });
    const [sessionId, uid, tokenId, account] = [id(), id(), id(), `a-${id()}`];
    const before = { jti: sessionId, uid, accountId: account, authorizations: { app1: { grantId: 'g1' } } };
    await new Adapter('Session').upsert(sessionId, before, 60);
    assert.deepEqual(
      (await new (adapterFor(db, { now: Date.now, cachedRead: () => ({ request: {} }) }))('Session').findByUid(uid))?.authorizations,
      before.authorizations,
    );
    // Another instance signs the person in to app2 on the same session; its notification is held back
    // (triggers off for that connection), as one still on its way would be.
    const after = { ...before, authorizations: { ...before.authorizations, app2: { grantId: 'g2' } } };
    await elsewhere(db, async (client) => {
      await client.query('SET session_replication_role = replica');
      await client.query("UPDATE oidc_model_instances SET payload = $1 WHERE model = 'Session' AND uid = $2", [JSON.stringify(after), uid]);
    });
    const stale = await new (adapterFor(db, { now: Date.now, cachedRead: () => ({ request: {} }) }))('Session').findByUid(uid);
    assert.deepEqual(stale?.authorizations, before.authorizations, 'the cache still holds the session as it was');
    await new Adapter('AccessToken').upsert(
      tokenId,
      { jti: tokenId, kind: 'AccessToken', accountId: account, clientId: 'app2', grantId: 'g2', expiresWithSession: true },
      60,
    );
    assert.equal((await new Adapter('AccessToken').find(tokenId))?.grantId, 'g2');
    assert.deepEqual((await new Adapter('Session').findByUid(uid))?.authorizations, after.authorizations, 'read again for the token');
    assert.deepEqual(
      (await new (adapterFor(db, { now: Date.now, cachedRead: () => ({ request: {} }) }))('Session').findByUid(uid))?.authorizations,
      after.authorizations,
      'and kept',
    );
  });

  test('off the cached routes (sign-in, code redemption, refresh) a read goes to the table', async () => {
    const { db, grants } = await ready();
    const uncached = new (adapterFor(db, { now: Date.now }))('Grant');
    const grantId = id();
    await grants.upsert(grantId, { jti: grantId, kind: 'Grant', accountId: 'a4', openid: { scope: 'openid' } }, 60);
    assert.ok(await grants.find(grantId));
    assert.equal(await statements(db, () => uncached.find(grantId)), 1);
    await elsewhere(db, async (client) => {
      await client.query('SET session_replication_role = replica');
      await client.query("UPDATE oidc_model_instances SET payload = $1 WHERE model = 'Grant' AND id = $2", [
        JSON.stringify({ jti: grantId, kind: 'Grant', accountId: 'a4', openid: { scope: 'openid email' } }),
        grantId,
      ]);
    });
    assert.deepEqual((await uncached.find(grantId))?.openid, { scope: 'openid email' }, 'the change at once, notified or not');
  });

  test('a read in flight when its key changes is not kept', async () => {
    const { db } = await ready();
    const key = `Grant:${id()}`;
    let finish!: (value: string) => void;
    const slow = db.cache.read(key, () => new Promise<string>((resolve) => (finish = resolve)));
    db.cache.forget(key);
    finish('stale');
    assert.equal(await slow, 'stale');
    assert.equal(await db.cache.read(key, async () => 'fresh'), 'fresh');
  });

  test('while the listening connection is lost nothing is kept, and what was kept is forgotten', async () => {
    const { db, grants } = await ready();
    const grantId = id();
    await grants.upsert(grantId, { jti: grantId, kind: 'Grant', accountId: 'a3' }, 60);
    assert.ok(await grants.find(grantId));
    const { schema } = splitSchema(db.url);
    await elsewhere(db, async (client) => {
      // This schema's listener only: other processes may be testing on the same server.
      await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [`gatehouse-cache-listener:${schema}`]);
      // While nobody listens: this notification reaches no one.
      await client.query("DELETE FROM oidc_model_instances WHERE model = 'Grant' AND id = $1", [grantId]);
    });
    await within(5000, async () => !db.cache.active);
    assert.equal(await grants.find(grantId), undefined, 'read from the database while not listening');
    await within(10_000, async () => db.cache.active);
    assert.equal(await grants.find(grantId), undefined, 'nothing kept from before the connection was lost');
  });
});

describe('read cache on SQLite', () => {
  test('a grant read again costs no statement; what another connection commits is seen from the next turn on', async () => {
    const db = await sqlite.open();
    const grants = new (adapterFor(db, { now: Date.now, cachedRead: onCachedRoute }))('Grant');
    const grantId = id();
    await grants.upsert(grantId, { jti: grantId, kind: 'Grant', accountId: 'a1' }, 60);
    assert.equal((await grants.find(grantId))?.accountId, 'a1');
    assert.equal(await statements(db, () => grants.find(grantId)), 0, 'kept');
    // The CLI's connection, say.
    const other = new BetterSqlite3(db.url.slice('file:'.length));
    try {
      other.prepare("DELETE FROM oidc_model_instances WHERE model = 'Grant' AND id = ?").run(grantId);
    } finally {
      other.close();
    }
    await nextTurn();
    assert.equal(await grants.find(grantId), undefined);
  });

  test('SQLite is asked whether another connection committed once per event-loop turn, not once per read', async () => {
    const db = await sqlite.open();
    const grants = new (adapterFor(db, { now: Date.now, cachedRead: onCachedRoute }))('Grant');
    const grantId = id();
    await grants.upsert(grantId, { jti: grantId, kind: 'Grant', accountId: 'a1' }, 60);
    await grants.find(grantId);
    await nextTurn();
    let asked = 0;
    const dataVersion = db.sql.dataVersion!.bind(db.sql);
    db.sql.dataVersion = () => {
      asked++;
      return dataVersion();
    };
    try {
      await Promise.all([grants.find(grantId), grants.find(grantId), grants.find(grantId)]);
      await grants.find(grantId);
      assert.equal(asked, 1, 'four reads in one turn');
      await nextTurn();
      await grants.find(grantId);
      assert.equal(asked, 2, 'and again in the next');
    } finally {
      db.sql.dataVersion = dataVersion;
    }
  });

  test("a client changed by another connection is forgotten by the provider's client cache at the next cached read", async () => {
    const db = await sqlite.open();
    const clientId = `c-${id()}`;
    await db.sql.run(
      `INSERT INTO clients (id, name, redirect_uris, grant_types, scope, token_endpoint_auth_method, created_at, updated_at)
       VALUES (?, 'Before', '[]', '["client_credentials"]', 'openid', 'none', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)`,
      [clientId],
    );
    assert.equal((await cachedClientMetadata(db, clientId, Date.now()))?.client_name, 'Before');
    const other = new BetterSqlite3(db.url.slice('file:'.length));
    try {
      other.prepare("UPDATE clients SET name = 'After' WHERE id = ?").run(clientId);
    } finally {
      other.close();
    }
    await nextTurn();
    await new (adapterFor(db, { now: Date.now, cachedRead: onCachedRoute }))('Grant').find(id());
    assert.equal((await cachedClientMetadata(db, clientId, Date.now()))?.client_name, 'After');
  });

  test("this process's own writes keep the cache; a change through it is seen at once", async () => {
    const db = await sqlite.open();
    const grants = new (adapterFor(db, { now: Date.now, cachedRead: onCachedRoute }))('Grant');
    const [kept, changed] = [id(), id()];
    await grants.upsert(kept, { jti: kept, kind: 'Grant', n: 1 }, 60);
    await grants.upsert(changed, { jti: changed, kind: 'Grant', n: 1 }, 60);
    await Promise.all([grants.find(kept), grants.find(changed)]);
    await grants.upsert(changed, { jti: changed, kind: 'Grant', n: 2 }, 60);
    assert.equal((await grants.find(changed))?.n, 2);
    assert.equal(await statements(db, () => grants.find(kept)), 0, 'the write through this connection emptied nothing else');
  });
});
