// runs-on: databases
// Two instances making their first start together on an empty PostgreSQL schema (a deployment's
// replicas started at once): both serve, the schema is migrated once, and one current signing key per
// algorithm is created, not one per instance (the extra one used to stay in the JWKS for about 65
// minutes, until its retirement). Both publish the same two keys. On the PostgreSQL run of npm start's
// server: SQLite is one process's database.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, test } from 'node:test';
import { closeDatabase, database } from '../../lib/db/database.ts';
import { listSigningKeyInfo } from '../../lib/keys/repository.ts';
import { isolatedDatabase, startServer } from '../support/server.ts';

const own = isolatedDatabase('first-start');
const skip = own.url.startsWith('file:') ? 'runs on the PostgreSQL run' : false;
after(async () => {
  await closeDatabase(own.url);
  await own.drop();
});

test('two instances starting at once on an empty schema create one current key per algorithm, and publish the same JWKS', { skip }, async () => {
  const env = { DATABASE_URL: own.url, ADMIN_PASSWORD: randomBytes(18).toString('base64url'), METRICS_PORT: '' };
  const servers = await Promise.all([1, 2].map(() => startServer(env, { mount: 'server', host: '127.0.0.1', ready: { timeoutMs: 60_000 } })));
  try {
    const keys = await listSigningKeyInfo(database(own.url));
    assert.deepEqual(keys.map((k) => `${k.alg} ${k.state}`).sort(), ['ES256 current', 'RS256 current'], JSON.stringify(keys));
    for (const server of servers) {
      const jwks = (await (await fetch(`${server.url}/oauth/jwks`)).json()) as { keys: { kid: string }[] };
      assert.deepEqual(jwks.keys.map((k) => k.kid).sort(), keys.map((k) => k.kid).sort(), `${server.url} publishes exactly these keys`);
    }
    // The log is written in batches (lib/ops/log.ts flushes every 100 ms).
    const created = () =>
      servers.flatMap((server) =>
        server
          .output()
          .split('\n')
          .filter((line) => line.includes('"signing_key":{"action":"create"')),
      );
    for (const until = Date.now() + 5_000; Date.now() < until && created().length < 2; ) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(created().length, 2, 'each key created is logged once, by the instance that made it');
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
});
