// runs-on: once
// Admin roles over HTTP in the admin API: every operation's permission from the operations table, the auditor's
// read-only access (every change refused, over every operation, so a new one cannot be forgotten), the user
// manager's limits, acting on an owner's account, and the role used named in the audit log.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { operations } from '../../lib/surfaces/admin-api/operations.ts';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';
import { makeUser } from '../support/fixtures.ts';

/** An operation's path with its parameters filled: a real user or client where there is one, else a name that exists nowhere. */
function pathOf(path: string, ids: { user: string; client: string }): string {
  return path
    .replace('{id}', path.startsWith('/api/admin/clients') ? ids.client : path.startsWith('/api/admin/users') ? ids.user : '{id}')
    .replace('{kid}', 'no-such-kid')
    .replace('{uid}', 'no-such-session')
    .replace('{client_id}', ids.client)
    .replace(/\{\w+\}/g, 'no-such-thing');
}

const bodies: Partial<Record<keyof typeof operations, unknown>> = {
  createClient: { client_name: 'Not allowed', grant_types: ['client_credentials'], client_type: 'confidential' },
  updateClient: { client_name: 'Renamed' },
  createUser: { username: 'not-allowed' },
  updateUser: { name: 'Renamed' },
  setUserPassword: {},
  setUserRole: { role: 'owner' },
  rotateSigningKeys: {},
};

test("an auditor's every change is 403 in the API's error model, over every operation of the table; its reads answer", async () => {
  const token = await adminToken(await makeAdminApiClient('auditor'));
  const user = await makeUser();
  const other = await makeAdminApiClient();
  const ids = { user: user.id, client: other.id };
  for (const [id, operation] of Object.entries(operations)) {
    const path = pathOf(operation.path, ids);
    const answer = await api(operation.method, path, { token, json: bodies[id as keyof typeof operations] ?? (operation.method === 'GET' ? undefined : {}) });
    if (operation.method === 'GET') {
      // Read, not refused: 200, or 404 for a name that exists nowhere (the operations added by others take ids of their own).
      assert.ok([200, 404].includes(answer.status), `${id}: GET ${path} ${answer.status} ${JSON.stringify(answer.body)}`);
      if (!path.includes('no-such')) assert.equal(answer.status, 200, `${id}: GET ${path}`);
    } else {
      assert.equal(answer.status, 403, `${id}: ${operation.method} ${path}`);
      assert.equal(answer.body.error, 'forbidden', id);
      assert.match(answer.body.error_description, /auditor admin role may not/, id);
    }
  }
  const after = await api('GET', `/api/admin/users/${user.id}`, { token });
  assert.equal(after.body.disabled, false, 'nothing changed');
});

test('the audit log names the admin role a change was made with', async () => {
  const client = await makeAdminApiClient('user_manager');
  const token = await adminToken(client);
  const user = await makeUser();
  assert.equal((await api('POST', `/api/admin/users/${user.id}/disable`, { token })).status, 200);
  const auditor = await adminToken(await makeAdminApiClient('auditor'));
  const log = await api('GET', `/api/admin/audit-events?action=user.disabled&target=${user.id}`, { token: auditor });
  assert.equal(log.status, 200);
  assert.deepEqual(log.body.data[0].actor, { id: null, username: `client:${client.id}`, role: 'user_manager' });
});

test("an auditor checks the audit log's chain and takes it away as JSON lines, for a time range", async () => {
  const since = new Date(Date.now() - 1000).toISOString();
  const user = await makeUser();
  assert.equal((await api('POST', `/api/admin/users/${user.id}/disable`, { token: await adminToken(await makeAdminApiClient()) })).status, 200);
  const auditor = await adminToken(await makeAdminApiClient('auditor'));
  const verified = await api('GET', '/api/admin/audit-events/verify', { token: auditor });
  assert.equal(verified.status, 200);
  assert.ok(verified.body.entries > 0 && verified.body.last_seq >= verified.body.entries, JSON.stringify(verified.body));
  const exported = await api('GET', `/api/admin/audit-events/export?from=${encodeURIComponent(since)}`, { token: auditor });
  assert.equal(exported.status, 200);
  assert.match(exported.headers.get('content-type') ?? '', /^application\/x-ndjson/);
  const lines = String(exported.body)
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line));
  const disabled = lines.find((line) => line.action === 'user.disabled' && line.target_id === user.id);
  assert.ok(disabled, 'the change just made is in the range');
  assert.match(disabled.hash, /^[0-9a-f]{64}$/);
  assert.ok(
    lines.every((line) => line.checkpoint || line.at >= since),
    'nothing before `from`',
  );
  const future = await api('GET', '/api/admin/audit-events/export?from=2999-01-01', { token: auditor });
  assert.equal(future.body, undefined, 'an empty range is an empty body');
});

test('a user manager: no clients, no client secrets, no keys, no roles; unlocks, resets factors and manages people', async () => {
  const token = await adminToken(await makeAdminApiClient('user_manager'));
  const other = await makeAdminApiClient();
  for (const [method, path] of [
    ['GET', '/api/admin/clients'],
    ['GET', `/api/admin/clients/${other.id}`],
    ['POST', `/api/admin/clients/${other.id}/secret`],
    ['POST', `/api/admin/clients/${other.id}/disable`],
    ['GET', '/api/admin/keys'],
    ['POST', '/api/admin/keys/rotate'],
  ] as const) {
    const answer = await api(method, path, { token, json: method === 'POST' && path.endsWith('rotate') ? {} : undefined });
    assert.equal(answer.status, 403, `${method} ${path}`);
    assert.equal(answer.body.error, 'forbidden');
  }
  const user = await makeUser();
  assert.equal((await api('POST', `/api/admin/users/${user.id}/unlock`, { token })).status, 200);
  assert.equal((await api('DELETE', `/api/admin/users/${user.id}/second-factors`, { token })).status, 200);
  assert.equal((await api('PATCH', `/api/admin/users/${user.id}`, { token, json: { name: 'Changed by support' } })).status, 200);
  assert.equal((await api('PUT', `/api/admin/users/${user.id}/role`, { token, json: { role: 'auditor' } })).status, 403, 'gives no roles');
  const created = await api('POST', '/api/admin/users', { token, json: { username: `um-${user.id.slice(0, 8)}`, role: 'admin' } });
  assert.equal(created.status, 403, 'creates no admins');
  // Another admin's account is out of reach: resetting their password would be signing in as them.
  const admin = await makeUser({ role: 'admin', secondFactor: false });
  const reset = await api('PUT', `/api/admin/users/${admin.id}/password`, { token, json: {} });
  assert.equal(reset.status, 403);
  assert.match(reset.body.error_description, /person with the admin role/);
});

test("an owner's account: only an owner changes it; an admin makes no owners", async () => {
  const adminToken_ = await adminToken(await makeAdminApiClient('admin'));
  const ownerToken = await adminToken(await makeAdminApiClient('owner'));
  const person = await makeUser({ secondFactor: false });
  const made = await api('PUT', `/api/admin/users/${person.id}/role`, { token: adminToken_, json: { role: 'owner' } });
  assert.equal(made.status, 403);
  assert.equal((await api('PUT', `/api/admin/users/${person.id}/role`, { token: adminToken_, json: { role: 'auditor' } })).body.role, 'auditor');
  assert.equal((await api('PUT', `/api/admin/users/${person.id}/role`, { token: ownerToken, json: { role: 'owner' } })).body.role, 'owner');
  for (const [method, path] of [
    ['POST', `/api/admin/users/${person.id}/disable`],
    ['PUT', `/api/admin/users/${person.id}/role`],
    ['PUT', `/api/admin/users/${person.id}/password`],
  ] as const) {
    const answer = await api(method, path, { token: adminToken_, json: path.endsWith('disable') ? undefined : path.endsWith('role') ? { role: 'user' } : {} });
    assert.equal(answer.status, 403, `${method} ${path}`);
  }
  assert.equal((await api('PUT', `/api/admin/users/${person.id}/role`, { token: ownerToken, json: { role: 'user' } })).body.role, 'user');
});

test('a client acting as owner: only an owner gives that role or rotates its secret; an admin client sees its role', async () => {
  const adminCaller = await adminToken(await makeAdminApiClient('admin'));
  const ownerCaller = await adminToken(await makeAdminApiClient('owner'));
  const body = { client_name: 'Owner bot', grant_types: ['client_credentials'], scope: 'admin', admin_api: true, admin_role: 'owner' };
  const refused = await api('POST', '/api/admin/clients', { token: adminCaller, json: body });
  assert.equal(refused.status, 403);
  const made = await api('POST', '/api/admin/clients', { token: ownerCaller, json: body });
  assert.equal(made.status, 201, JSON.stringify(made.body));
  assert.equal(made.body.admin_role, 'owner');
  const id = made.body.client_id;
  assert.equal((await api('GET', `/api/admin/clients/${id}`, { token: adminCaller })).body.admin_role, 'owner', 'read, not changed');
  assert.equal((await api('POST', `/api/admin/clients/${id}/secret`, { token: adminCaller })).status, 403, 'a new secret would make the admin an owner');
  assert.equal((await api('PATCH', `/api/admin/clients/${id}`, { token: adminCaller, json: { admin_role: 'auditor' } })).status, 403);
  const lowered = await api('PATCH', `/api/admin/clients/${id}`, { token: ownerCaller, json: { admin_role: 'auditor' } });
  assert.equal(lowered.body.admin_role, 'auditor');
  assert.equal((await api('POST', `/api/admin/clients/${id}/secret`, { token: adminCaller })).status, 200);
});
