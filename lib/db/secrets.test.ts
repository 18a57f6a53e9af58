// Secrets at rest, on every supported database: sealed on write, sealed in place at start.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import type { Database } from './database.ts';
import { findTotpSecret, insertPendingTotp } from '../factors/repository.ts';
import { type Keyring, keyringOf } from './keyring.ts';
import { insertSigningKey, listActiveSigningKeys, resealSecrets, sealedTables, serverSecret } from './secrets.ts';
import { testDatabases } from './testing.ts';
import { insertUser } from '../users/repository.ts';
import { findConnectionSecret, insertConnection, insertIdentity, touchIdentity } from '../federation/repository.ts';
import { connectionFields } from '../federation/testing.ts';
import { newSigningSecret } from '../webhooks/manage.ts';
import { endpointSecretContext } from '../webhooks/outbox.ts';
import { insertEndpoint } from '../webhooks/repository.ts';

const jwk = () => ({ kty: 'EC', crv: 'P-256', x: 'x', y: 'y', d: randomBytes(32).toString('base64url') });

for (const storage of testDatabases('secrets')) {
  describe(`server secrets on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    const raw = async (db: Database) => [
      ...(await db.sql.all<{ value: string }>('SELECT value FROM server_secrets')).map((r) => r.value),
      ...(await db.sql.all<{ private_jwk: string }>('SELECT private_jwk FROM signing_keys')).map((r) => r.private_jwk),
      ...(await db.sql.all<{ secret: string }>('SELECT secret FROM user_factors')).map((r) => r.secret),
      ...(await db.sql.all<{ client_secret: string }>('SELECT client_secret FROM connections WHERE client_secret IS NOT NULL')).map((r) => r.client_secret),
      ...(await db.sql.all<{ upstream_tokens: string }>('SELECT upstream_tokens FROM federated_identities WHERE upstream_tokens IS NOT NULL')).map(
        (r) => r.upstream_tokens,
      ),
      ...(await db.sql.all<{ secret: string }>('SELECT secret FROM webhook_endpoints')).map((r) => r.secret),
    ];
    const withKeyring = (db: Database, keyring: Keyring): Database => ({
      url: db.url,
      prisma: db.prisma,
      sql: db.sql,
      log: db.log,
      keyring,
      cache: db.cache,
      clientMetadata: db.clientMetadata,
    });
    const total = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);
    const none = Object.fromEntries(sealedTables.map((table) => [table, 0]));

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
      assert.deepEqual(await resealSecrets(db), none, 'nothing to do when everything is current');
    });

    test('a database that held them in clear is sealed in place, and reads the same afterwards', async () => {
      const db = await storage.open();
      const secret = randomBytes(32).toString('base64url');
      const kid = `clear-${randomBytes(4).toString('hex')}`;
      const privateJwk = jwk();
      await db.sql.run('INSERT INTO server_secrets (name, value) VALUES (?, ?)', ['legacy_secret', secret]);
      await db.prisma.signingKey.create({ data: { kid, alg: 'ES256', privateJwk: JSON.stringify(privateJwk) } });
      assert.throws(() => db.keyring.open(secret, 'server_secrets:legacy_secret'), /not encrypted/);

      assert.deepEqual(await resealSecrets(db), { ...none, signing_keys: 1, server_secrets: 1 });
      const stored = (await raw(db)).join('\n');
      assert.ok(!stored.includes(secret) && !stored.includes(privateJwk.d));
      assert.equal(await serverSecret(db, 'legacy_secret', () => assert.fail('exists already')), secret);
      assert.deepEqual((await listActiveSigningKeys(db)).find((k) => k.kid === kid)?.privateJwk, privateJwk);
    });

    test('a value no configured key opens stops the re-sealing, naming its table and never the value, and changes nothing', async () => {
      const db = await storage.open();
      const secret = await serverSecret(db, 'unopenable_secret', () => randomBytes(32).toString('base64url'));
      const before = await raw(db);
      const stranger = withKeyring(db, keyringOf([randomBytes(32)]));
      await assert.rejects(resealSecrets(stranger), (error: Error) => {
        assert.match(error.message, /^cannot re-encrypt signing_keys: .* not among SECRETS_KEY's keys/);
        for (const value of [secret, ...before]) assert.ok(!error.message.includes(value), 'the message holds no stored value');
        return true;
      });
      assert.deepEqual(await raw(db), before, 'nothing was written');
    });

    // Last: from here on the rows are under a key the database's own keyring does not hold.
    test('a new first key: every sealed column is re-sealed under it, once, by instances racing, after which the old key can go', async () => {
      const db = await storage.open();
      const secret = await serverSecret(db, 'rotated_secret', () => randomBytes(32).toString('base64url'));
      const user = await insertUser(db, { username: `totp-${randomBytes(4).toString('hex')}`, email: null, name: null, passwordHash: null, role: 'user' });
      const totp = randomBytes(20).toString('hex');
      assert.ok(await insertPendingTotp(db, user.id, totp));
      const upstreamSecret = randomBytes(24).toString('base64url');
      const connection = await insertConnection(db, { ...connectionFields, slug: `up-${randomBytes(4).toString('hex')}`, clientSecret: upstreamSecret });
      const identity = await insertIdentity(db, {
        userId: user.id,
        connectionId: connection.id,
        issuer: 'https://up.example',
        subject: user.id,
        email: null,
        at: new Date(),
      });
      await touchIdentity(db, identity.id, new Date(), null, { refresh_token: 'kept' });
      const webhookSecret = newSigningSecret();
      await insertEndpoint(
        db,
        `wh-${randomBytes(4).toString('hex')}`,
        { url: 'https://hooks.example/in', description: '', events: ['user.created'], enabled: true },
        webhookSecret,
      );
      const before = await listActiveSigningKeys(db);
      const stale = await raw(db);
      const newKey = randomBytes(32);
      // The database's own keyring stands for the old key; the rotated one lists the new key first.
      const rotated = withKeyring(db, keyringOfBoth(newKey, db.keyring));
      // Two instances starting at once: each row is re-sealed by one of them only.
      const [first, second] = await Promise.all([resealSecrets(rotated), resealSecrets(rotated)]);
      assert.equal(total(first) + total(second), stale.length, 'each row written once');
      for (const table of sealedTables) assert.ok(first[table] + second[table] >= 1, `${table} re-sealed`);
      assert.deepEqual(await resealSecrets(rotated), none, 'a second start finds nothing to do');

      const onlyNew = withKeyring(db, keyringOf([newKey]));
      for (const value of await raw(db)) assert.ok(onlyNew.keyring.isCurrent(value), 'every row is under the new key');
      assert.equal(await serverSecret(onlyNew, 'rotated_secret', () => assert.fail('exists already')), secret);
      assert.deepEqual(await listActiveSigningKeys(onlyNew), before);
      assert.equal((await findTotpSecret(onlyNew, user.id))?.secret, totp);
      assert.equal(await findConnectionSecret(onlyNew, connection.id), upstreamSecret);
      const [endpoint] = await onlyNew.prisma.webhookEndpoint.findMany({ select: { id: true, secret: true } });
      assert.equal(onlyNew.keyring.open(endpoint.secret, endpointSecretContext(endpoint.id)), webhookSecret);
    });
  });
}

/** A keyring that seals under `newKey` and opens what either it or `old` sealed. */
function keyringOfBoth(newKey: Buffer, old: Keyring): Keyring {
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
