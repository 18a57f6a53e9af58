// runs-on: once
// The admin API's dynamic registration operations (lib/surfaces/admin-api/registration.ts) on the suite's server:
// an initial access token issued (the token in that answer only, its limits as asked), listed without it,
// revoked; bad limits are 400 naming the field; approving a client that waits for nothing is 409, an unknown one 404.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';
import { makeClient } from '../support/fixtures.ts';

test('issue, list and revoke initial access tokens; bad limits and approvals of nothing are refused', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const issued = await api('POST', '/api/admin/registration-tokens', {
    token,
    json: { name: 'Partner agents', max_clients: 2, redirect_hosts: ['agents.partner.example'], scopes: ['openid'], require_approval: true },
  });
  assert.equal(issued.status, 201);
  assert.ok(typeof issued.body.initial_access_token === 'string' && issued.body.initial_access_token.length >= 43);
  assert.deepEqual(
    [issued.body.max_clients, issued.body.clients_registered, issued.body.redirect_hosts, issued.body.grant_types, issued.body.require_approval],
    [2, 0, ['agents.partner.example'], ['authorization_code', 'refresh_token'], true],
  );

  const listed = await api('GET', '/api/admin/registration-tokens', { token });
  assert.equal(listed.status, 200);
  assert.ok(!JSON.stringify(listed.body).includes(issued.body.initial_access_token), 'never the token again');
  assert.ok(listed.body.data.some((t: { id: string }) => t.id === issued.body.id));

  const revoked = await api('POST', `/api/admin/registration-tokens/${issued.body.id}/revoke`, { token });
  assert.equal(revoked.status, 200);
  assert.ok(revoked.body.revoked_at);
  assert.equal((await api('POST', '/api/admin/registration-tokens/no-such-token/revoke', { token })).status, 404);

  const bad = await api('POST', '/api/admin/registration-tokens', { token, json: { name: 'x', grant_types: ['password'] } });
  assert.equal(bad.status, 400);
  assert.match(JSON.stringify(bad.body), /grant_types/);

  const client = await makeClient();
  assert.equal((await api('POST', `/api/admin/clients/${client.id}/approve`, { token })).status, 409);
  assert.equal((await api('POST', '/api/admin/clients/no-such-client/approve', { token })).status, 404);
  const shown = await api('GET', `/api/admin/clients/${client.id}`, { token });
  assert.deepEqual([shown.body.registered_dynamically, shown.body.approval_pending, shown.body.backchannel_logout_uri], [false, false, null]);
});
