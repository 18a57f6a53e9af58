// The permission table: what each admin role may do, and on whose account.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ADMIN_ROLES, may, mayActOn, mayAssign, PERMISSION_NAMES, PERMISSIONS, ROLES, toRole } from './roles.ts';

test('an owner may do everything; no admin role (user) may do nothing', () => {
  for (const permission of PERMISSION_NAMES) {
    assert.equal(may('owner', permission), true, permission);
    assert.equal(may('user', permission), false, permission);
    assert.equal(may(undefined, permission), false, permission);
  }
});

test('an admin may do everything but manage owners', () => {
  for (const permission of PERMISSION_NAMES) assert.equal(may('admin', permission), permission !== 'owners.manage', permission);
});

test('the auditor reads everything, the audit log included, and changes nothing', () => {
  const reads = PERMISSION_NAMES.filter((p) => p.endsWith('.read'));
  assert.deepEqual(reads.sort(), ['access.read', 'audit.read', 'clients.read', 'system.read', 'users.read']);
  for (const permission of PERMISSION_NAMES) assert.equal(may('auditor', permission), reads.includes(permission), permission);
});

test('a user manager: users, unlock, reset factors, invitations; no clients, keys, settings or roles', () => {
  const allowed = ['users.read', 'users.manage', 'users.unlock', 'users.reset_factors', 'users.invite', 'audit.read'];
  for (const permission of PERMISSION_NAMES) assert.equal(may('user_manager', permission), allowed.includes(permission), permission);
});

test('every permission names only admin roles, and every admin role appears in the table', () => {
  for (const roles of Object.values(PERMISSIONS)) for (const role of roles) assert.ok((ADMIN_ROLES as readonly string[]).includes(role));
  for (const role of ADMIN_ROLES)
    assert.ok(
      PERMISSION_NAMES.some((p) => may(role, p)),
      role,
    );
});

test("acting on an account: an owner's only owners, another admin's owners and admins, anyone else's user managers too", () => {
  assert.deepEqual(
    ADMIN_ROLES.filter((actor) => mayActOn(actor, 'owner')),
    ['owner'],
  );
  for (const target of ['admin', 'user_manager', 'auditor'] as const)
    assert.deepEqual(
      ADMIN_ROLES.filter((actor) => mayActOn(actor, target)),
      ['owner', 'admin'],
    );
  assert.deepEqual(
    ADMIN_ROLES.filter((actor) => mayActOn(actor, 'user')),
    ['owner', 'admin', 'user_manager'],
  );
});

test('giving roles: only an owner makes or unmakes owners; admins give the other roles; nobody else gives any', () => {
  for (const to of ROLES) {
    assert.equal(mayAssign('owner', 'user', to), true, `owner: user → ${to}`);
    assert.equal(mayAssign('admin', 'user', to), to !== 'owner', `admin: user → ${to}`);
    assert.equal(mayAssign('user_manager', 'user', to), to === 'user', `user manager: user → ${to}`);
    assert.equal(mayAssign('auditor', 'user', to), false, `auditor: user → ${to}`);
  }
  assert.equal(mayAssign('admin', 'owner', 'admin'), false, 'an admin cannot demote an owner');
  assert.equal(mayAssign('owner', 'owner', 'admin'), true);
  assert.equal(mayAssign('admin', 'auditor', 'user_manager'), true);
});

test('a stored role read back: the known ones as they are, anything else no admin role', () => {
  for (const role of ROLES) assert.equal(toRole(role), role);
  assert.equal(toRole('root'), 'user');
  assert.equal(toRole(''), 'user');
});
