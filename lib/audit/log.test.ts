// The audit log on SQLite and PostgreSQL: what is stored, what is refused, how it is filtered and paged.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test, type TestContext } from 'node:test';
import { auditEventId, insertAuditEvent, listAuditEvents } from './repository.ts';
import type { Database } from '../db/database.ts';
import { testDatabases } from '../db/testing.ts';
import { auditEventsFor, auditLogPage, clientActor, isSecretKey, lastSignIns, recordAudit, sanitizeDetails } from './log.ts';

/** Captures what the handle's log gets at error level while `fn` runs. */
async function errorsLogged(t: TestContext, db: Database, fn: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  t.mock.method(db.log, 'error', (...args: unknown[]) => void lines.push(args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' ')));
  await fn();
  t.mock.restoreAll();
  return lines.join('\n');
}

const tag = () => randomBytes(4).toString('hex');

test('secret-sounding keys are dropped at any depth, in any case style; JWT-looking strings are redacted', () => {
  for (const key of [
    'password',
    'newPassword',
    'client_secret',
    'clientSecret',
    'access-token',
    'refreshToken',
    'code',
    'codeVerifier',
    'passwordHash',
    'Authorization',
    'apiKey',
    'id_token',
  ]) {
    assert.ok(isSecretKey(key), key);
  }
  for (const key of ['clientId', 'username', 'scopes', 'grantId', 'revokedArtifacts', 'redirectUris', 'generated', 'changed']) {
    assert.ok(!isSecretKey(key), key);
  }
  assert.deepEqual(
    sanitizeDetails({ clientId: 'c1', nested: { list: [{ token: 'x', ok: 1 }], secret: 's' }, note: 'eyJhbGciOi.eyJzdWIi.sig', password: 'p' }),
    { clientId: 'c1', nested: { list: [{ ok: 1 }] }, note: '[redacted]' },
  );
});

test('event ids are UUIDv7 and sort in the order they were made, also within one millisecond', () => {
  const now = Date.now();
  const ids = Array.from({ length: 50 }, () => auditEventId(now));
  assert.match(ids[0], /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.deepEqual([...ids].sort(), ids);
  assert.equal(new Set(ids).size, ids.length);
});

for (const storage of testDatabases('audit')) {
  describe(`audit log on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    const open = (): Promise<Database> => storage.open();

    test('an event is stored with who, what, on whom, from where and when', async () => {
      const db = await open();
      const t = tag();
      const before = Date.now();
      await recordAudit(db, {
        action: 'client.created',
        actor: { id: `admin-${t}`, username: `root-${t}` },
        target: { type: 'client', id: `c-${t}`, label: 'Notes' },
        context: { ip: '203.0.113.7', userAgent: 'Mozilla/5.0 test' },
        details: {
          name: 'Notes',
          confidential: true,
          grantTypes: ['authorization_code'],
          scopes: ['openid'],
          redirectUris: ['https://n.example/cb'],
          firstParty: false,
          resourceServer: false,
        },
      });
      const [event] = await auditEventsFor(db, { targetType: 'client', targetId: `c-${t}` });
      assert.equal(event.action, 'client.created');
      assert.deepEqual(event.actor, { id: `admin-${t}`, username: `root-${t}` });
      assert.deepEqual(event.target, { type: 'client', id: `c-${t}`, label: 'Notes' });
      assert.equal(event.ip, '203.0.113.7');
      assert.equal(event.userAgent, 'Mozilla/5.0 test');
      assert.equal(event.details.name, 'Notes');
      assert.deepEqual(event.details.redirectUris, ['https://n.example/cb']);
      assert.ok(event.at instanceof Date && event.at.getTime() >= before - 1000 && event.at.getTime() <= Date.now() + 1000);
    });

    test('the system is an actor of null', async () => {
      const db = await open();
      const t = tag();
      await recordAudit(db, {
        action: 'user.created',
        actor: null,
        target: { type: 'user', id: `u-${t}`, label: `cli-${t}` },
        context: { ip: null, userAgent: 'gatehouse-cli' },
        details: { role: 'user' },
      });
      const [event] = await auditEventsFor(db, { involvingUserId: `u-${t}` });
      assert.equal(event.actor, null);
      assert.equal(event.ip, null);
      assert.equal(event.userAgent, 'gatehouse-cli');
    });

    test('a client acting through the admin API is named client:<id>, with no user id, and found by that name', async () => {
      const db = await open();
      const t = tag();
      await recordAudit(db, {
        action: 'user.disabled',
        actor: clientActor(`bot-${t}`),
        target: { type: 'user', id: `u-${t}`, label: `u-${t}` },
        context: { ip: '192.0.2.1', userAgent: 'curl/8' },
        details: {},
      });
      const [event] = await auditEventsFor(db, { involvingUserId: `u-${t}` });
      assert.deepEqual(event.actor, { id: null, username: `client:bot-${t}` });
      const page = await auditLogPage(db, { actor: `client:bot-${t}` });
      assert.deepEqual(
        page.events.map((e) => e.id),
        [event.id],
      );
    });

    test('details that do not match the action are dropped, not stored; the note names fields, never values', async (t) => {
      const db = await open();
      const id = tag();
      const stderr = await errorsLogged(t, db, () =>
        recordAudit(db, {
          action: 'user.password_changed',
          actor: null,
          target: { type: 'user', id: `u-${id}`, label: 'bob' },
          // The types forbid this; a caller that casts its way past them still cannot store it.
          details: { generated: true, password: 'hunter2-secret-value' } as never,
        }),
      );
      const [event] = await auditEventsFor(db, { targetType: 'user', targetId: `u-${id}` });
      assert.deepEqual(event.details, {});
      assert.match(stderr, /user\.password_changed: details refused \(password\)/);
      assert.doesNotMatch(stderr, /hunter2/);
    });

    test('a failure to write is reported without the details and never thrown', async (t) => {
      const db = await open();
      const broken = {
        ...db,
        sql: {
          ...db.sql,
          kind: db.sql.kind,
          transaction: async () => {
            throw Object.assign(new Error('value: alice@example.com'), { code: 'P2000' });
          },
        },
      } as unknown as Database;
      const stderr = await errorsLogged(t, db, () =>
        recordAudit(broken, { action: 'sign_in.failed', actor: null, details: { username: 'alice@example.com', reason: 'wrong_password' } }),
      );
      assert.match(stderr, /could not record sign_in\.failed: Error P2000/);
      assert.doesNotMatch(stderr, /alice/);
      const unknown = await errorsLogged(t, db, () => recordAudit(db, { action: 'nope' as never, actor: null }));
      assert.match(unknown, /could not record nope/);
    });

    test('filters: action, actor (part of the username, or the id), target (part of the label, or the id), dates; paging newest first', async () => {
      const db = await open();
      const t = tag();
      const day = (d: number, h = 12) => new Date(Date.UTC(2031, 0, d, h));
      const row = (action: string, at: Date, actor: string | null, target: string) => ({
        action,
        at,
        actorId: actor ? `id-${actor}` : null,
        actorUsername: actor,
        targetType: 'client',
        targetId: `${target}-id`,
        targetLabel: target,
        ip: null,
        userAgent: null,
        details: '{}',
      });
      await insertAuditEvent(db, row('client.created', day(1), `Alice-${t}`, `Notes-${t}`));
      await insertAuditEvent(db, row('client.updated', day(2), `alice-${t}`, `Notes-${t}`));
      await insertAuditEvent(db, row('client.deleted', day(3), `bob-${t}`, `Wiki-${t}`));
      await insertAuditEvent(db, row('client.created', day(3, 23), null, `Wiki-${t}`));

      const actions = async (query: Record<string, unknown>) => (await auditLogPage(db, { target: t, ...query })).events.map((e) => e.action);
      assert.deepEqual(await actions({}), ['client.created', 'client.deleted', 'client.updated', 'client.created'], 'newest first');
      assert.deepEqual(await actions({ action: 'client.created' }), ['client.created', 'client.created']);
      assert.deepEqual(await actions({ actor: `ALICE-${t}` }), ['client.updated', 'client.created'], 'username match ignores case');
      assert.deepEqual(await actions({ actor: `id-bob-${t}` }), ['client.deleted'], 'or the exact actor id');
      assert.deepEqual(await actions({ target: `wiki-${t}` }), ['client.created', 'client.deleted']);
      assert.deepEqual(await actions({ target: `Notes-${t}-id` }), ['client.updated', 'client.created'], 'or the exact target id');
      assert.deepEqual(
        await actions({ from: '2031-01-02', to: '2031-01-03' }),
        ['client.created', 'client.deleted', 'client.updated'],
        '`to` is the whole day',
      );
      assert.deepEqual(await actions({ to: '2031-01-01' }), ['client.created']);
      assert.deepEqual(
        await actions({ action: 'not.an.action', from: 'garbage' }),
        ['client.created', 'client.deleted', 'client.updated', 'client.created'],
        'malformed filters are ignored',
      );

      const page2 = await auditLogPage(db, { target: t, page: '2' }, 3);
      assert.deepEqual([page2.total, page2.pageCount, page2.page, page2.first, page2.last], [4, 2, 2, 4, 4]);
      assert.equal(page2.events[0].action, 'client.created');
      assert.equal(page2.events[0].actor?.username, `Alice-${t}`, 'the oldest is last');
      const { total } = await listAuditEvents(db, { actions: ['client.deleted', 'client.updated'], target: t }, { skip: 0, take: 1 });
      assert.equal(total, 2);
    });

    test('lastSignIns: each user’s newest successful sign-in, none for a user without one', async () => {
      const db = await open();
      const [u, v, w] = [`u-${tag()}`, `v-${tag()}`, `w-${tag()}`];
      const signIn = (id: string) => recordAudit(db, { action: 'sign_in.succeeded', actor: { id, username: id }, target: { type: 'user', id, label: id } });
      await signIn(u);
      await new Promise((r) => setTimeout(r, 5));
      await signIn(u);
      await signIn(v);
      await recordAudit(db, { action: 'user.disabled', actor: { id: w, username: w }, target: { type: 'user', id: v, label: v } });
      const found = await lastSignIns(db, [u, v, w]);
      const newest = (await auditEventsFor(db, { actorId: u, actions: ['sign_in.succeeded'] }, 1))[0].at;
      assert.equal(found.get(u)?.getTime(), newest.getTime(), 'the newer of two');
      assert.ok(found.get(v));
      assert.equal(found.has(w), false, 'acting is not signing in');
      assert.equal((await lastSignIns(db, [])).size, 0);
    });

    test('involvingUserId: entries where the user acted or was acted on', async () => {
      const db = await open();
      const u = `u-${tag()}`;
      await recordAudit(db, { action: 'sign_in.succeeded', actor: { id: u, username: 'carol' }, target: { type: 'user', id: u, label: 'carol' } });
      await recordAudit(db, { action: 'user.disabled', actor: { id: 'someone-else', username: 'root' }, target: { type: 'user', id: u, label: 'carol' } });
      await recordAudit(db, {
        action: 'consent.granted',
        actor: { id: u, username: 'carol' },
        target: { type: 'client', id: 'c', label: 'App' },
        details: { clientId: 'c', scopes: ['openid'] },
      });
      await recordAudit(db, { action: 'user.enabled', actor: { id: u, username: 'carol' }, target: { type: 'client', id: u, label: 'not a user' } });
      const events = await auditEventsFor(db, { involvingUserId: u });
      assert.deepEqual(
        events.map((e) => e.action),
        ['user.enabled', 'consent.granted', 'user.disabled', 'sign_in.succeeded'],
      );
      assert.deepEqual((await auditEventsFor(db, { involvingUserId: u, actions: ['user.disabled'] })).length, 1);
    });
  });
}
