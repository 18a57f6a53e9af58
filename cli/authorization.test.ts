/**
 * `gatehouse api | group | role`, black-box: the real CLI in a child process on a temporary
 * SQLite database; every change lands in the audit log, bad input exits 2, unknown names 1.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { closeDatabase, database } from '../lib/db/database.ts';
import { migrate } from '../lib/db/migrate.ts';
import { accessOf, permissionsGranted } from '../lib/authorization/repository.ts';
import { createUser } from '../lib/users/manage.ts';
import { cliRunner, failure, ok } from './testing.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cli-authz-'));
const url = `file:${path.join(dir, 'gatehouse.db')}`;
const gatehouse = cliRunner(url);
const json = async (args: string[]) => JSON.parse(ok(await gatehouse([...args, '--json'])).stdout);
const API = 'https://orders.example.test/';

before(async () => {
  await migrate(url);
  await createUser(database(url), { username: 'alice', password: 'correct horse battery', email: null, name: 'Alice', role: 'user' });
});
after(async () => {
  await closeDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

test('an API, a role granting one of its permissions, a group holding the role, a member: the member has the permission', async () => {
  const api = await json([
    'api',
    'create',
    API,
    '--name',
    'Orders',
    '--permission',
    'orders:read=Read your orders',
    '--permission',
    'orders:write',
    '--lifetime',
    '120',
  ]);
  assert.deepEqual(api.permissions, [
    { name: 'orders:read', description: 'Read your orders' },
    { name: 'orders:write', description: '' },
  ]);
  assert.equal(api.token_format, 'jwt');
  assert.equal(api.token_lifetime, 120);
  await json(['role', 'create', 'order-reader', '--description', 'Reads orders']);
  const role = await json(['role', 'permit', 'order-reader', API, 'orders:read']);
  assert.deepEqual(role.permissions, [{ api: API, permission: 'orders:read' }]);
  await json(['group', 'create', 'staff']);
  await json(['role', 'assign', 'order-reader', '--group', 'staff']);
  await json(['group', 'add', 'staff', 'alice']);

  const db = database(url);
  const alice = (await db.prisma.user.findUnique({ where: { username: 'alice' } }))!;
  assert.deepEqual(await accessOf(db, alice.id), { groups: ['staff'], roles: ['order-reader'] });
  const apiRow = (await db.prisma.api.findUnique({ where: { identifier: API } }))!;
  assert.deepEqual(await permissionsGranted(db, apiRow.id, { userId: alice.id }), ['orders:read']);

  // Out of the group: nothing left.
  await json(['group', 'remove', 'staff', 'alice']);
  assert.deepEqual(await permissionsGranted(db, apiRow.id, { userId: alice.id }), []);

  const actions = (await db.prisma.auditEvent.findMany({ select: { action: true } })).map((e) => e.action);
  for (const action of [
    'api.created',
    'role.created',
    'role.permission_added',
    'group.created',
    'role.assigned',
    'group.member_added',
    'group.member_removed',
  ]) {
    assert.ok(actions.includes(action), action);
  }
});

test('bad input exits 2 with the flag named; unknown names exit 1', async () => {
  const http = await gatehouse(['api', 'create', 'http://insecure.example.test/', '--name', 'X']);
  assert.equal(http.code, 2);
  assert.match(failure(http), /identifier/);
  const reserved = await gatehouse(['api', 'create', 'urn:example:reserved', '--name', 'X', '--permission', 'openid']);
  assert.equal(reserved.code, 2);
  const long = await gatehouse(['api', 'create', 'urn:example:long', '--name', 'X', '--lifetime', '86400']);
  assert.equal(long.code, 2);
  assert.match(failure(long), /--lifetime/);
  const unknown = await gatehouse(['role', 'permit', 'no-such-role', API, 'orders:read']);
  assert.equal(unknown.code, 1);
  assert.match(failure(unknown), /no role named no-such-role/);
  const both = await gatehouse(['role', 'assign', 'x', '--user', 'a', '--group', 'b']);
  assert.equal(both.code, 2);
  const taken = await gatehouse(['group', 'create', 'staff']);
  assert.equal(taken.code, 1);
});
