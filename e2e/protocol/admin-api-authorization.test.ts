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

test("custom attributes, a person's value and a client's claim mapping through the admin API, each change audited as the caller", async () => {
  const automation = await makeAdminApiClient();
  const token = await adminToken(automation);
  const key = `dept_${unique()}`;

  const created = await api('POST', '/api/admin/attributes', { token, json: { key, name: 'Department', editable_by: 'user' } });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  assert.equal(created.body.type, 'string');
  assert.equal(created.body.editable_by, 'user');
  assert.equal((await api('POST', '/api/admin/attributes', { token, json: { key, name: 'Again' } })).status, 409);
  const badKey = await api('POST', '/api/admin/attributes', { token, json: { key: 'Not A Key', name: 'X' } });
  assert.equal(badKey.status, 400);
  assert.equal(badKey.body.error, 'invalid_request');
  const listed = await api('GET', '/api/admin/attributes', { token });
  assert.ok(listed.body.data.some((a: { key: string }) => a.key === key));

  const person = await makeUser();
  const set = await api('PUT', `/api/admin/users/${person.id}/attributes/${key}`, { token, json: { value: 'Finance' } });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  assert.deepEqual(set.body.data, { [key]: 'Finance' });
  assert.deepEqual((await api('GET', `/api/admin/users/${person.id}/attributes`, { token })).body.data, { [key]: 'Finance' });
  assert.equal((await api('PUT', `/api/admin/users/${person.id}/attributes/no_such`, { token, json: { value: 'x' } })).status, 404);

  const app = await makeClient({ scopes: ['openid', 'profile'] });
  const mapped = await api('PUT', `/api/admin/clients/${app.id}/claims/department`, { token, json: { attribute: key } });
  assert.equal(mapped.status, 200, JSON.stringify(mapped.body));
  assert.deepEqual(mapped.body.data, [{ claim: 'department', attribute: key }]);
  assert.equal((await api('PUT', `/api/admin/clients/${app.id}/claims/department`, { token, json: { attribute: key } })).status, 409);
  const reserved = await api('PUT', `/api/admin/clients/${app.id}/claims/email`, { token, json: { attribute: key } });
  assert.equal(reserved.status, 400, 'a claim Gatehouse gives with its own meaning is refused');
  assert.equal((await api('GET', `/api/admin/clients/no-such-${unique()}/claims`, { token })).status, 404);
  assert.deepEqual((await api('GET', `/api/admin/clients/${app.id}/claims`, { token })).body.data, [{ claim: 'department', attribute: key }]);

  const unmapped = await api('DELETE', `/api/admin/clients/${app.id}/claims/department`, { token });
  assert.deepEqual(unmapped.body.data, []);
  assert.equal((await api('DELETE', `/api/admin/clients/${app.id}/claims/department`, { token })).status, 404);
  const cleared = await api('PUT', `/api/admin/users/${person.id}/attributes/${key}`, { token, json: { value: null } });
  assert.deepEqual(cleared.body.data, {});
  assert.equal((await api('DELETE', `/api/admin/attributes/${key}`, { token })).status, 204);
  assert.equal((await api('DELETE', `/api/admin/attributes/${key}`, { token })).status, 404);

  const audit = await api('GET', `/api/admin/audit-events?actor=${encodeURIComponent(`client:${automation.id}`)}&per_page=50`, { token });
  const actions = new Set(audit.body.data.map((e: { action: string }) => e.action));
  for (const action of ['attribute.created', 'user.updated', 'client.claim_mapped', 'client.claim_unmapped', 'attribute.deleted']) {
    assert.ok(actions.has(action), `${action} recorded as client:${automation.id}`);
  }
});
