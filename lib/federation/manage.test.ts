// Connections and linked identities as admins and people manage them: validation, the sealed secret, the audit
// log, and the rule that the last way into an account cannot be unlinked.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { auditEventsFor, BY_CLI } from '../audit/log.ts';
import { testDatabases } from '../db/testing.ts';
import { Conflict, Forbidden, InvalidRequest } from '../platform/errors.ts';
import { hashPassword } from '../platform/passwords.ts';
import { insertUser } from '../users/repository.ts';
import { createConnection, deleteConnection, listIdentitiesOf, newConnectionSchema, unlinkIdentity, updateConnection } from './manage.ts';
import { findConnectionSecret, insertIdentity, listConnections } from './repository.ts';

const unique = () => randomBytes(4).toString('hex');

test('a connection needs what its kind needs; endpoints are https except on loopback', () => {
  assert.equal(newConnectionSchema.safeParse({ slug: 'a', displayName: 'A', clientId: 'c' }).success, false, 'oidc without an issuer');
  assert.equal(newConnectionSchema.safeParse({ slug: 'a', displayName: 'A', clientId: 'c', issuer: 'http://idp.example' }).success, false, 'plain http');
  assert.equal(newConnectionSchema.safeParse({ slug: 'a', displayName: 'A', clientId: 'c', issuer: 'http://127.0.0.2:4000' }).success, true);
  assert.equal(newConnectionSchema.safeParse({ slug: 'Bad Slug', displayName: 'A', clientId: 'c', issuer: 'https://idp.example' }).success, false);
  const oauth2 = { kind: 'oauth2', slug: 'gh', displayName: 'GitHub', clientId: 'c', authorizationEndpoint: 'https://github.com/login/oauth/authorize' };
  assert.equal(newConnectionSchema.safeParse(oauth2).success, false, 'oauth2 without token and profile endpoints');
  const parsed = newConnectionSchema.parse({ slug: 'a', displayName: 'A', clientId: 'c', issuer: 'https://idp.example' });
  assert.deepEqual(
    [parsed.enabled, parsed.jitCreate, parsed.clientIds, parsed.trustedForMfa, parsed.keepTokens],
    [true, false, [], false, false],
    'safe defaults',
  );
});

for (const storage of testDatabases('federation')) {
  describe(`connections on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('the client secret is sealed at rest and only the token request reads it; changes are audited', async () => {
      const db = await storage.open();
      const secret = randomBytes(24).toString('base64url');
      const slug = `corp-${unique()}`;
      const created = await createConnection(db, { slug, displayName: 'Corp', clientId: 'gh', clientSecret: secret, issuer: 'https://idp.example' }, BY_CLI);
      assert.equal(created.hasClientSecret, true);
      assert.ok(!JSON.stringify(created).includes(secret), 'the record never carries the secret');
      const raw = await db.sql.one<{ client_secret: string }>('SELECT client_secret FROM connections WHERE id = ?', [created.id]);
      assert.ok(raw && !raw.client_secret.includes(secret), 'sealed in the row');
      assert.equal(await findConnectionSecret(db, created.id), secret);
      await assert.rejects(createConnection(db, { slug, displayName: 'Again', clientId: 'x', issuer: 'https://idp.example' }), Conflict);

      await updateConnection(db, slug, { enabled: false, clientIds: ['app-1'] }, BY_CLI);
      await assert.rejects(updateConnection(db, slug, { kind: 'oauth2' }), InvalidRequest, 'the result must still be whole');
      assert.deepEqual((await listConnections(db)).find((c) => c.slug === slug)?.clientIds, ['app-1']);
      await deleteConnection(db, slug, BY_CLI);
      const actions = (await auditEventsFor(db, { targetType: 'connection', targetId: created.id })).map((e) => e.action).sort();
      assert.deepEqual(actions, ['connection.created', 'connection.deleted', 'connection.updated']);
    });

    test('unlinking: never the last way to sign in; with a password or another identity left, it goes and is audited', async () => {
      const db = await storage.open();
      const connection = await createConnection(db, { slug: `u-${unique()}`, displayName: 'U', clientId: 'c', issuer: 'https://idp.example' });
      const link = (userId: string) =>
        insertIdentity(db, { userId, connectionId: connection.id, issuer: 'https://idp.example', subject: unique(), email: null, at: new Date() });

      const onlyFederated = await insertUser(db, { username: `jit-${unique()}`, email: null, name: null, passwordHash: null, role: 'user' });
      const only = await link(onlyFederated.id);
      await assert.rejects(unlinkIdentity(db, onlyFederated.id, only.id, 'self'), Forbidden);
      assert.equal((await listIdentitiesOf(db, onlyFederated.id)).length, 1, 'still linked');
      const second = await link(onlyFederated.id);
      await unlinkIdentity(db, onlyFederated.id, second.id, 'self', BY_CLI);
      await assert.rejects(unlinkIdentity(db, onlyFederated.id, only.id, 'admin'), Forbidden, 'again the last one');

      const withPassword = await insertUser(db, {
        username: `pw-${unique()}`,
        email: null,
        name: null,
        passwordHash: await hashPassword('a long password'),
        role: 'user',
      });
      const theirs = await link(withPassword.id);
      await assert.rejects(unlinkIdentity(db, onlyFederated.id, theirs.id, 'admin'), /no such linked identity/, "only the account's own");
      await unlinkIdentity(db, withPassword.id, theirs.id, 'admin', BY_CLI);
      assert.deepEqual(await listIdentitiesOf(db, withPassword.id), []);
      const unlinked = await auditEventsFor(db, { involvingUserId: withPassword.id, actions: ['identity.unlinked'] });
      assert.equal(unlinked[0]?.details.by, 'admin');
    });
  });
}
