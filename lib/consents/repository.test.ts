// A person's consents, on every database: added to, never lost when two browsers consent at once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { app, person } from '../account/testing.ts';
import { testDatabases } from '../db/testing.ts';
import { addToConsent, deleteConsent, findConsent } from './repository.ts';

for (const storage of testDatabases('consents')) {
  test(`${storage.name}: a consent grows by what is allowed later, and forgets nothing`, {
    skip: storage.url ? false : 'TEST_DATABASE_URL is not set',
  }, async () => {
    const db = await storage.open();
    const { user } = await person(db);
    const client = await app(db);
    await addToConsent(db, user.id, client.id, { scopes: ['openid', 'email'], claims: [] });
    const later = await addToConsent(db, user.id, client.id, { scopes: ['openid', 'profile'], claims: ['nickname'], resources: { 'urn:api': ['read'] } });
    assert.deepEqual([later.scopes, later.claims, later.resources], [['openid', 'email', 'profile'], ['nickname'], { 'urn:api': ['read'] }]);
    assert.deepEqual((await findConsent(db, user.id, client.id))?.scopes, ['openid', 'email', 'profile']);
    assert.equal(await deleteConsent(db, user.id, client.id), true);
    assert.equal(await findConsent(db, user.id, client.id), undefined);
  });

  test(`${storage.name}: consents given at once (the first ones included) all count`, {
    skip: storage.url ? false : 'TEST_DATABASE_URL is not set',
  }, async () => {
    const db = await storage.open();
    const { user } = await person(db);
    const client = await app(db);
    const scopes = ['email', 'profile', 'address', 'phone', 'offline_access', 'groups'];
    await Promise.all(scopes.map((scope) => addToConsent(db, user.id, client.id, { scopes: ['openid', scope], claims: [] })));
    assert.deepEqual((await findConsent(db, user.id, client.id))?.scopes.sort(), ['openid', ...scopes].sort());
  });
}
