// User management use cases on SQLite and PostgreSQL: the rules, and what each change leaves in the audit log.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { findArtifact, upsertArtifact } from '../db/artifacts.ts';
import { listSessionsOfAccount } from '../account/repository.ts';
import { addToConsent, listConsents } from '../consents/repository.ts';
import { registerClient } from '../clients/manage.ts';

import { findCredentials, findUserById, findUserByUsername } from './repository.ts';
import { testDatabases } from '../db/testing.ts';
import { auditEventsFor, BY_CLI, type AuditBy } from '../audit/log.ts';
import { verifyPassword } from '../platform/passwords.ts';
import { Conflict, Forbidden, InvalidRequest, NotFound } from '../platform/errors.ts';
import { createThrottle, throttleSettings, type Throttle } from '../platform/throttle.ts';
import { beginTotpEnrolment, confirmTotpEnrolment, twoStepStatus } from '../account/two-step.ts';
import { authenticate } from '../sign-in/authentication.ts';
import { hasSecondFactor } from '../factors/second-step.ts';
import { totpCode } from '../factors/totp.ts';
import { testContext } from '../testing.ts';
import {
  changePassword,
  createUser,
  disableUser,
  enableUser,
  lockOf,
  deleteUser,
  resetSecondFactors,
  searchUsers,
  secondFactorsOf,
  setRole,
  unlockUser,
  updateProfile,
  userIdByUsername,
} from './manage.ts';

const tag = () => randomBytes(4).toString('hex');

/**
 * The default limits, except that the first wrong password locks the account:
 * the lock an admin lifts is the same (throttle.test.ts walks the defaults to it
 * with a mocked clock), without ten failures and their waits first.
 */
const defaults = throttleSettings();
const lockAtOnce = { ...defaults, newBrowsers: { ...defaults.newBrowsers, free: 1, lockAfter: 1, cap: 1 } };

for (const storage of testDatabases('users')) {
  describe(`users on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    let throttle: Throttle | undefined;
    after(() => throttle?.close());
    const admin = async () => {
      const db = await storage.open();
      const user = await createUser(db, { username: `admin-${tag()}`, password: 'a long password', role: 'admin' });
      const by: AuditBy = { actor: { id: user.id, username: user.username }, context: { ip: '198.51.100.1', userAgent: 'test-agent' } };
      return { db, user, by };
    };

    test('creating a user is recorded with who, where and whether the password was generated; without `by`, nothing is', async () => {
      const { db, by } = await admin();
      const quiet = await createUser(db, { username: `quiet-${tag()}`, password: 'a long password' });
      assert.deepEqual(await auditEventsFor(db, { involvingUserId: quiet.id }), []);
      const user = await createUser(db, { username: `new-${tag()}`, email: `n-${tag()}@example.com`, password: 'a long password' }, by, { generated: true });
      const [event] = await auditEventsFor(db, { involvingUserId: user.id });
      assert.equal(event.action, 'user.created');
      assert.deepEqual(event.actor, { id: by.actor!.id, username: by.actor!.username });
      assert.deepEqual(event.target, { type: 'user', id: user.id, label: user.username });
      assert.equal(event.ip, '198.51.100.1');
      assert.deepEqual(event.details, { role: 'user', email: user.email, generated: true });
    });

    test('profile: name and email change, an email taken by someone else is refused, a new email is unverified', async () => {
      const { db, by } = await admin();
      const email = `taken-${tag()}@example.com`;
      await createUser(db, { username: `other-${tag()}`, email, password: 'a long password' });
      const user = await createUser(db, { username: `p-${tag()}`, password: 'a long password' });
      const updated = await updateProfile(db, user.id, { name: '  Pat Doe ', email: `pat-${tag()}@example.com` }, by);
      assert.equal(updated.name, 'Pat Doe');
      assert.equal(updated.emailVerified, false);
      await assert.rejects(updateProfile(db, user.id, { name: 'Pat', email }, by), (e: unknown) => e instanceof Conflict && e.field === 'email');
      await assert.rejects(
        updateProfile(db, user.id, { name: 'Pat', email: 'not-an-email' }, by),
        (e: unknown) => e instanceof InvalidRequest && e.validation !== undefined,
      );
      const cleared = await updateProfile(db, user.id, { name: '', email: '' }, by);
      assert.deepEqual([cleared.name, cleared.email], [null, null], 'empty fields clear the value');
      const events = await auditEventsFor(db, { targetType: 'user', targetId: user.id, actions: ['user.updated'] });
      assert.deepEqual(
        events.map((e) => e.details.changed),
        [
          ['name', 'email'],
          ['name', 'email'],
        ],
      );
    });

    test('the admin role: granted and removed with the change recorded; never removed by its holder', async () => {
      const { db, user: self, by } = await admin();
      const user = await createUser(db, { username: `r-${tag()}`, password: 'a long password' });
      assert.equal((await setRole(db, user.id, 'admin', by)).role, 'admin');
      assert.equal((await setRole(db, user.id, 'user', by)).role, 'user');
      await assert.rejects(setRole(db, self.id, 'user', by), (e: unknown) => e instanceof Forbidden);
      assert.equal((await findUserById(db, self.id))?.role, 'admin');
      const events = await auditEventsFor(db, { targetType: 'user', targetId: user.id, actions: ['user.role_changed'] });
      assert.deepEqual(
        events.map((e) => e.details),
        [
          { from: 'admin', to: 'user' },
          { from: 'user', to: 'admin' },
        ],
      );
    });

    test('admin roles: only an owner makes owners; an admin gives the other roles; the role used is in the log; the last owner stays', async () => {
      const { db } = await admin();
      const owner = await createUser(db, { username: `o-${tag()}`, password: 'a long password', role: 'owner' });
      // This database is shared by the file's tests: the owner made here is its only enabled one.
      await db.prisma.user.updateMany({ where: { role: 'owner', id: { not: owner.id } }, data: { role: 'user' } });
      const byOwner: AuditBy = { actor: { id: owner.id, username: owner.username, role: 'owner' } };
      const helper = await createUser(db, { username: `h-${tag()}`, password: 'a long password', role: 'admin' });
      const byAdmin: AuditBy = { actor: { id: helper.id, username: helper.username, role: 'admin' } };
      const byManager: AuditBy = { actor: { id: `m-${tag()}`, username: 'manager', role: 'user_manager' } };
      const person = await createUser(db, { username: `p-${tag()}`, password: 'a long password' });

      await assert.rejects(setRole(db, person.id, 'owner', byAdmin), (e: unknown) => e instanceof Forbidden, 'an admin cannot make owners');
      await assert.rejects(setRole(db, person.id, 'auditor', byManager), (e: unknown) => e instanceof Forbidden, 'a user manager gives no roles');
      await assert.rejects(
        createUser(db, { username: `x-${tag()}`, password: 'a long password', role: 'admin' }, byManager),
        (e: unknown) => e instanceof Forbidden,
        'nor creates an admin',
      );
      assert.equal((await setRole(db, person.id, 'auditor', byAdmin)).role, 'auditor');
      assert.equal((await setRole(db, person.id, 'user_manager', byAdmin)).role, 'user_manager');
      const [changed] = await auditEventsFor(db, { targetType: 'user', targetId: person.id, actions: ['user.role_changed'] });
      assert.deepEqual(changed.actor, { id: helper.id, username: helper.username, role: 'admin' });
      assert.deepEqual(changed.details, { from: 'auditor', to: 'user_manager' });

      // The last enabled owner: not demoted, disabled or deleted, by anyone (the CLI too).
      await assert.rejects(setRole(db, owner.id, 'admin', BY_CLI), /only owner/);
      await assert.rejects(disableUser(db, owner.id, BY_CLI), /only owner/);
      await assert.rejects(deleteUser(db, owner.id, BY_CLI), /only owner/);
      assert.equal((await setRole(db, person.id, 'owner', byOwner)).role, 'owner', 'an owner makes owners');
      await assert.rejects(setRole(db, person.id, 'admin', byAdmin), (e: unknown) => e instanceof Forbidden, 'an admin cannot demote an owner');
      assert.equal((await setRole(db, owner.id, 'admin', BY_CLI)).role, 'admin', 'with another owner, one may go');
      await assert.rejects(disableUser(db, person.id, BY_CLI), /only owner/);
    });

    test('disabling ends sessions and revokes tokens (counted in the log), not for oneself; enabling is recorded', async () => {
      const { db, user: self, by } = await admin();
      const user = await createUser(db, { username: `d-${tag()}`, password: 'a long password' });
      await upsertArtifact(db.sql, 'Session', `s-${tag()}`, { accountId: user.id }, Date.now() + 60_000);
      const tokenId = `at-${tag()}`;
      await upsertArtifact(db.sql, 'AccessToken', tokenId, { accountId: user.id, clientId: 'c' }, Date.now() + 60_000);
      const { client } = await registerClient(db, { name: `App ${tag()}`, redirectUris: ['https://app.example/cb'] });
      await addToConsent(db, user.id, client.id, { scopes: ['openid'], claims: [] });
      await disableUser(db, user.id, by);
      assert.equal(await findArtifact(db.sql, 'AccessToken', tokenId, Date.now()), undefined);
      assert.deepEqual(await listConsents(db, user.id), [], 'enabled again, the person is asked their consent again');
      await enableUser(db, user.id, by);
      await assert.rejects(disableUser(db, self.id, by), (e: unknown) => e instanceof Forbidden);
      const events = await auditEventsFor(db, { targetType: 'user', targetId: user.id });
      assert.deepEqual(
        events.map((e) => [e.action, e.details]),
        [
          ['user.enabled', {}],
          ['user.disabled', { revokedArtifacts: 2 }],
        ],
      );
    });

    test('deleting ends what the user holds, removes the account and records it pseudonymously; not oneself', async () => {
      const { db, user: self, by } = await admin();
      const user = await createUser(db, { username: `gone-${tag()}`, password: 'a long password' });
      const tokenId = `at-${tag()}`;
      await upsertArtifact(db.sql, 'AccessToken', tokenId, { accountId: user.id, clientId: 'c' }, Date.now() + 60_000);
      assert.equal(await deleteUser(db, user.id, by), true);
      assert.equal(await findUserById(db, user.id), undefined);
      assert.equal(await findArtifact(db.sql, 'AccessToken', tokenId, Date.now()), undefined);
      assert.equal(await deleteUser(db, user.id, by), false, 'already gone: nothing to delete, nothing recorded');
      await assert.rejects(deleteUser(db, self.id, by), (e: unknown) => e instanceof Forbidden);
      assert.ok(await findUserById(db, self.id));
      const events = await auditEventsFor(db, { targetType: 'user', targetId: user.id });
      assert.deepEqual(
        events.map((e) => [e.action, e.target?.label, e.actor?.username, e.details]),
        [['user.deleted', null, self.username, { revokedArtifacts: 1 }]],
      );
    });

    test("an owner's account only an owner deletes, another admin's only an owner or an admin; the CLI may", async () => {
      const { db } = await admin();
      const manager = await createUser(db, { username: `um-${tag()}`, password: 'a long password', role: 'user_manager' });
      const asManager: AuditBy = { actor: { id: manager.id, username: manager.username, role: 'user_manager' } };
      const owner = await createUser(db, { username: `ow-${tag()}`, password: 'a long password', role: 'owner' });
      const other = await createUser(db, { username: `ad-${tag()}`, password: 'a long password', role: 'admin' });
      const person = await createUser(db, { username: `pe-${tag()}`, password: 'a long password' });
      await assert.rejects(deleteUser(db, owner.id, asManager), (e: unknown) => e instanceof Forbidden);
      await assert.rejects(deleteUser(db, other.id, asManager), (e: unknown) => e instanceof Forbidden);
      const asAdmin: AuditBy = { actor: { id: other.id, username: other.username, role: 'admin' } };
      await assert.rejects(deleteUser(db, owner.id, asAdmin), (e: unknown) => e instanceof Forbidden);
      assert.ok(await findUserById(db, owner.id), 'refused: still there');
      assert.equal(await deleteUser(db, person.id, asManager), true);
      assert.equal(await deleteUser(db, other.id, BY_CLI), true);
    });

    test('a password change is recorded without the password; `self` when users change their own', async () => {
      const { db, by } = await admin();
      const user = await createUser(db, { username: `pw-${tag()}`, password: 'a long password' });
      await changePassword(db, user.id, 'another long password', by, { generated: true });
      await changePassword(db, user.id, 'a third long password', { actor: { id: user.id, username: user.username } });
      assert.ok(await verifyPassword((await findCredentials(db, user.username))!.passwordHash!, 'a third long password'));
      const events = await auditEventsFor(db, { targetType: 'user', targetId: user.id });
      assert.deepEqual(
        events.map((e) => e.details),
        [{ self: true }, { generated: true }],
      );
      assert.doesNotMatch(JSON.stringify(events), /long password/);
    });

    test('a password set by anyone ends every session of the person, recorded and counted; the self-service change keeps its own', async () => {
      const { db, by } = await admin();
      const user = await createUser(db, { username: `s-${tag()}`, password: 'a long password' });
      const session = async () => {
        const uid = `uid-${tag()}`;
        await upsertArtifact(db.sql, 'Session', `sess-${tag()}`, { uid, accountId: user.id }, Date.now() + 60_000);
        return uid;
      };
      await Promise.all([session(), session()]);
      const other = await createUser(db, { username: `o-${tag()}`, password: 'a long password' });
      await upsertArtifact(db.sql, 'Session', `sess-${tag()}`, { uid: `uid-${tag()}`, accountId: other.id }, Date.now() + 60_000);

      assert.deepEqual(await changePassword(db, user.id, 'an admin-set password', by, { generated: true }), { endedSessions: 2 });
      assert.deepEqual(await listSessionsOfAccount(db, user.id, Date.now()), []);
      assert.equal((await listSessionsOfAccount(db, other.id, Date.now())).length, 1, "someone else's sessions stay");
      assert.deepEqual(await changePassword(db, user.id, 'a CLI-set password', BY_CLI), { endedSessions: 0 });

      const here = await session();
      await session();
      const self = { actor: { id: user.id, username: user.username } };
      assert.deepEqual(await changePassword(db, user.id, 'my own new password', self, { keepSessionUid: here }), { endedSessions: 1 });
      assert.deepEqual(
        (await listSessionsOfAccount(db, user.id, Date.now())).map((s) => s.uid),
        [here],
      );

      const events = await auditEventsFor(db, { targetType: 'user', targetId: user.id, actions: ['session.ended', 'user.password_changed'] });
      assert.deepEqual(
        events.map((e) => [e.action, e.actor?.username ?? null, e.details]),
        [
          ['session.ended', user.username, { count: 1, scope: 'others' }],
          ['user.password_changed', user.username, { self: true }],
          ['user.password_changed', null, {}],
          ['session.ended', by.actor!.username, { count: 2, scope: 'all' }],
          ['user.password_changed', by.actor!.username, { generated: true }],
        ],
      );
    });

    test('unlocking lifts a lock at once and is recorded; an unlocked user records nothing; an unknown id is NotFound', async () => {
      const { db, by } = await admin();
      throttle ??= createThrottle({ db, settings: lockAtOnce, sweepEveryMs: 0 });
      const user = await createUser(db, { username: `l-${tag()}`, password: 'a long password' });
      const attempt = { account: { id: user.id }, username: user.username, ip: '203.0.113.9' };
      assert.equal(await lockOf(throttle, user.id), null, 'a new user is not locked');
      assert.deepEqual(await unlockUser({ db, throttle }, user.id, by), { user, wasLocked: false });

      assert.deepEqual(await throttle.beforePasswordCheck(attempt), { allowed: true });
      const failure = await throttle.passwordFailed(attempt);
      assert.equal(failure.locked, true);
      const until = await lockOf(throttle, user.id);
      assert.ok(until && until.getTime() > Date.now() + 890_000, `locked for the lock period (${until?.toISOString()})`);
      assert.equal((await throttle.beforePasswordCheck(attempt)).allowed, false, 'locked: even the right password would wait');

      const { wasLocked } = await unlockUser({ db, throttle }, user.id, by);
      assert.equal(wasLocked, true);
      assert.equal(await lockOf(throttle, user.id), null);
      assert.deepEqual(await throttle.beforePasswordCheck(attempt), { allowed: true }, 'unlocked, the next attempt is checked');
      assert.deepEqual((await unlockUser({ db, throttle }, user.id, by)).wasLocked, false, 'nothing left to lift');

      const events = await auditEventsFor(db, { targetType: 'user', targetId: user.id });
      assert.deepEqual(
        events.map((e) => [e.action, e.actor?.username, e.target, e.ip, e.details]),
        [['user.unlocked', by.actor!.username, { type: 'user', id: user.id, label: user.username }, '198.51.100.1', {}]],
        'one entry: the unlock that lifted a lock',
      );
      await assert.rejects(unlockUser({ db, throttle }, `nobody-${tag()}`, by), (e: unknown) => e instanceof NotFound);
    });

    test('an admin sees whether a user has a second step, never its secret; resetting removes it once, recorded once; then the password alone signs in', async () => {
      const { db, by } = await admin();
      const password = 'a long password';
      const user = await createUser(db, { username: `f-${tag()}`, password });
      const holder = { id: user.id, username: user.username };
      const off = { totp: false, since: null, pending: false, passkeys: [], recoveryCodesLeft: 0 };
      assert.deepEqual(await secondFactorsOf(db, user.id), off);
      assert.deepEqual(await resetSecondFactors(db, user.id, by), { user, totp: false, passkeys: 0, recoveryCodes: 0 }, 'nothing to reset');

      const ctx = { ...testContext(db), now: () => Date.now() };
      await beginTotpEnrolment(ctx, holder);
      assert.deepEqual(await secondFactorsOf(db, user.id), { ...off, pending: true }, 'a set-up waiting for its first code');
      const pending = await twoStepStatus(ctx, holder);
      const secret = pending.status === 'pending' ? pending.secret : '';
      const form = new FormData();
      form.append('code', totpCode(secret, Date.now()));
      const confirmed = await confirmTotpEnrolment(ctx, holder, form, { actor: holder });
      assert.equal(confirmed.status, 'codes');
      const recoveryCodes = confirmed.status === 'codes' ? confirmed.recoveryCodes : [];
      assert.equal(await hasSecondFactor(db, user.id), true);

      const view = await secondFactorsOf(db, user.id);
      assert.equal(view.totp, true);
      assert.ok(view.since instanceof Date);
      assert.deepEqual({ ...view, since: null }, { totp: true, since: null, pending: false, passkeys: [], recoveryCodesLeft: 10 });
      const shown = JSON.stringify(view);
      assert.ok(!shown.includes(secret), 'never the secret');
      for (const code of recoveryCodes) assert.ok(!shown.includes(code), 'never a recovery code');

      assert.deepEqual(await resetSecondFactors(db, user.id, by), { user, totp: true, passkeys: 0, recoveryCodes: 10 });
      assert.deepEqual(await secondFactorsOf(db, user.id), off);
      assert.equal(await db.prisma.recoveryCode.count({ where: { userId: user.id } }), 0);
      assert.deepEqual(await resetSecondFactors(db, user.id, by), { user, totp: false, passkeys: 0, recoveryCodes: 0 }, 'nothing left: recorded as nothing');

      const events = await auditEventsFor(db, { targetType: 'user', targetId: user.id, actions: ['factor.reset'] });
      assert.deepEqual(
        events.map((e) => [e.action, e.actor?.username, e.target, e.ip, e.details]),
        [
          [
            'factor.reset',
            by.actor!.username,
            { type: 'user', id: user.id, label: user.username },
            '198.51.100.1',
            { totp: true, passkeys: 0, recoveryCodes: 10 },
          ],
        ],
        'one entry: the reset that removed something',
      );
      assert.equal(await hasSecondFactor(db, user.id), false);
      const signIn = await authenticate(ctx, user.username, password);
      assert.deepEqual(signIn, { ok: true, accountId: user.id, username: user.username }, 'the password alone signs in');
      await assert.rejects(secondFactorsOf(db, `nobody-${tag()}`), (e: unknown) => e instanceof NotFound);
      await assert.rejects(resetSecondFactors(db, `nobody-${tag()}`, by), (e: unknown) => e instanceof NotFound);
    });

    test('usernames are unique regardless of case; lookups ignore case and return the account as spelled', async () => {
      const db = await storage.open();
      const t = tag();
      const alice = await createUser(db, { username: `Alice-${t}`, password: 'a long password' });
      for (const username of [`alice-${t}`, `ALICE-${t}`, ` aLiCe-${t} `]) {
        await assert.rejects(
          createUser(db, { username, password: 'a long password' }),
          (e: unknown) => e instanceof Conflict && e.field === 'username',
          username,
        );
      }
      assert.equal((await findUserByUsername(db, `ALICE-${t}`))?.id, alice.id);
      assert.equal((await findCredentials(db, `alice-${t}`))?.username, `Alice-${t}`);
      await changePassword(db, await userIdByUsername(db, `aLICE-${t}`), 'changed in any case');
      assert.ok(await verifyPassword((await findCredentials(db, alice.username))!.passwordHash!, 'changed in any case'));
      assert.equal((await disableUser(db, await userIdByUsername(db, `alice-${t}`))).id, alice.id);
      assert.equal((await enableUser(db, await userIdByUsername(db, `ALICE-${t}`))).disabled, false);
      await assert.rejects(userIdByUsername(db, `nobody-${t}`), (e: unknown) => e instanceof NotFound);
      await assert.rejects(changePassword(db, `nobody-${t}`, 'a long password'), (e: unknown) => e instanceof NotFound);
    });

    test('search matches username, email or name, ignoring case, with paging', async () => {
      const db = await storage.open();
      const t = tag();
      await createUser(db, { username: `zed-${t}`, password: 'a long password' });
      await createUser(db, { username: `amy-${t}`, email: `AMY-${t}@example.com`, password: 'a long password' });
      await createUser(db, { username: `kim-${t}`, name: `Kim ${t.toUpperCase()}`, password: 'a long password' });
      const { users, total } = await searchUsers(db, { query: t.toUpperCase(), skip: 0, take: 2 });
      assert.equal(total, 3);
      assert.deepEqual(
        users.map((u) => u.username),
        [`kim-${t}`, `amy-${t}`],
        'newest first',
      );
      assert.equal((await searchUsers(db, { query: `amy-${t}@EXAMPLE`, skip: 0, take: 10 })).total, 1);
      assert.ok(!('passwordHash' in users[0]));
    });

    test('search orders by a column either way, usernames regardless of case, no email last', async () => {
      const db = await storage.open();
      const t = tag();
      await createUser(db, { username: `b-${t}`, email: `a-${t}@example.com`, password: 'a long password' });
      await createUser(db, { username: `C-${t}`, password: 'a long password' });
      await createUser(db, { username: `a-${t}`, email: `b-${t}@example.com`, password: 'a long password' });
      const names = async (sort: Parameters<typeof searchUsers>[1]['sort']) =>
        (await searchUsers(db, { query: t, skip: 0, take: 10, sort })).users.map((u) => u.username);
      assert.deepEqual(await names({ column: 'username', direction: 'asc' }), [`a-${t}`, `b-${t}`, `C-${t}`]);
      assert.deepEqual(await names({ column: 'username', direction: 'desc' }), [`C-${t}`, `b-${t}`, `a-${t}`]);
      assert.deepEqual(await names({ column: 'email', direction: 'asc' }), [`b-${t}`, `a-${t}`, `C-${t}`]);
      assert.deepEqual(await names({ column: 'email', direction: 'desc' }), [`a-${t}`, `b-${t}`, `C-${t}`]);
    });
  });
}
