// A person's own data and deleting their own account, on SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { listSessionsOfAccount } from '../account/repository.ts';
import { auditEventsFor, BY_CLI, type AuditBy } from '../audit/log.ts';
import { createGroup, addToGroup } from '../authorization/manage.ts';
import { upsertArtifact } from '../db/artifacts.ts';
import { testDatabases } from '../db/testing.ts';
import { testContext } from '../testing.ts';
import { createUser, setRole } from './manage.ts';
import { deleteOwnAccount, ownData } from './own-account.ts';
import { findUserById } from './repository.ts';

const tag = () => randomBytes(4).toString('hex');
const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
};

for (const storage of testDatabases('own-account')) {
  describe(`own account on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('the download holds the profile, groups and audit entries, never a hash', async () => {
      const db = await storage.open();
      const t = tag();
      const user = await createUser(db, { username: `mine-${t}`, email: `mine-${t}@example.com`, name: 'Mine', password: 'my own password' }, BY_CLI);
      await createGroup(db, { name: `readers-${t}` });
      await addToGroup(db, `readers-${t}`, { id: user.id }, { actor: null });
      const data = await ownData(db, user, 3600, Date.now());
      assert.deepEqual(
        { ...data!.profile, created_at: null, updated_at: null },
        {
          sub: user.id,
          username: user.username,
          name: 'Mine',
          email: `mine-${t}@example.com`,
          email_verified: false,
          has_password: true,
          role: 'user',
          created_at: null,
          updated_at: null,
        },
      );
      assert.deepEqual(data!.groups, [`readers-${t}`]);
      assert.ok(data!.audit_entries.some((e) => e.action === 'user.created'));
      assert.deepEqual(data!.second_factors, { authenticator_app: null, passkeys: [], recovery_codes_left: 0 });
      assert.doesNotMatch(JSON.stringify(data), /argon2|password_hash|passwordHash/);
    });

    test('deleting one’s own account needs the password and the box; it ends the sessions and leaves a pseudonymous entry', async () => {
      const db = await storage.open();
      const ctx = { ...testContext(db), now: Date.now, selfDelete: true };
      const t = tag();
      const user = await createUser(db, { username: `leaving-${t}`, password: 'my own password' });
      const holder = { id: user.id, username: user.username };
      const by: AuditBy = { actor: holder, context: { ip: '203.0.113.9', userAgent: 'test' } };
      const uid = `uid-${t}`;
      await upsertArtifact(db.sql, 'Session', `session-${t}`, { accountId: user.id, uid, loginTs: Math.floor(Date.now() / 1000) }, Date.now() + 60_000);
      assert.equal((await listSessionsOfAccount(db, user.id, Date.now())).length, 1);

      const unticked = await deleteOwnAccount(ctx, holder, form({ currentPassword: 'my own password' }), by);
      assert.deepEqual(unticked, { status: 'invalid', errors: { confirm: [{ code: 'unconfirmed' }] } });
      const wrong = await deleteOwnAccount(ctx, holder, form({ currentPassword: 'not my password', confirm: 'on' }), by);
      assert.equal(wrong.status, 'invalid');
      assert.deepEqual(wrong.status === 'invalid' && wrong.errors.currentPassword, [{ code: 'wrong_password' }]);
      assert.ok(await findUserById(db, user.id), 'still there');

      assert.deepEqual(await deleteOwnAccount(ctx, holder, form({ currentPassword: 'my own password', confirm: 'on' }), by), { status: 'deleted' });
      assert.equal(await findUserById(db, user.id), undefined);
      assert.equal((await listSessionsOfAccount(db, user.id, Date.now())).length, 0, 'the session ended');
      const [entry] = await auditEventsFor(db, { targetId: user.id, actions: ['user.deleted'] });
      assert.deepEqual([entry.actor?.username, entry.target?.label, entry.details], ['deleted account', null, { revokedArtifacts: 1, self: true }]);
    });

    test('with ACCOUNT_SELF_DELETE=off a person cannot delete their own account, even with the password and the box', async () => {
      const db = await storage.open();
      const ctx = { ...testContext(db), now: Date.now, selfDelete: false };
      const user = await createUser(db, { username: `staying-${tag()}`, password: 'my own password' });
      const answer = await deleteOwnAccount(ctx, user, form({ currentPassword: 'my own password', confirm: 'on' }));
      assert.deepEqual(answer, { status: 'refused', reason: 'turned_off' });
      assert.ok(await findUserById(db, user.id), 'still there');
      assert.deepEqual(await auditEventsFor(db, { targetId: user.id, actions: ['user.deleted'] }), []);
    });

    test('the last owner cannot delete themselves; an owner among others can', async () => {
      const db = await storage.open();
      const ctx = { ...testContext(db), now: Date.now, selfDelete: true };
      const t = tag();
      // Any owners the other tests made are demoted first, so this one is the last.
      await db.prisma.user.updateMany({ where: { role: 'owner' }, data: { role: 'admin' } });
      const owner = await createUser(db, { username: `owner-${t}`, password: 'owner password', role: 'owner' });
      const answer = await deleteOwnAccount(ctx, owner, form({ currentPassword: 'owner password', confirm: 'on' }));
      assert.deepEqual(answer, { status: 'refused', reason: 'only_owner' });
      const second = await createUser(db, { username: `second-${t}`, password: 'second password' });
      await setRole(db, second.id, 'owner');
      assert.deepEqual(await deleteOwnAccount(ctx, owner, form({ currentPassword: 'owner password', confirm: 'on' })), { status: 'deleted' });
    });
  });
}
