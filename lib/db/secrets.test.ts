// Secrets at rest, on every supported database: sealed on write, sealed in place at start.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Database } from './database.ts';
import { keyringOf } from './keyring.ts';
import { insertSigningKey, listActiveSigningKeys, resealSecrets, serverSecret } from './secrets.ts';
import { testDatabases } from './testing.ts';

const jwk = () => ({ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: randomBytes(32).toString('base64url') });

for (const storage of testDatabases('secrets')) {
  describe(`server secrets on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    const raw = async (db: Database) => [
      ...(await db.sql.all<{ value: string }>('SELECT value FROM server_secrets')).map((r) => r.value),
      ...(await db.sql.all<{ private_jwk: string }>('SELECT private_jwk FROM signing_keys')).map((r) => r.private_jwk),
    ];

    test('written sealed: the rows hold neither the secret nor the private key', async () => {
      const db = await storage.open();
      const secret = randomBytes(32).toString('base64url');
      assert.equal(await serverSecret(db, 'test_secret', () => secret), secret);
      assert.equal(await serverSecret(db, 'test_secret', () => assert.fail('exists already')), secret);
      const key = { kid: `k-${randomBytes(4).toString('hex')}`, alg: 'ES256', privateJwk: jwk() };
      await insertSigningKey(db, key);
      assert.deepEqual((await listActiveSigningKeys(db)).find((k) => k.kid === key.kid)?.privateJwk, key.privateJwk);
      const stored = (await raw(db)).join('\n');
      assert.ok(!stored.includes(secret));
      assert.ok(!stored.includes(key.privateJwk.d));
      assert.equal(await resealSecrets(db), 0, 'nothing to do when everything is current');
    });

    test('a database that held them in clear is sealed in place, and reads the same afterwards', async () => {
      const db = await storage.open();
      const secret = randomBytes(32).toString('base64url');
      const kid = `clear-${randomBytes(4).toString('hex')}`;
      const privateJwk = jwk();
      await db.sql.run('INSERT INTO server_secrets (name, value) VALUES (?, ?)', ['legacy_secret', secret]);
      await db.prisma.signingKey.create({ data: { kid, alg: 'ES256', privateJwk: JSON.stringify(privateJwk) } });
      assert.throws(() => db.keyring.open(secret, 'server_secrets:legacy_secret'), /not encrypted/);

      assert.equal(await resealSecrets(db), 2);
      const stored = (await raw(db)).join('\n');
      assert.ok(!stored.includes(secret) && !stored.includes(privateJwk.d));
      assert.equal(await serverSecret(db, 'legacy_secret', () => assert.fail('exists already')), secret);
      assert.deepEqual((await listActiveSigningKeys(db)).find((k) => k.kid === kid)?.privateJwk, privateJwk);
    });

    test('a new first key: everything is re-sealed under it, after which the old key can go', async () => {
      const db = await storage.open();
      const secret = await serverSecret(db, 'rotated_secret', () => randomBytes(32).toString('base64url'));
      const before = await listActiveSigningKeys(db);
      const newKey = randomBytes(32);
      // The database's own keyring stands for the old key; the rotated one lists the new key first.
      const oldKeyring = db.keyring;
      const rotated: Database = { url: db.url, prisma: db.prisma, sql: db.sql, log: db.log, keyring: keyringOfBoth(newKey, oldKeyring) };
      assert.ok((await resealSecrets(rotated)) >= 2);
      const onlyNew: Database = { url: db.url, prisma: db.prisma, sql: db.sql, log: db.log, keyring: keyringOf([newKey]) };
      assert.equal(await serverSecret(onlyNew, 'rotated_secret', () => assert.fail('exists already')), secret);
      assert.deepEqual(await listActiveSigningKeys(onlyNew), before);
      for (const value of await raw(db)) assert.ok(onlyNew.keyring.isCurrent(value), 'every row is under the new key');
    });
  });
}

/** A keyring that seals under `newKey` and opens what either it or `old` sealed. */
function keyringOfBoth(newKey: Buffer, old: Database['keyring']): Database['keyring'] {
  const fresh = keyringOf([newKey]);
  return {
    seal: fresh.seal,
    isCurrent: fresh.isCurrent,
    open: (sealed, context) => {
      try {
        return fresh.open(sealed, context);
      } catch {
        return old.open(sealed, context);
      }
    },
  };
}
