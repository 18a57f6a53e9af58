// Client registration rules (RFC 9700 §2.1, RFC 7591 §2): what a registration may and may not say.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { upsertArtifact } from '../db/artifacts.ts';
import { clientInputFields } from './fields.ts';
import { findClientMetadata } from './repository.ts';
import { testDatabases } from '../db/testing.ts';
import { clientSecretMatches } from '../oidc/client-secret.ts';
import { auditEventsFor } from '../audit/log.ts';
import {
  newClientId,
  disableClient,
  enableClient,
  findClient,
  newClientSchema,
  redirectUriSchema,
  registerClient,
  deleteClient,
  rotateClientSecret,
  searchClients,
  updateClient,
} from './manage.ts';
import { Conflict, InvalidRequest, NotFound } from '../platform/errors.ts';

test('client ids are 128 random bits and never look like a command-line option', () => {
  // One random id in 32 used to start with '-': `gatehouse client disable -abc…` then read it as flags.
  const ids = Array.from({ length: 2000 }, newClientId);
  assert.ok(ids.every((id) => /^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/.test(id)));
  assert.equal(new Set(ids).size, ids.length);
});

test('redirect URIs: https anywhere, http only on loopback, private-use schemes for native apps', () => {
  for (const ok of [
    'https://app.example.com/cb',
    'http://localhost:8080/cb',
    'http://127.0.0.1/cb',
    'http://[::1]:3000/cb',
    'com.example.app:/oauth2redirect',
  ]) {
    assert.ok(redirectUriSchema.safeParse(ok).success, ok);
  }
  for (const bad of [
    'http://example.com/cb',
    'https://app.example.com/cb#frag',
    'https://user:pw@app.example.com/cb',
    'not a url',
    'javascript:alert(1)',
    'http://localhost.evil.com/cb',
  ]) {
    assert.ok(!redirectUriSchema.safeParse(bad).success, bad);
  }
});

test('a public client authenticates with none and cannot use client_credentials', () => {
  const base = { name: 'SPA', type: 'public' as const, redirectUris: ['http://localhost:5173/cb'] };
  assert.ok(newClientSchema.safeParse(base).success);
  assert.ok(!newClientSchema.safeParse({ ...base, tokenEndpointAuthMethod: 'client_secret_basic' }).success);
  assert.ok(!newClientSchema.safeParse({ ...base, grantTypes: ['authorization_code', 'client_credentials'] }).success);
});

test('a confidential client needs a secret-based auth method', () => {
  const base = { name: 'Web', redirectUris: ['https://app.example.com/cb'] };
  assert.equal(newClientSchema.parse(base).type, 'confidential');
  assert.ok(!newClientSchema.safeParse({ ...base, tokenEndpointAuthMethod: 'none' }).success);
});

test('the code grant needs a redirect URI; refresh_token needs the code grant', () => {
  assert.ok(!newClientSchema.safeParse({ name: 'x', grantTypes: ['authorization_code'] }).success);
  assert.ok(!newClientSchema.safeParse({ name: 'x', grantTypes: ['refresh_token', 'client_credentials'] }).success);
  assert.ok(newClientSchema.safeParse({ name: 'x', grantTypes: ['client_credentials'], scopes: ['openid'] }).success);
});

test('only resource servers may have the introspect scope', () => {
  const api = { name: 'API', grantTypes: ['client_credentials' as const], scopes: ['introspect' as const] };
  assert.ok(!newClientSchema.safeParse(api).success);
  assert.ok(newClientSchema.safeParse({ ...api, resourceServer: true }).success);
});

// RFC 7662 §2.1, §4: introspecting others' tokens needs a caller that can authenticate; the
// introspect scope, like admin, must never reach a person's token (lib/oidc/client-policy.ts).
test('only confidential clients can be resource servers', () => {
  const spa = { name: 'SPA', type: 'public' as const, redirectUris: ['http://localhost:5173/cb'], scopes: ['openid' as const], resourceServer: true };
  const refused = newClientSchema.safeParse(spa);
  assert.ok(!refused.success);
  assert.deepEqual(
    refused.error.issues.map((i) => [i.path.join('.'), i.message]),
    [['resourceServer', 'Only confidential clients can be resource servers (a public client has no secret to authenticate with)']],
  );
  assert.ok(newClientSchema.safeParse({ ...spa, type: 'confidential' }).success, 'a confidential API that also signs people in');
});

test("the introspect scope goes with the client_credentials grant alone, never with one that issues a person's token", () => {
  const api = { name: 'API', grantTypes: ['client_credentials' as const], scopes: ['introspect' as const], resourceServer: true };
  assert.ok(newClientSchema.safeParse(api).success);
  for (const grantTypes of [
    ['authorization_code', 'client_credentials'],
    ['authorization_code', 'refresh_token'],
  ] as const) {
    const refused = newClientSchema.safeParse({ ...api, grantTypes, scopes: ['openid', 'introspect'], redirectUris: ['https://a.example/cb'] });
    assert.ok(!refused.success, grantTypes.join());
    assert.deepEqual(
      refused.error.issues.map((i) => [i.path.join('.'), i.message]),
      [['grantTypes', 'A client with the introspect scope uses the client_credentials grant only']],
    );
  }
  // The CLI's `--public --resource-server --scope introspect`: refused on both counts.
  const publicRs = newClientSchema.safeParse({
    name: 'x',
    type: 'public',
    redirectUris: ['http://localhost:5173/cb'],
    scopes: ['openid', 'introspect'],
    resourceServer: true,
  });
  assert.ok(!publicRs.success);
  assert.deepEqual(
    publicRs.error.issues.map((i) => i.path.join('.')),
    ['resourceServer', 'grantTypes'],
  );
});

test('only admin-API clients may have the admin scope, and only with client_credentials', () => {
  const automation = { name: 'Automation', grantTypes: ['client_credentials' as const], scopes: ['admin' as const] };
  const refused = newClientSchema.safeParse(automation);
  assert.ok(!refused.success);
  assert.deepEqual(
    refused.error.issues.map((i) => i.message),
    ['Only admin-API clients may have the admin scope'],
  );
  assert.ok(newClientSchema.safeParse({ ...automation, adminApi: true }).success);
  // A code or refresh grant beside it could carry the scope into a person's token.
  const withCode = newClientSchema.safeParse({
    ...automation,
    adminApi: true,
    grantTypes: ['authorization_code', 'client_credentials'],
    redirectUris: ['https://a.example/cb'],
  });
  assert.ok(!withCode.success);
  assert.deepEqual(
    withCode.error.issues.map((i) => [i.path.join('.'), i.message]),
    [['grantTypes', 'A client with the admin scope uses the client_credentials grant only']],
  );
  // The flag alone changes nothing the provider would hand out.
  assert.equal(newClientSchema.parse({ name: 'x', redirectUris: ['https://a.example/cb'], adminApi: true }).adminApi, true);
});

test("the portal's form names every field of the registration schema, and only those", () => {
  assert.deepEqual(clientInputFields, Object.keys(newClientSchema.shape));
});

test('unknown scopes and grant types are refused', () => {
  const base = { name: 'x', redirectUris: ['https://a.example/cb'] };
  assert.ok(!newClientSchema.safeParse({ ...base, scopes: ['superuser'] }).success);
  assert.ok(!newClientSchema.safeParse({ ...base, grantTypes: ['password'] }).success);
  assert.ok(!newClientSchema.safeParse({ ...base, logoUri: 'http://a.example/logo.png' }).success, 'logo over https only');
});

test('its refusals are in sentence case, as the admin API and the CLI show them after the field', () => {
  const refused = newClientSchema.safeParse({ name: ' ', logoUri: 'http://a.example/logo.png', scopes: [], grantTypes: [], idTokenSignedResponseAlg: 'HS256' });
  assert.ok(!refused.success);
  const messages = refused.error.issues.map((issue) => issue.message);
  assert.equal(messages.length, 5, messages.join('; '));
  for (const message of messages) assert.match(message, /^[A-Z]/);
});

test('the ID token signing algorithm: ES256 unless RS256 is asked for; nothing else', () => {
  const base = { name: 'x', redirectUris: ['https://a.example/cb'] };
  assert.equal(newClientSchema.parse(base).idTokenSignedResponseAlg, 'ES256');
  assert.equal(newClientSchema.parse({ ...base, idTokenSignedResponseAlg: 'RS256' }).idTokenSignedResponseAlg, 'RS256');
  for (const bad of ['HS256', 'none', 'rs256', 'PS256', '']) {
    const result = newClientSchema.safeParse({ ...base, idTokenSignedResponseAlg: bad });
    assert.ok(!result.success, bad);
    assert.deepEqual(
      result.error.issues.map((i) => [i.path.join('.'), i.message]),
      [['idTokenSignedResponseAlg', 'The ID token signing algorithm is one of ES256, RS256']],
    );
  }
});

// The use cases against real storage: SQLite always, PostgreSQL when TEST_DATABASE_URL is set.
for (const storage of testDatabases('clients')) {
  describe(`client use cases on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    const web = { name: 'Web', redirectUris: ['https://app.example.com/cb'] };

    test('rotating a secret returns a new one once; only its hash is stored and the old one stops matching', async () => {
      const db = await storage.open();
      const { client, clientSecret } = await registerClient(db, web);
      const rotated = await rotateClientSecret(db, client.id);
      assert.notEqual(rotated, clientSecret);
      assert.equal(Buffer.from(rotated, 'base64url').length, 32, '256 bits');
      const stored = (await findClientMetadata(db, client.id))?.client_secret;
      assert.ok(clientSecretMatches(stored, rotated));
      assert.ok(!clientSecretMatches(stored, clientSecret));
      assert.ok(!JSON.stringify(await findClient(db, client.id)).includes(rotated));
    });

    test('a public client has no secret to rotate; an unknown client is not_found', async () => {
      const db = await storage.open();
      const { client } = await registerClient(db, { ...web, type: 'public' });
      await assert.rejects(rotateClientSecret(db, client.id), (e: unknown) => e instanceof Conflict && e.message === 'a public client has no secret to rotate');
      await assert.rejects(rotateClientSecret(db, 'nope'), (e: unknown) => e instanceof NotFound);
    });

    test('an edit replaces the registration, keeps the secret, and cannot change the client type', async () => {
      const db = await storage.open();
      const { client, clientSecret } = await registerClient(db, web);
      const updated = await updateClient(db, client.id, {
        name: 'Web 2',
        redirectUris: ['https://app.example.com/cb2', 'http://localhost:8080/cb'],
        grantTypes: ['authorization_code'],
        scopes: ['openid'],
        firstParty: true,
      });
      assert.equal(updated.name, 'Web 2');
      assert.deepEqual(updated.redirectUris, ['https://app.example.com/cb2', 'http://localhost:8080/cb']);
      assert.equal(updated.scope, 'openid');
      assert.equal(updated.firstParty, true);
      assert.ok(clientSecretMatches((await findClientMetadata(db, client.id))?.client_secret, clientSecret));
      await assert.rejects(
        updateClient(db, client.id, { ...web, type: 'public' }),
        (e: unknown) => e instanceof Conflict && e.message === 'a confidential client stays confidential',
      );
      await assert.rejects(updateClient(db, client.id, { ...web, redirectUris: ['http://evil.example/cb'] }), InvalidRequest);
      await assert.rejects(updateClient(db, 'nope', web), (e: unknown) => e instanceof NotFound);
    });

    test("new clients get ES256, or RS256 when asked; an edit without an algorithm keeps the client's own", async () => {
      const db = await storage.open();
      const { client } = await registerClient(db, web);
      assert.equal(client.idTokenSignedResponseAlg, 'ES256');
      assert.equal((await findClientMetadata(db, client.id))?.id_token_signed_response_alg, 'ES256');
      const { client: legacy } = await registerClient(db, { ...web, idTokenSignedResponseAlg: 'RS256' });
      assert.equal((await findClientMetadata(db, legacy.id))?.id_token_signed_response_alg, 'RS256');
      // A relying party that verifies RS256 would break if an unrelated edit switched it.
      assert.equal((await updateClient(db, legacy.id, { ...web, name: 'Legacy renamed' })).idTokenSignedResponseAlg, 'RS256');
      assert.equal((await updateClient(db, legacy.id, { ...web, idTokenSignedResponseAlg: 'ES256' })).idTokenSignedResponseAlg, 'ES256');
      assert.equal((await findClientMetadata(db, legacy.id))?.id_token_signed_response_alg, 'ES256');
      await assert.rejects(updateClient(db, legacy.id, { ...web, idTokenSignedResponseAlg: 'HS256' as 'RS256' }), InvalidRequest);
    });

    test('search matches name or client_id, case-insensitively, one page at a time', async () => {
      const db = await storage.open();
      const tag = randomBytes(4).toString('hex');
      for (let i = 0; i < 5; i++) await registerClient(db, { ...web, name: `Search ${tag.toUpperCase()} ${i}` });
      const first = await searchClients(db, { query: tag, skip: 0, take: 2 });
      assert.equal(first.total, 5);
      assert.equal(first.clients.length, 2);
      const last = await searchClients(db, { query: tag, skip: 4, take: 2 });
      assert.equal(last.clients.length, 1);
      const seen = new Set([...first.clients, ...(await searchClients(db, { query: tag, skip: 2, take: 2 })).clients, ...last.clients].map((c) => c.id));
      assert.equal(seen.size, 5, 'pages do not overlap');
      const byId = await searchClients(db, { query: first.clients[0].id, skip: 0, take: 10 });
      assert.deepEqual(
        byId.clients.map((c) => c.id),
        [first.clients[0].id],
      );
      assert.equal((await searchClients(db, { query: `no-such-${tag}`, skip: 0, take: 10 })).total, 0);
    });

    test('disable revokes what the client holds and hides it from the provider; enable brings it back', async () => {
      const db = await storage.open();
      const { client } = await registerClient(db, web);
      await upsertArtifact(db.sql, 'AccessToken', randomBytes(8).toString('hex'), { clientId: client.id }, Date.now() + 60_000);
      assert.ok(await disableClient(db, client.id));
      assert.equal(await findClientMetadata(db, client.id), undefined);
      assert.equal(Number((await db.sql.one<{ n: unknown }>('SELECT COUNT(*) AS n FROM oidc_model_instances WHERE client_id = ?', [client.id]))?.n), 0);
      assert.ok(await enableClient(db, client.id));
      assert.ok(await findClientMetadata(db, client.id));
    });

    test('each change made `by` someone is in the audit log, never with the secret', async () => {
      const db = await storage.open();
      const by = { actor: { id: 'admin-id', username: 'root' }, context: { ip: '192.0.2.1', userAgent: 'ua' } };
      const { client, clientSecret } = await registerClient(db, web, { by });
      await updateClient(db, client.id, { ...web, name: 'Web renamed', firstParty: true }, by);
      await updateClient(db, client.id, { ...web, name: 'Web renamed', firstParty: true }, by); // no change: no entry
      await updateClient(db, client.id, { ...web, name: 'Web renamed', firstParty: true, idTokenSignedResponseAlg: 'RS256' }, by);
      const rotated = await rotateClientSecret(db, client.id, by);
      await disableClient(db, client.id, by);
      await enableClient(db, client.id, by);
      await deleteClient(db, client.id, by);
      const events = await auditEventsFor(db, { targetType: 'client', targetId: client.id });
      assert.deepEqual(events.map((e) => e.action).reverse(), [
        'client.created',
        'client.updated',
        'client.updated',
        'client.secret_rotated',
        'client.disabled',
        'client.enabled',
        'client.deleted',
      ]);
      assert.deepEqual(events.at(-1)?.details, {
        name: 'Web',
        confidential: true,
        grantTypes: ['authorization_code', 'refresh_token'],
        scopes: ['openid', 'profile', 'email', 'offline_access'],
        redirectUris: ['https://app.example.com/cb'],
        firstParty: false,
        resourceServer: false,
        adminApi: false,
        signingAlg: 'ES256',
      });
      assert.deepEqual(events.at(-2)?.details, { changed: ['name', 'firstParty'] });
      assert.deepEqual(events.at(-3)?.details, { changed: ['idTokenSignedResponseAlg'] });
      assert.deepEqual(events[0].target, { type: 'client', id: client.id, label: 'Web renamed' }, 'a deleted client keeps its name in the log');
      assert.ok(events.every((e) => e.actor?.username === 'root' && e.ip === '192.0.2.1'));
      const text = JSON.stringify(events);
      assert.ok(!text.includes(clientSecret!) && !text.includes(rotated));
      const quiet = await registerClient(db, web);
      await rotateClientSecret(db, quiet.client.id);
      assert.deepEqual(await auditEventsFor(db, { targetId: quiet.client.id }), [], 'no `by`, no entry');
    });
  });
}

describe('protocol features per client (issue 26)', () => {
  const DEVICE = 'urn:ietf:params:oauth:grant-type:device_code' as const;
  const codes = (input: Parameters<typeof newClientSchema.safeParse>[0]) => {
    const result = newClientSchema.safeParse(input);
    return result.success ? [] : result.error.issues.map((issue) => (issue as { params?: { code?: string } }).params?.code ?? issue.message);
  };

  test('a new client has none of them: public subjects, no PAR, JAR or DPoP', () => {
    const parsed = newClientSchema.parse({ name: 'Plain', redirectUris: ['https://app.example/cb'] });
    assert.equal(parsed.subjectType, 'public');
    assert.equal(parsed.requirePushedAuthorizationRequests, false);
    assert.equal(parsed.requestObjectSigningAlg, null);
    assert.equal(parsed.jwks, null);
    assert.equal(parsed.dpopBoundAccessTokens, false);
  });

  test('a device app: the device code grant, refresh tokens with it, no redirect URI needed', () => {
    assert.deepEqual(codes({ name: 'TV', type: 'public', grantTypes: [DEVICE, 'refresh_token'] }), []);
  });

  test('the cross-field rules', () => {
    assert.deepEqual(codes({ name: 'M', grantTypes: ['client_credentials'], scopes: ['openid'], requirePushedAuthorizationRequests: true }), [
      'par_needs_code',
    ]);
    assert.deepEqual(codes({ name: 'J', redirectUris: ['https://a.example/cb'], requestObjectSigningAlg: 'ES256' }), ['request_object_needs_jwks']);
    assert.deepEqual(codes({ name: 'J', redirectUris: ['https://a.example/cb'], requestObjectSigningAlg: 'HS256' as never }).length, 1);
    assert.deepEqual(codes({ name: 'P', redirectUris: ['https://a.example/cb', 'https://b.example/cb'], subjectType: 'pairwise' }), ['sector_needed']);
    assert.deepEqual(codes({ name: 'P', redirectUris: ['https://a.example/cb', 'https://a.example/other'], subjectType: 'pairwise' }), []);
    assert.deepEqual(codes({ name: 'S', redirectUris: ['https://a.example/cb'], sectorIdentifierUri: 'https://a.example/s.json' }), ['sector_needs_pairwise']);
  });

  for (const storage of testDatabases('client-protocol')) {
    test(`the settings reach the provider's metadata only when set (${storage.name})`, {
      skip: storage.url ? false : 'TEST_DATABASE_URL is not set',
    }, async () => {
      const handle = await storage.open();
      {
        const { client: plain } = await registerClient(handle, { name: 'Plain', redirectUris: ['https://a.example/cb'] });
        const plainMetadata = await findClientMetadata(handle, plain.id);
        for (const key of ['require_pushed_authorization_requests', 'request_object_signing_alg', 'jwks', 'dpop_bound_access_tokens', 'subject_type']) {
          assert.ok(!(key in (plainMetadata ?? {})), key);
        }
        const jwks = JSON.stringify({
          keys: [{ kty: 'EC', crv: 'P-256', x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU', y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0' }],
        });
        const { client } = await registerClient(handle, {
          name: 'All',
          redirectUris: ['https://a.example/cb'],
          requirePushedAuthorizationRequests: true,
          requestObjectSigningAlg: 'ES256',
          jwks,
          dpopBoundAccessTokens: true,
          subjectType: 'pairwise',
        });
        const metadata = await findClientMetadata(handle, client.id);
        assert.equal(metadata?.require_pushed_authorization_requests, true);
        assert.equal(metadata?.request_object_signing_alg, 'ES256');
        assert.equal(metadata?.require_signed_request_object, true);
        assert.deepEqual(metadata?.jwks, JSON.parse(jwks));
        assert.equal(metadata?.dpop_bound_access_tokens, true);
        assert.equal(metadata?.subject_type, 'pairwise');
        // An update through the same schema turns them off again.
        const updated = await updateClient(handle, client.id, { name: 'All', redirectUris: ['https://a.example/cb'] });
        assert.equal(updated.subjectType, 'public');
        assert.equal(updated.jwks, null);
      }
    });
  }
});
