// A person's sessions on SQLite and PostgreSQL: what /account lists, and "sign out everywhere else".
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findArtifactByUid } from '../db/artifacts.ts';
import { testDatabases } from '../db/testing.ts';
import { auditEventsFor, recordAudit } from '../audit/log.ts';
import { activeSessions, endAllSessions, endOneSession, endOtherSessions } from './sessions.ts';
import { app, person, session } from './testing.ts';

/** The default SESSION_TTL (14 days). */
const SESSION_TTL = 14 * 86_400;

for (const storage of testDatabases('account-sessions')) {
  describe(`sessions on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('lists the live sessions of this account only, the current one first, with sign-in and last-use times and app names', async () => {
      const db = await storage.open();
      const { holder } = await person(db);
      const stranger = await person(db);
      const notes = await app(db, 'Notes');
      const older = await session(db, holder.id, { ago: 7200, savedAgo: 600, clients: [notes.id, 'gone-client'] });
      const current = await session(db, holder.id, { ago: 100, savedAgo: 100 });
      await session(db, stranger.holder.id);

      const sessions = await activeSessions(db, { ...holder, sessionUid: current }, SESSION_TTL, Date.now());
      assert.deepEqual(
        sessions.map((s) => [s.uid, s.current]),
        [
          [current, true],
          [older, false],
        ],
      );
      const [, other] = sessions;
      const seconds = (d: Date | null) => Math.round((Date.now() - d!.getTime()) / 1000);
      assert.ok(Math.abs(seconds(other.signedInAt) - 7200) <= 2);
      assert.ok(Math.abs(seconds(other.lastActiveAt) - 600) <= 2, 'last saved = exp - SESSION_TTL');
      assert.ok(other.expiresAt! > new Date());
      assert.deepEqual(other.apps, ['Notes', 'gone-client'], 'a client that no longer exists shows its id');
      assert.ok(!JSON.stringify(sessions).includes('jti-'), "a session's id is its cookie value: never listed");
    });

    test('each session says where it was signed in from: the browser and system, and the address, of its sign-in', async () => {
      const db = await storage.open();
      const { holder } = await person(db);
      const older = await session(db, holder.id, { ago: 7200 });
      const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0';
      const target = { type: 'user' as const, id: holder.id, label: holder.username };
      await recordAudit(db, { action: 'sign_in.succeeded', actor: holder, target, context: { ip: '203.0.113.7', userAgent: firefox }, details: {} });
      const recent = await session(db, holder.id, { ago: 0 });

      const sessions = await activeSessions(db, holder, SESSION_TTL, Date.now());
      const of = (uid: string) => sessions.find((s) => s.uid === uid)!;
      assert.deepEqual([of(recent).browser, of(recent).ip], ['Firefox on Windows', '203.0.113.7']);
      assert.deepEqual([of(older).browser, of(older).ip], [null, null], 'a sign-in the log no longer has (or never had)');
    });

    test('"sign out everywhere else" ends every other session, keeps the current one, and is recorded', async () => {
      const db = await storage.open();
      const { holder, by } = await person(db);
      const stranger = await person(db);
      const current = await session(db, holder.id);
      const others = [await session(db, holder.id), await session(db, holder.id)];
      const theirs = await session(db, stranger.holder.id);

      assert.equal(await endOtherSessions(db, { ...holder, sessionUid: current }, by), 2);
      assert.ok(await findArtifactByUid(db.sql, 'Session', current, Date.now()), 'the current session stays');
      for (const uid of others) assert.equal(await findArtifactByUid(db.sql, 'Session', uid, Date.now()), undefined);
      assert.ok(await findArtifactByUid(db.sql, 'Session', theirs, Date.now()), "someone else's session is not touched");
      const [event] = await auditEventsFor(db, { involvingUserId: holder.id, actions: ['session.ended'] });
      assert.deepEqual(event.details, { count: 2, scope: 'others' });
      assert.deepEqual([event.actor?.id, event.ip, event.userAgent], [holder.id, '203.0.113.7', 'account-test']);

      assert.equal(await endOtherSessions(db, { ...holder, sessionUid: current }, by), 0);
      assert.equal((await auditEventsFor(db, { involvingUserId: holder.id, actions: ['session.ended'] })).length, 1, 'nothing ended, nothing recorded');
    });

    test('without a known current session, every session ends', async () => {
      const db = await storage.open();
      const { holder } = await person(db);
      await session(db, holder.id);
      await session(db, holder.id);
      assert.equal(await endOtherSessions(db, holder), 2);
      assert.deepEqual(await activeSessions(db, holder, SESSION_TTL, Date.now()), []);
    });

    test('an administrator ends every session of a person, the current one too, and it is recorded about them', async () => {
      const db = await storage.open();
      const { holder } = await person(db);
      const admin = await person(db);
      const other = await person(db);
      const uid = await session(db, holder.id);
      await session(db, holder.id);
      const theirs = await session(db, other.holder.id);
      assert.equal(await endAllSessions(db, { ...holder, sessionUid: uid }, admin.by), 2);
      assert.deepEqual(await activeSessions(db, holder, SESSION_TTL, Date.now()), []);
      assert.ok(await findArtifactByUid(db.sql, 'Session', theirs, Date.now()));
      const [event] = await auditEventsFor(db, { involvingUserId: holder.id, actions: ['session.ended'] });
      assert.deepEqual(event.details, { count: 2, scope: 'all' });
      assert.equal(event.actor?.id, admin.user.id);
      assert.equal(await endAllSessions(db, holder, admin.by), 0);
      assert.equal((await auditEventsFor(db, { involvingUserId: holder.id, actions: ['session.ended'] })).length, 1, 'nothing ended, nothing recorded');
    });

    test('one session ends by uid; not the current one, and not anyone else’s', async () => {
      const db = await storage.open();
      const { holder, by } = await person(db);
      const stranger = await person(db);
      const current = await session(db, holder.id);
      const other = await session(db, holder.id);
      const theirs = await session(db, stranger.holder.id);
      const me = { ...holder, sessionUid: current };

      assert.deepEqual(await endOneSession(db, me, current, by), { status: 'current' });
      assert.deepEqual(await endOneSession(db, me, theirs, by), { status: 'not_found' });
      assert.ok(await findArtifactByUid(db.sql, 'Session', theirs, Date.now()));
      assert.deepEqual(await endOneSession(db, me, other, by), { status: 'ended' });
      assert.deepEqual(
        (await activeSessions(db, me, SESSION_TTL, Date.now())).map((s) => s.uid),
        [current],
      );
      const [event] = await auditEventsFor(db, { involvingUserId: holder.id, actions: ['session.ended'] });
      assert.deepEqual(event.details, { count: 1, scope: 'one' });
    });
  });
}
