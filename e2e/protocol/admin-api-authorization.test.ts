// runs-on: mounts
// The admin API's authorization operations over HTTP with an admin-API client's Bearer token: an API with its
// permissions, a role, a group with a member, a machine client's grant; each change audited as the client;
// bad input is 400 in the one error model, unknown names 404, a taken identifier 409.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';
import { makeClient, makeUser } from '../support/fixtures.ts';

const unique = () => randomBytes(4).toString('hex');

test('APIs, roles, groups and client grants through the admin API, each change audited as the caller', async () => {
  const automation = await makeAdminApiClient();
  const token = await adminToken(automation);
  const id = unique();
  const identifier = `https://admin-api-${id}.example.test/`;

  const created = await api('POST', '/api/admin/apis', {
    token,
    json: { identifier, name: 'Orders', token_lifetime: 120, permissions: [{ name: 'orders:read', description: 'Read orders' }] },
  });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.identifier, identifier);
  assert.equal(created.body.token_format, 'jwt');
  const apiId = created.body.id as string;

  const taken = await api('POST', '/api/admin/apis', { token, json: { identifier, name: 'Again' } });
  assert.equal(taken.status, 409);
  const bad = await api('POST', '/api/admin/apis', { token, json: { identifier: 'http://insecure.example.test', name: 'X' } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error, 'invalid_request');

  const permission = await api('PUT', `/api/admin/apis/${apiId}/permissions/orders:write`, { token, json: { description: 'Place orders' } });
  assert.equal(permission.status, 200, JSON.stringify(permission.body));
  assert.deepEqual(
    permission.body.permissions.map((p: { name: string }) => p.name),
    ['orders:read', 'orders:write'],
  );

  const role = `reader-${id}`;
  assert.equal((await api('POST', '/api/admin/roles', { token, json: { name: role } })).status, 201);
  const permitted = await api('PUT', `/api/admin/roles/${role}/permissions/${apiId}/orders:read`, { token });
  assert.deepEqual(permitted.body.permissions, [{ api: identifier, permission: 'orders:read' }]);

  const group = `staff-${id}`;
  assert.equal((await api('POST', '/api/admin/groups', { token, json: { name: group } })).status, 201);
  const person = await makeUser();
  const joined = await api('PUT', `/api/admin/groups/${group}/members/${person.id}`, { token });
  assert.deepEqual(joined.body.member_list, [{ id: person.id, username: person.username }]);
  const assigned = await api('PUT', `/api/admin/roles/${role}/groups/${group}`, { token });
  assert.deepEqual(assigned.body.groups, [group]);

  const machine = await makeClient({ grantTypes: ['client_credentials'], redirectUris: [], scopes: ['openid'] });
  const granted = await api('PUT', `/api/admin/clients/${machine.id}/permissions/${apiId}/orders:read`, { token });
  assert.deepEqual(granted.body.data, [{ api: identifier, permission: 'orders:read' }]);

  const missing = await api('PUT', `/api/admin/roles/no-such-${id}/users/${person.id}`, { token });
  assert.equal(missing.status, 404);

  const audit = await api('GET', `/api/admin/audit-events?actor=${encodeURIComponent(`client:${automation.id}`)}&per_page=50`, { token });
  const actions = new Set(audit.body.data.map((e: { action: string }) => e.action));
  for (const action of [
    'api.created',
    'api.updated',
    'role.created',
    'role.permission_added',
    'group.created',
    'group.member_added',
    'role.assigned',
    'client.permission_added',
  ]) {
    assert.ok(actions.has(action), `${action} recorded as client:${automation.id}`);
  }

  assert.equal((await api('DELETE', `/api/admin/apis/${apiId}`, { token })).status, 204);
  assert.equal((await api('GET', `/api/admin/apis/${apiId}`, { token })).status, 404);
  const after = await api('GET', `/api/admin/roles/${role}`, { token });
  assert.deepEqual(after.body.permissions, [], "the API's permissions left the role with it");
});
