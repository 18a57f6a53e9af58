// What the provider reads of a client: the row mapped to RFC 7591 / OIDC Dynamic Client Registration §2 metadata.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import {
  cachedClientMetadata,
  CLIENT_CACHE_TTL_MS,
  deleteClient,
  findClient,
  findClientMetadata,
  insertClient,
  setClientEnabled,
  setClientSecretHash,
  toClientMetadata,
  updateClient,
  type ClientRow,
  type NewClient,
} from './repository.ts';
import { reportClientPolicyViolations } from './policy-report.ts';
import { testDatabases } from '../db/testing.ts';

const row: ClientRow = {
  id: 'c1',
  name: 'Web',
  secret_hash: null,
  redirect_uris: '["https://app.example/cb"]',
  post_logout_redirect_uris: '[]',
  grant_types: '["authorization_code","refresh_token"]',
  scope: 'openid profile',
  token_endpoint_auth_method: 'none',
  admin_role: 'admin',
  application_type: 'web',
  logo_uri: null,
  first_party: 0,
  resource_server: 1,
  admin_api: false,
  id_token_signed_response_alg: 'ES256',
  require_second_factor: 0,
  backchannel_logout_uri: null,
  backchannel_logout_session_required: 0,
  require_pushed_authorization_requests: 0,
  request_object_signing_alg: null,
  jwks: null,
  dpop_bound_access_tokens: 0,
  subject_type: 'public',
  sector_identifier_uri: null,
};

test('a row becomes the metadata oidc-provider reads, the ID token signing algorithm included', () => {
  const metadata = toClientMetadata(row);
  assert.equal(metadata.id_token_signed_response_alg, 'ES256');
  assert.equal(toClientMetadata({ ...row, id_token_signed_response_alg: 'RS256' }).id_token_signed_response_alg, 'RS256');
  assert.deepEqual(metadata.response_types, ['code']);
  assert.equal(metadata.first_party, false);
  assert.equal('client_secret' in metadata, false, 'a public client has no secret');
  assert.equal(metadata.require_second_factor, false);
  assert.equal(toClientMetadata({ ...row, require_second_factor: 1 }).require_second_factor, true, "SQLite's 1 is true");
  const confidential = { ...row, secret_hash: 'a'.repeat(64), token_endpoint_auth_method: 'client_secret_basic' };
  assert.equal(toClientMetadata(confidential).resource_server, true);
});

// The trust rule (lib/oidc/client-policy.ts) applied to what the provider reads, whatever the row says.
test('a public client is never a resource server; the introspect scope stays only with client_credentials alone', () => {
  assert.equal(toClientMetadata(row).resource_server, false, 'public (no secret, auth method none)');
  assert.equal(toClientMetadata({ ...row, secret_hash: 'a'.repeat(64) }).resource_server, false, 'a secret with auth method none is still public');
  const confidential = { ...row, secret_hash: 'a'.repeat(64), token_endpoint_auth_method: 'client_secret_basic' };
  const api = { ...confidential, grant_types: '["client_credentials"]', scope: 'introspect admin' };
  assert.equal(toClientMetadata(api).scope, 'introspect admin');
  assert.equal(toClientMetadata({ ...api, grant_types: '["authorization_code","client_credentials"]', scope: 'openid introspect' }).scope, 'openid');
  assert.equal(toClientMetadata({ ...api, resource_server: 0 }).scope, 'admin', 'not a resource server: no introspect');
  assert.equal(toClientMetadata({ ...api, secret_hash: null, token_endpoint_auth_method: 'none' }).scope, 'admin', 'public: no introspect');
});

const unique = () => randomBytes(6).toString('hex');

const newClient = (overrides: Partial<NewClient> = {}): NewClient => ({
  id: `c-${unique()}`,
  name: 'Web',
  secretHash: null,
  redirectUris: ['https://app.example/cb'],
  postLogoutRedirectUris: [],
  grantTypes: ['authorization_code'],
  scope: 'openid',
  tokenEndpointAuthMethod: 'none',
  applicationType: 'web',
  logoUri: null,
  firstParty: false,
  resourceServer: false,
  adminApi: false,
  idTokenSignedResponseAlg: 'ES256',
  ...overrides,
});

for (const storage of testDatabases('db-clients')) {
  describe(`client storage on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('the algorithm is stored, read back by the provider and the portal, and replaced by an update', async () => {
      const db = await storage.open();
      const es = await insertClient(db, newClient());
      const rs = await insertClient(db, newClient({ idTokenSignedResponseAlg: 'RS256' }));
      assert.equal(es.idTokenSignedResponseAlg, 'ES256');
      assert.equal((await findClientMetadata(db, es.id))?.id_token_signed_response_alg, 'ES256');
      assert.equal((await findClientMetadata(db, rs.id))?.id_token_signed_response_alg, 'RS256');
      const { id: _id, secretHash: _secretHash, ...fields } = newClient({ idTokenSignedResponseAlg: 'RS256' });
      assert.equal((await updateClient(db, es.id, fields))?.idTokenSignedResponseAlg, 'RS256');
      assert.equal((await findClientMetadata(db, es.id))?.id_token_signed_response_alg, 'RS256');
    });

    test('require_second_factor: false unless set, stored, read back by the provider and the portal, kept by an update without it', async () => {
      const db = await storage.open();
      const plain = await insertClient(db, newClient());
      assert.equal(plain.requireSecondFactor, false);
      assert.equal((await findClientMetadata(db, plain.id))?.require_second_factor, false);
      const strict = await insertClient(db, newClient({ requireSecondFactor: true }));
      assert.equal(strict.requireSecondFactor, true);
      assert.equal((await findClient(db, strict.id))?.requireSecondFactor, true);
      assert.equal((await findClientMetadata(db, strict.id))?.require_second_factor, true);
      const { id: _id, secretHash: _secretHash, ...fields } = newClient({ name: 'Renamed' });
      assert.equal((await updateClient(db, strict.id, fields))?.requireSecondFactor, true, 'left out: unchanged');
      assert.equal((await updateClient(db, strict.id, { ...fields, requireSecondFactor: false }))?.requireSecondFactor, false);
      assert.equal((await findClientMetadata(db, strict.id))?.require_second_factor, false);
    });

    test("the provider's cached read follows every change made here at once, and others' within the TTL", async () => {
      const db = await storage.open();
      const now = Date.now();
      const client = await insertClient(db, newClient({ secretHash: 'a'.repeat(64), tokenEndpointAuthMethod: 'client_secret_basic' }));
      assert.equal((await cachedClientMetadata(db, client.id, now))?.client_secret, 'a'.repeat(64));

      await setClientSecretHash(db, client.id, 'b'.repeat(64));
      assert.equal((await cachedClientMetadata(db, client.id, now))?.client_secret, 'b'.repeat(64), 'a rotated secret applies at once');
      const { id: _id, secretHash: _secretHash, ...fields } = newClient({ name: 'Renamed' });
      await updateClient(db, client.id, fields);
      assert.equal((await cachedClientMetadata(db, client.id, now))?.client_name, 'Renamed');
      await setClientEnabled(db, client.id, false);
      assert.equal(await cachedClientMetadata(db, client.id, now), undefined, 'a disabled client is unknown at once');
      await setClientEnabled(db, client.id, true);
      assert.ok(await cachedClientMetadata(db, client.id, now));

      // A change this code did not make (another worker or instance, the CLI). On SQLite every process on the file
      // hears another connection's commit by data_version before it reads (ReadCache.follow): at once, which
      // another worker relies on. On PostgreSQL the notification arrives by itself: until then, the cached copy
      // inside the TTL, and never past it.
      await cachedClientMetadata(db, client.id, now);
      await db.sql.run('UPDATE clients SET enabled = ? WHERE id = ?', [false, client.id]);
      if (storage.name === 'SQLite') {
        await new Promise((resolve) => setImmediate(resolve));
        assert.equal(await cachedClientMetadata(db, client.id, now + 1), undefined, "another connection's commit, seen at the next read");
      } else assert.ok(await cachedClientMetadata(db, client.id, now + 1), 'still the cached copy inside the TTL');
      assert.equal(await cachedClientMetadata(db, client.id, now + CLIENT_CACHE_TTL_MS + 1), undefined);

      await db.sql.run('UPDATE clients SET enabled = ? WHERE id = ?', [true, client.id]);
      assert.ok(await cachedClientMetadata(db, client.id, now + CLIENT_CACHE_TTL_MS + 2), 'an unknown answer is never kept');
      await deleteClient(db, client.id);
      assert.equal(await cachedClientMetadata(db, client.id, now + CLIENT_CACHE_TTL_MS + 3), undefined, 'a deleted client is unknown at once');
    });

    test('a row written past the schema that breaks the trust rule is reported at start and not honoured', async () => {
      const db = await storage.open();
      const publicRs = await insertClient(db, newClient({ name: 'Public RS', resourceServer: true, scope: 'openid introspect' }));
      const personIntrospect = await insertClient(
        db,
        newClient({
          name: 'Code RS',
          secretHash: 'a'.repeat(64),
          tokenEndpointAuthMethod: 'client_secret_basic',
          resourceServer: true,
          grantTypes: ['authorization_code', 'client_credentials'],
          scope: 'openid introspect',
        }),
      );
      const fine = await insertClient(
        db,
        newClient({
          name: 'Orders API',
          secretHash: 'b'.repeat(64),
          tokenEndpointAuthMethod: 'client_secret_basic',
          resourceServer: true,
          grantTypes: ['client_credentials'],
          redirectUris: [],
          scope: 'introspect',
        }),
      );

      const publicMetadata = await findClientMetadata(db, publicRs.id);
      assert.equal(publicMetadata?.resource_server, false);
      assert.equal(publicMetadata?.scope, 'openid');
      assert.equal((await findClientMetadata(db, personIntrospect.id))?.scope, 'openid');
      assert.equal((await findClientMetadata(db, personIntrospect.id))?.resource_server, true, 'still a resource server by client authentication');
      assert.equal((await findClientMetadata(db, fine.id))?.scope, 'introspect');

      const lines: string[] = [];
      const found = await reportClientPolicyViolations(db, (line) => lines.push(line));
      const mine = new Set([publicRs.id, personIntrospect.id, fine.id]);
      assert.deepEqual(
        found.filter((f) => mine.has(f.client.id)).map((f) => [f.client.id, f.violations]),
        [
          [publicRs.id, ['public_resource_server', 'introspect_with_user_grant']],
          [personIntrospect.id, ['introspect_with_user_grant']],
        ],
      );
      const line = (id: string) => lines.find((l) => l.includes(`client_id ${id}`)) ?? '';
      assert.match(
        line(publicRs.id),
        /"Public RS".*public client marked as a resource server, so it is no longer treated as one.*introspect scope beside the authorization_code grant.*\/admin\/clients\/.*\/edit/,
      );
      assert.match(line(personIntrospect.id), /"Code RS".*no longer granted.*keep client_credentials as its only grant/);
      assert.equal(line(fine.id), '', 'a registration within the rule is not reported');
    });

    test('a row written without the column (a client registered before it existed) is RS256', async () => {
      const db = await storage.open();
      const id = `old-${unique()}`;
      await db.sql.run(
        `INSERT INTO clients (id, name, redirect_uris, grant_types, scope, token_endpoint_auth_method, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, CURRENT_TIMESTAMP)`,
        [id, 'Deployed RP', '["https://old.example/cb"]', '["authorization_code"]', 'openid', 'client_secret_basic'],
      );
      assert.equal((await findClientMetadata(db, id))?.id_token_signed_response_alg, 'RS256');
      assert.equal((await findClient(db, id))?.idTokenSignedResponseAlg, 'RS256');
    });
  });
}
