// The admin portal's own client: created on first start, put back as the portal needs it on every start.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { findClientMetadata } from '../clients/repository.ts';
import type { Database } from '../db/database.ts';
import { keyringOf } from '../db/keyring.ts';
import { insertSigningKey, serverSecret } from '../db/secrets.ts';
import { testDatabases } from '../db/testing.ts';
import { clientSecretMatches } from '../oidc/client-secret.ts';
import { memoryLog } from '../ops/log.ts';
import { ensurePortalClient, prepareSecrets } from './first-start.ts';
import { disableClient, findClient, rotateClientSecret, updateClient } from '../clients/manage.ts';
import { PORTAL_CLIENT_ID, portalRegistration } from '../clients/portal-client.ts';

const quiet = { log: () => undefined };

for (const storage of testDatabases('bootstrap')) {
  describe(`ensurePortalClient on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('registers a first-party confidential client whose secret is the shared server secret, stored hashed', async () => {
      const db = await storage.open();
      await ensurePortalClient(db, { issuer: 'http://localhost:3000', ...quiet });
      const client = await findClient(db, PORTAL_CLIENT_ID);
      assert.ok(client);
      assert.deepEqual(client.redirectUris, ['http://localhost:3000/api/auth/callback/gatehouse']);
      assert.deepEqual(client.postLogoutRedirectUris, ['http://localhost:3000/admin/signed-out', 'http://localhost:3000/account/signed-out']);
      assert.deepEqual(client.grantTypes, ['authorization_code']);
      assert.equal(client.scope, 'openid profile email');
      assert.equal(client.firstParty, true);
      assert.equal(client.confidential, true);
      assert.equal(client.idTokenSignedResponseAlg, 'RS256', 'next-auth 4 verifies RS256 unless configured otherwise');
      const secret = await serverSecret(db, 'portal_client_secret', () => assert.fail('the secret exists already'));
      const stored = (await findClientMetadata(db, PORTAL_CLIENT_ID))?.client_secret;
      assert.notEqual(stored, secret, 'never the secret itself');
      assert.ok(clientSecretMatches(stored, secret));

      const before = await findClient(db, PORTAL_CLIENT_ID);
      await ensurePortalClient(db, { issuer: 'http://localhost:3000', ...quiet });
      assert.deepEqual(await findClient(db, PORTAL_CLIENT_ID), before, 'a second start changes nothing');
    });

    test('is named after the brand, for both areas: renamed when BRAND_NAME changes', async () => {
      const db = await storage.open();
      await ensurePortalClient(db, { issuer: 'http://localhost:3000', ...quiet });
      assert.equal((await findClient(db, PORTAL_CLIENT_ID))?.name, 'Gatehouse account portal');
      await ensurePortalClient(db, { issuer: 'http://localhost:3000', product: 'Acme ID', ...quiet });
      assert.equal((await findClient(db, PORTAL_CLIENT_ID))?.name, 'Acme ID account portal');
    });

    test('follows a new ISSUER, and undoes an edit, a disable and a rotated secret', async () => {
      const db = await storage.open();
      await ensurePortalClient(db, { issuer: 'http://localhost:3000', ...quiet });
      await updateClient(db, PORTAL_CLIENT_ID, {
        ...portalRegistration('http://localhost:3000'),
        redirectUris: ['https://evil.example/cb'],
        firstParty: false,
        idTokenSignedResponseAlg: 'ES256',
      });
      await rotateClientSecret(db, PORTAL_CLIENT_ID);
      await disableClient(db, PORTAL_CLIENT_ID);

      await ensurePortalClient(db, { issuer: 'https://id.example.com', ...quiet });
      const client = await findClient(db, PORTAL_CLIENT_ID);
      assert.deepEqual(client?.redirectUris, ['https://id.example.com/api/auth/callback/gatehouse']);
      assert.deepEqual(client?.postLogoutRedirectUris, ['https://id.example.com/admin/signed-out', 'https://id.example.com/account/signed-out']);
      assert.equal(client?.firstParty, true);
      assert.equal(client?.idTokenSignedResponseAlg, 'RS256');
      assert.equal(client?.enabled, true);
      const secret = await serverSecret(db, 'portal_client_secret', () => assert.fail('the secret exists already'));
      assert.ok(clientSecretMatches((await findClientMetadata(db, PORTAL_CLIENT_ID))?.client_secret, secret));
    });

    test('a plain-http ISSUER off loopback gets no portal client, with a message instead of a crash', async () => {
      const db = await storage.open();
      const lines: string[] = [];
      const before = await findClient(db, PORTAL_CLIENT_ID);
      await ensurePortalClient(db, { issuer: 'http://gatehouse.internal:3000', log: (line) => lines.push(line) });
      assert.match(lines.join('\n'), /needs an https ISSUER/);
      assert.deepEqual(await findClient(db, PORTAL_CLIENT_ID), before);
    });
  });
}

for (const storage of testDatabases('bootstrap-secrets')) {
  describe(`prepareSecrets on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('after a new first key, logs how many secrets each table had re-encrypted; the next start logs nothing', async () => {
      const db = await storage.open();
      const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
      const { log, lines } = memoryLog();
      const under = (keys: Buffer[]): Database => ({
        url: db.url,
        prisma: db.prisma,
        sql: db.sql,
        log,
        keyring: keyringOf(keys),
        cache: db.cache,
        clientMetadata: db.clientMetadata,
      });
      await serverSecret(under([oldKey]), 'a_secret', () => 'value');
      await insertSigningKey(under([oldKey]), { kid: 'old-key', alg: 'ES256', privateJwk: { kty: 'EC', d: 'private' } });

      await prepareSecrets(under([newKey, oldKey]));
      // level 30: pino's info
      assert.deepEqual(
        lines.map(({ level, table, count, msg }) => ({ level, table, count, msg })),
        [
          { level: 30, table: 'signing_keys', count: 1, msg: 'encrypted 1 stored secret in signing_keys under the current secrets key' },
          { level: 30, table: 'server_secrets', count: 1, msg: 'encrypted 1 stored secret in server_secrets under the current secrets key' },
        ],
      );
      lines.length = 0;
      await prepareSecrets(under([newKey]));
      assert.deepEqual(lines, []);
    });
  });
}
