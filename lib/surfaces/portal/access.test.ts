// Who gets into the admin portal: decided from the database on every request.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { upsertArtifact } from '../../db/artifacts.ts';
import { setUserDisabled } from '../../users/repository.ts';
import { testDatabases } from '../../db/testing.ts';
import { createUser } from '../../users/manage.ts';
import { adminAccess, enrolmentPath, gatehouseSessionAlive, secondFactorRequiredFor, userAccess } from './access.ts';
import { enrolTestTotp } from '../../account/testing.ts';
import { safeReturnTo } from './return-to.ts';

const storage = testDatabases('portal-access')[0];

describe('adminAccess', () => {
  const person = (role: 'admin' | 'user') =>
    storage.open().then((db) => createUser(db, { username: `${role}-${randomBytes(4).toString('hex')}`, password: 'a long password', role }));

  test('no session is signed_out; an enabled admin is let in with display fields only', async () => {
    const db = await storage.open();
    assert.deepEqual(await adminAccess(db, undefined, 'off'), { kind: 'signed_out' });
    const admin = await person('admin');
    assert.deepEqual(await adminAccess(db, admin.id, 'off'), {
      kind: 'admin',
      admin: { id: admin.id, username: admin.username, name: null, email: null, role: 'admin' },
    });
  });

  test('a user without the admin role, a disabled admin and an unknown sub are forbidden', async () => {
    const db = await storage.open();
    const user = await person('user');
    assert.deepEqual(await adminAccess(db, user.id, 'off'), { kind: 'forbidden' });
    const admin = await person('admin');
    await setUserDisabled(db, admin.id, true);
    assert.deepEqual(await adminAccess(db, admin.id, 'off'), { kind: 'forbidden' }, 'disabling takes effect at the next request');
    assert.deepEqual(await adminAccess(db, 'no-such-user', 'off'), { kind: 'forbidden' });
  });
});

describe('the second-factor policy (SECOND_FACTOR_REQUIRED)', () => {
  test('admins (the default) stops admins only; everyone stops everyone; off stops no one', () => {
    assert.equal(secondFactorRequiredFor('admins', 'admin'), true);
    assert.equal(secondFactorRequiredFor('admins', 'user'), false);
    assert.equal(secondFactorRequiredFor('everyone', 'user'), true);
    assert.equal(secondFactorRequiredFor('off', 'admin'), false);
    assert.equal(enrolmentPath('admins'), '/account/security?required=admin');
    assert.equal(enrolmentPath('everyone'), '/account/security?required=everyone');
  });

  test('an admin without a second factor is sent to enrol, then let in; their /account stays open under admins', async () => {
    const db = await storage.open();
    const admin = await createUser(db, { username: `admin-${randomBytes(4).toString('hex')}`, password: 'a long password', role: 'admin' });
    const shown = { id: admin.id, username: admin.username, name: null, email: null, role: 'admin' as const };
    assert.deepEqual(await adminAccess(db, admin.id, 'admins'), { kind: 'enrol', admin: shown });
    assert.equal((await userAccess(db, admin.id, 'admins')).kind, 'user', '/account/security is where they enrol');
    assert.equal((await userAccess(db, admin.id, 'everyone')).kind, 'enrol');
    await enrolTestTotp(db, { id: admin.id, username: admin.username });
    assert.deepEqual(await adminAccess(db, admin.id, 'admins'), { kind: 'admin', admin: shown });
    assert.equal((await userAccess(db, admin.id, 'everyone')).kind, 'user');

    const user = await createUser(db, { username: `user-${randomBytes(4).toString('hex')}`, password: 'a long password' });
    assert.equal((await userAccess(db, user.id, 'admins')).kind, 'user', 'people without the admin role are not stopped by default');
    assert.equal((await userAccess(db, user.id, 'everyone')).kind, 'enrol');
  });
});

describe('userAccess (/account)', () => {
  test('any enabled user gets in, whatever the role; no session, a disabled user and an unknown sub are signed out', async () => {
    const db = await storage.open();
    assert.deepEqual(await userAccess(db, undefined, 'off'), { kind: 'signed_out' });
    for (const role of ['user', 'admin'] as const) {
      const person = await createUser(db, { username: `${role}-${randomBytes(4).toString('hex')}`, password: 'a long password', role, email: null });
      assert.deepEqual(await userAccess(db, person.id, 'off'), {
        kind: 'user',
        user: { id: person.id, username: person.username, name: null, email: null, role },
      });
      await setUserDisabled(db, person.id, true);
      assert.deepEqual(await userAccess(db, person.id, 'off'), { kind: 'signed_out' });
    }
    assert.deepEqual(await userAccess(db, 'no-such-user', 'off'), { kind: 'signed_out' });
  });

  test('a portal session lives as long as the Gatehouse session it came from, for the same account', async () => {
    const db = await storage.open();
    const uid = randomBytes(8).toString('hex');
    assert.equal(await gatehouseSessionAlive(db, 'sub-1', uid, Date.now()), false, 'no such session');
    await upsertArtifact(db.sql, 'Session', `jti-${uid}`, { uid, accountId: 'sub-1' }, Date.now() + 60_000);
    assert.equal(await gatehouseSessionAlive(db, 'sub-1', uid, Date.now()), true);
    assert.equal(await gatehouseSessionAlive(db, 'sub-2', uid, Date.now()), false, 'another account');
    await upsertArtifact(db.sql, 'Session', `jti-${uid}`, { uid, accountId: 'sub-1' }, Date.now() - 1);
    assert.equal(await gatehouseSessionAlive(db, 'sub-1', uid, Date.now()), false, 'expired');
  });
});

test('after sign-in the browser only goes to an admin page on our own origin', () => {
  const issuer = 'https://id.example.com';
  assert.equal(safeReturnTo('/admin/clients?q=x&page=2', issuer), '/admin/clients?q=x&page=2');
  assert.equal(safeReturnTo('https://id.example.com/admin/clients', issuer), '/admin/clients');
  assert.equal(safeReturnTo('/account', issuer), '/account', 'the account pages share the portal session');
  assert.equal(safeReturnTo('/account/sessions?x=1', issuer), '/account/sessions?x=1');
  for (const elsewhere of [
    undefined,
    '',
    'https://evil.example/admin',
    '//evil.example/admin',
    '/oauth/authorize',
    '/admin/../oauth/token',
    '/administrator',
    '/admin/sign-in',
    '/admin/signed-out',
    '/account/signed-out',
    '/accounts',
    '//evil.example/account',
    'javascript:alert(1)',
  ]) {
    assert.equal(safeReturnTo(elsewhere, issuer), '/admin', String(elsewhere));
  }
});

test('sign-in starts in the area the browser is going back to, each with its own route', async () => {
  const { signInPathFor } = await import('./return-to.ts');
  assert.equal(signInPathFor('/account/sessions'), '/account/sign-in?callbackUrl=%2Faccount%2Fsessions');
  assert.equal(signInPathFor('/admin/clients?q=x'), '/admin/sign-in?callbackUrl=%2Fadmin%2Fclients%3Fq%3Dx');
  assert.equal(safeReturnTo('/account/sign-in', 'https://id.example.com'), '/admin', 'never back to a sign-in route');
});
