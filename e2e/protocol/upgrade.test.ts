// runs-on: databases
// An upgrade as an operator makes one (README, *Upgrades*): a database the previous release left
// (every migration but the newest, with a person, two clients and tokens in it), then `npm start` of
// the current code on it, which migrates before it serves. It is ready, logs each migration and data
// migration it applied by name, and everything from before still works: the client-credentials token
// introspects active, the refresh token refreshes, the person signs in to the client. A SQLite
// upgrade failed here (the server's own connection kept the schema engine out: SQLITE_BUSY) while
// every fresh start passed. On the suite's database (SQLite, PostgreSQL), under npm start's server.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { parseEnv } from '../../lib/config/env.ts';
import { createContext } from '../../lib/context.ts';
import { closeDatabase, database } from '../../lib/db/database.ts';
import type { DatabaseKind } from '../../lib/db/migrate.ts';
import { migrateAsPreviousRelease, migrationFolders } from '../../lib/db/previous-release.ts';
import { registerClient } from '../../lib/clients/manage.ts';
import { createUser } from '../../lib/users/manage.ts';
import { authorize, TestBrowser } from '../support/browser.ts';
import { basic, pkce, redirectUri } from '../support/fixtures.ts';
import { freePort, isolatedDatabase, spawnServer, untilReady } from '../support/server.ts';

const own = isolatedDatabase('upgrade');
const kind: DatabaseKind = own.url.startsWith('file:') ? 'sqlite' : 'postgresql';
const migrations = migrationFolders(kind);

after(async () => {
  await closeDatabase(own.url);
  await own.drop();
});

function form(url: string, body: Record<string, string>, authorization: string) {
  return fetch(url, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
    signal: AbortSignal.timeout(20_000),
  });
}

/** The JSON lines among what the server printed. */
function logLines(output: string): Record<string, unknown>[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

test(`${kind}: npm start upgrades a database of the previous release, logs each migration, and everything from before works`, {
  timeout: 180_000,
}, async (t) => {
  const { newest } = await migrateAsPreviousRelease(own.url);
  const db = database(own.url);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;

  // What the previous release held: a person, a web app, a resource server...
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const user = await createUser(db, { username: `user-${randomBytes(6).toString('hex')}`, password, email: 'upgrade@example.test', name: 'Upgrade' });
  const { client: app, clientSecret: appSecret } = await registerClient(db, {
    name: 'Web app',
    redirectUris: [redirectUri],
    grantTypes: ['authorization_code', 'refresh_token'],
  });
  const { client: service, clientSecret: serviceSecret } = await registerClient(db, {
    name: 'Orders API',
    grantTypes: ['client_credentials'],
    redirectUris: [],
    scopes: ['introspect'],
    resourceServer: true,
  });
  // ...and the tokens its provider issued (its signing keys, cookie keys and sealed secrets with them):
  // a client-credentials token, and a refresh token of the person's grant to the web app.
  const config = parseEnv({ ...process.env, DATABASE_URL: own.url, ISSUER: url, REDIS_URL: undefined, LOG_LEVEL: 'warn', METRICS_PORT: '' });
  const previous = createContext({ config, db });
  const provider = await previous.provider();
  const accessToken = await new provider.ClientCredentials({ client: await provider.Client.find(service.id), scope: 'introspect' } as never).save();
  const grant = new provider.Grant({ accountId: user.id, clientId: app.id });
  grant.addOIDCScope('openid offline_access');
  const grantId = await grant.save();
  const refreshToken = await new provider.RefreshToken({
    accountId: user.id,
    client: await provider.Client.find(app.id),
    grantId,
    scope: 'openid offline_access',
    gty: 'authorization_code',
    authTime: Math.floor(Date.now() / 1000),
  } as never).save();
  const counts = async ({ sql }: typeof db) => {
    const count = async (table: string) => Number((await sql.one<{ n: number | string }>(`SELECT count(*) AS n FROM ${table}`))!.n);
    return {
      users: await count('users'),
      clients: await count('clients'),
      artifacts: await count('oidc_model_instances'),
      signingKeys: await count('signing_keys'),
    };
  };
  const before = await counts(db);
  const dataMigrationsBefore = (await db.sql.all<{ name: string }>('SELECT name FROM data_migrations')).map((row) => row.name);
  await previous.close(); // the previous release stopped: nothing holds the database

  // The upgrade: the current code's `npm start`, nothing run before it.
  const started = performance.now();
  const server = await spawnServer({ DATABASE_URL: own.url, ISSUER: url, METRICS_PORT: '' }, { port, mount: 'server', host: '127.0.0.1' });
  try {
    const ready = await untilReady(server, { path: '/readyz', timeoutMs: 90_000 });
    const readyMs = Math.round(performance.now() - started);
    assert.ok(ready, `not ready:\n${server.output()}`);
    assert.doesNotMatch(server.output(), /SocketTimeout|SQLITE_BUSY|start-up failed/);

    // Each migration applied, by name, in a JSON line of its own; and each data migration.
    // The log is written in batches (lib/ops/log.ts flushes every 100 ms): ready may come before its last lines.
    for (const until = Date.now() + 5_000; Date.now() < until && !server.output().includes('database upgraded:'); ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const lines = logLines(server.output());
    assert.deepEqual(
      lines.filter((line) => line.migration).map((line) => line.migration),
      [newest],
    );
    const db2 = database(own.url);
    const dataMigrations = (await db2.sql.all<{ name: string }>('SELECT name FROM data_migrations')).map((row) => row.name);
    assert.deepEqual(
      lines.filter((line) => line.data_migration).map((line) => line.data_migration),
      dataMigrations.filter((name) => !dataMigrationsBefore.includes(name)),
    );
    const summary = lines.find((line) => String(line.msg).startsWith('database upgraded:'));
    assert.ok(summary, 'a summary line with the time the upgrade took');
    const recorded = await db2.sql.all<{ migration_name: string }>(
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name',
    );
    assert.deepEqual(
      recorded.map((row) => row.migration_name),
      migrations,
    );

    // Everything from before: the same rows (none lost, no second key set), and they work.
    const after = await counts(db2);
    assert.equal(after.users, before.users, 'no user added or lost (no first admin on a database that has people)');
    assert.equal(after.clients, before.clients + 1, "the same clients, and the portal's, registered at this start");
    assert.equal(after.signingKeys, before.signingKeys, 'the same signing keys');
    assert.ok(after.artifacts >= before.artifacts);

    const introspected = await (await form(`${url}/oauth/introspect`, { token: accessToken }, basic(service.id, serviceSecret!))).json();
    assert.equal(introspected.active, true, `the client-credentials token from before: ${JSON.stringify(introspected)}`);
    const refreshed = await form(`${url}/oauth/token`, { grant_type: 'refresh_token', refresh_token: refreshToken }, basic(app.id, appSecret!));
    const refreshedBody = await refreshed.json();
    assert.equal(refreshed.status, 200, `the refresh token from before: ${JSON.stringify(refreshedBody)}`);
    assert.ok(refreshedBody.access_token && refreshedBody.id_token);

    const { verifier, challenge } = await pkce();
    const query = new URLSearchParams({
      client_id: app.id,
      response_type: 'code',
      redirect_uri: redirectUri,
      scope: 'openid',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    const callback = await authorize(new TestBrowser(url), new URL(`/oauth/authorize?${query}`, url), { username: user.username, password });
    const code = callback.searchParams.get('code');
    assert.ok(code, 'the person from before signs in to the client from before');
    const tokens = await form(
      `${url}/oauth/token`,
      { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: verifier },
      basic(app.id, appSecret!),
    );
    assert.equal(tokens.status, 200);

    t.diagnostic(
      `${kind}: ready (/readyz 200) ${readyMs} ms after npm start's server was spawned; applied ${lines.filter((line) => line.migration).length} migration(s) ` +
        `and ${lines.filter((line) => line.data_migration).length} data migration(s) in ${summary.ms} ms; ` +
        `kept ${after.users} user(s), ${before.clients} client(s), ${before.artifacts} stored artifact(s) and ${after.signingKeys} signing key(s)`,
    );
  } finally {
    const exit = await server.stop();
    assert.equal(exit.code, 0, `the upgraded server stops cleanly:\n${server.output().slice(-2000)}`);
  }
});
