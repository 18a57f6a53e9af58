// runs-on: once
// A method a path of the admin API does not have: 405 in the one error model, with the methods it has in
// Allow (RFC 9110 §15.5.6), after the same authorization as every admin API request. Before, Next answered
// it with an empty 405 that no client could read.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';

test('DELETE /api/admin/users and PUT /api/admin/clients/{id}: 405 with a JSON error and Allow; no credentials: 401 first', async () => {
  const token = await adminToken(await makeAdminApiClient());
  for (const [method, path, allow] of [
    ['DELETE', '/api/admin/users', 'GET, POST, HEAD, OPTIONS'],
    ['PUT', '/api/admin/clients/no-such-client', 'GET, PATCH, DELETE, HEAD, OPTIONS'],
    ['GET', '/api/admin/keys/rotate', 'POST, OPTIONS'],
  ]) {
    const refused = await api(method, path, { token });
    assert.equal(refused.status, 405, `${method} ${path}`);
    assert.equal(refused.headers.get('allow'), allow, `${method} ${path}`);
    assert.equal(refused.headers.get('content-type'), 'application/json');
    assert.equal(refused.headers.get('cache-control'), 'no-store');
    assert.ok(refused.headers.get('x-request-id'));
    assert.deepEqual(Object.keys(refused.body), ['error', 'error_description']);
    assert.equal(refused.body.error, 'method_not_allowed');
    assert.match(refused.body.error_description, new RegExp(`^${method} is not a method of this path`));

    const anonymous = await api(method, path);
    assert.equal(anonymous.status, 401, `${method} ${path} without credentials`);
    assert.equal(anonymous.body.error, 'unauthorized');
  }
  // The methods it has still answer.
  assert.equal((await api('GET', '/api/admin/users', { token })).status, 200);
});
