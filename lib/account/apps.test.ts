// A person's connected apps on SQLite and PostgreSQL: what /account lists, and revoking one.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findArtifact, findArtifactByUid } from '../db/artifacts.ts';
import { testDatabases } from '../db/testing.ts';
import { auditEventsFor } from '../audit/log.ts';
import { ensurePortalClient } from '../start/first-start.ts';
import { PORTAL_CLIENT_ID } from '../clients/portal-client.ts';
import { connectedApps, revokeAppOfUser, revokeConnectedApp } from './apps.ts';
import { clientActor } from '../audit/log.ts';
import { app, grant, person, session, token } from './testing.ts';
import { addToConsent, findConsent } from '../consents/repository.ts';

for (const storage of testDatabases('account-apps')) {
  describe(`connected apps on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('one entry per client: the scopes of all its grants, when first granted, when it last got a token; the portal last', async () => {
      const db = await storage.open();
      await ensurePortalClient(db, { issuer: 'http://localhost:3000', log: () => undefined });
      const { holder } = await person(db);
      const stranger = await person(db);
      const notes = await app(db, 'Notes');
      const tasks = await app(db, 'Tasks');
      const first = await grant(db, holder.id, notes.id, 'openid profile', { ago: 86_400 });
      await grant(db, holder.id, notes.id, 'openid email', { ago: 3600 });
      await token(db, 'RefreshToken', first, holder.id, notes.id, { ago: 5000 });
      await token(db, 'AccessToken', first, holder.id, notes.id, { ago: 120 });
      await grant(db, holder.id, tasks.id, 'openid', { ago: 7200 });
      await grant(db, holder.id, PORTAL_CLIENT_ID, 'openid profile email', { ago: 10 });
      await grant(db, stranger.holder.id, notes.id, 'openid');

      const apps = await connectedApps(db, holder, Date.now());
      assert.deepEqual(
        apps.map((a) => [a.name, a.portal]),
        [
          ['Notes', false],
          ['Tasks', false],
          ['Gatehouse account portal', true],
        ],
      );
      const [notesApp, tasksApp] = apps;
      assert.deepEqual(notesApp.scopes, ['openid', 'profile', 'email']);
      const ago = (d: Date | null) => Math.round((Date.now() - d!.getTime()) / 1000);
      assert.ok(Math.abs(ago(notesApp.grantedAt) - 86_400) <= 2, 'the oldest grant');
      assert.ok(Math.abs(ago(notesApp.lastUsedAt) - 120) <= 2, 'the newest token');
      assert.equal(tasksApp.lastUsedAt, null, 'no token yet');
    });

    test('revoking an app removes its grants, codes and tokens for this person only, and is recorded', async () => {
      const db = await storage.open();
      const { holder, by } = await person(db);
      const stranger = await person(db);
      const notes = await app(db, 'Notes');
      const tasks = await app(db, 'Tasks');
      const uid = await session(db, holder.id, { clients: [notes.id] });
      const notesGrant = await grant(db, holder.id, notes.id, 'openid');
      const access = await token(db, 'AccessToken', notesGrant, holder.id, notes.id, { sessionUid: uid });
      const refresh = await token(db, 'RefreshToken', notesGrant, holder.id, notes.id);
      const tasksGrant = await grant(db, holder.id, tasks.id, 'openid');
      const tasksToken = await token(db, 'AccessToken', tasksGrant, holder.id, tasks.id);
      const theirGrant = await grant(db, stranger.holder.id, notes.id, 'openid');
      const theirToken = await token(db, 'AccessToken', theirGrant, stranger.holder.id, notes.id);

      assert.deepEqual(await revokeConnectedApp(db, holder, notes.id, by), { status: 'revoked', name: 'Notes' });
      for (const [model, id] of [
        ['Grant', notesGrant],
        ['AccessToken', access],
        ['RefreshToken', refresh],
      ]) {
        assert.equal(await findArtifact(db.sql, model, id, Date.now()), undefined, `${model} revoked`);
      }
      assert.ok(await findArtifact(db.sql, 'AccessToken', tasksToken, Date.now()), 'another app keeps its tokens');
      assert.ok(await findArtifact(db.sql, 'AccessToken', theirToken, Date.now()), "another person's tokens for the same app stay");
      assert.ok(await findArtifactByUid(db.sql, 'Session', uid, Date.now()), 'the session is the person’s, not the app’s: it stays');
      assert.deepEqual(
        (await connectedApps(db, holder, Date.now())).map((a) => a.name),
        ['Tasks'],
      );

      const [event] = await auditEventsFor(db, { involvingUserId: holder.id, actions: ['consent.revoked'] });
      assert.deepEqual(event.target, { type: 'client', id: notes.id, label: 'Notes' });
      assert.deepEqual(event.details, { clientId: notes.id, clientName: 'Notes', accountId: holder.id, grantId: notesGrant });
      assert.equal(event.ip, '203.0.113.7');

      assert.deepEqual(await revokeConnectedApp(db, holder, notes.id, by), { status: 'not_found' }, 'nothing left to revoke');
      assert.deepEqual(await revokeConnectedApp(db, holder, '', by), { status: 'not_found' });
    });

    test('revoked by an administrator, it is recorded about the person, as done by the administrator', async () => {
      const db = await storage.open();
      const { holder } = await person(db);
      const notes = await app(db, 'Notes');
      const notesGrant = await grant(db, holder.id, notes.id, 'openid');
      const by = { actor: clientActor('automation'), context: { ip: '192.0.2.9', userAgent: 'admin-api-test' } };
      assert.deepEqual(await revokeAppOfUser(db, holder, notes.id, by), { status: 'revoked', name: 'Notes' });
      assert.equal(await findArtifact(db.sql, 'Grant', notesGrant, Date.now()), undefined);
      const events = await auditEventsFor(db, { involvingUserId: holder.id, actions: ['consent.revoked'] });
      assert.equal(events.length, 1, 'once, about the person');
      assert.deepEqual(events[0].target, { type: 'user', id: holder.id, label: holder.username });
      assert.deepEqual(events[0].actor, { id: null, username: 'client:automation' });
      assert.deepEqual(events[0].details, { clientId: notes.id, clientName: 'Notes', accountId: holder.id });
      assert.equal((await revokeAppOfUser(db, holder, PORTAL_CLIENT_ID, by)).status, 'refused');
      assert.deepEqual(await revokeAppOfUser(db, holder, notes.id, by), { status: 'not_found' });
    });

    test('a consent outlives its grants: the app stays listed until revoked, which forgets the consent', async () => {
      const db = await storage.open();
      const { holder, by } = await person(db);
      const notes = await app(db, 'Notes');
      await addToConsent(db, holder.id, notes.id, { scopes: ['openid', 'profile'], claims: [] });
      await addToConsent(db, holder.id, notes.id, { scopes: ['openid', 'email'], claims: ['nickname'] });
      const consent = await findConsent(db, holder.id, notes.id);
      assert.deepEqual([consent?.scopes, consent?.claims], [['openid', 'profile', 'email'], ['nickname']], 'what was allowed later is added');

      const [listed] = await connectedApps(db, holder, Date.now());
      assert.deepEqual([listed.name, listed.scopes, listed.lastUsedAt], ['Notes', ['openid', 'profile', 'email'], null], 'no grant, still connected');
      assert.deepEqual(await revokeConnectedApp(db, holder, notes.id, by), { status: 'revoked', name: 'Notes' });
      assert.equal(await findConsent(db, holder.id, notes.id), undefined);
      assert.deepEqual(await connectedApps(db, holder, Date.now()), []);
      const [event] = await auditEventsFor(db, { involvingUserId: holder.id, actions: ['consent.revoked'] });
      assert.deepEqual(event.details, { clientId: notes.id, clientName: 'Notes', accountId: holder.id });
    });

    test('the portal is listed but not revocable from itself', async () => {
      const db = await storage.open();
      const { holder, by } = await person(db);
      const portalGrant = await grant(db, holder.id, PORTAL_CLIENT_ID, 'openid');
      const result = await revokeConnectedApp(db, holder, PORTAL_CLIENT_ID, by);
      assert.equal(result.status, 'refused');
      assert.ok(await findArtifact(db.sql, 'Grant', portalGrant, Date.now()));
      assert.deepEqual(await auditEventsFor(db, { involvingUserId: holder.id, actions: ['consent.revoked'] }), []);
    });
  });
}
