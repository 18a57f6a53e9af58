// runs-on: databases
// Two-step verification in the admin API: one user's `second_factor` (never a secret or code), and
// DELETE /api/admin/users/{id}/second-factors for a person whose authenticator is lost.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';
import { enrolTotp, makeUser } from '../support/fixtures.ts';

test('a user with TOTP on shows since when and the recovery codes left, never a secret; the list leaves it out', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const fresh = await makeUser();
  assert.deepEqual((await api('GET', `/api/admin/users/${fresh.id}`, { token })).body.second_factor, {
    totp: false,
    totp_since: null,
    passkeys: [],
    recovery_codes_left: 0,
  });

  const user = await makeUser();
  const { secret, recoveryCodes } = await enrolTotp(user);
  const shown = await api('GET', `/api/admin/users/${user.id}`, { token });
  assert.equal(shown.status, 200);
  const { totp, totp_since, recovery_codes_left } = shown.body.second_factor;
  assert.deepEqual([totp, recovery_codes_left], [true, recoveryCodes.length]);
  assert.ok(Math.abs(Date.parse(totp_since) - Date.now()) < 5 * 60_000, `confirmed just now: ${totp_since}`);
  const text = JSON.stringify(shown.body);
  assert.ok(!text.includes(secret), 'never the secret');
  for (const code of recoveryCodes) assert.ok(!text.includes(code), 'never a recovery code');

  const listed = await api('GET', `/api/admin/users?q=${user.username}`, { token });
  assert.equal('second_factor' in listed.body.data[0], false, 'a page of users costs no factor reads');
});

test('resetting removes TOTP and the recovery codes, answers the user, and is in the audit log once however often it is called', async () => {
  const automation = await makeAdminApiClient();
  const token = await adminToken(automation);
  const user = await makeUser();
  const { recoveryCodes } = await enrolTotp(user);

  const reset = await api('DELETE', `/api/admin/users/${user.id}/second-factors`, { token });
  assert.equal(reset.status, 200);
  assert.equal(reset.headers.get('cache-control'), 'no-store');
  assert.deepEqual([reset.body.id, reset.body.username], [user.id, user.username]);
  assert.deepEqual(reset.body.second_factor, { totp: false, totp_since: null, passkeys: [], recovery_codes_left: 0 });
  assert.deepEqual((await api('GET', `/api/admin/users/${user.id}`, { token })).body.second_factor, {
    totp: false,
    totp_since: null,
    passkeys: [],
    recovery_codes_left: 0,
  });

  const again = await api('DELETE', `/api/admin/users/${user.id}/second-factors`, { token });
  assert.equal(again.status, 200, 'resetting a user without a second step is no error');

  const log = await api('GET', `/api/admin/audit-events?action=factor.reset&target=${user.id}`, { token });
  assert.equal(log.status, 200);
  assert.equal(log.body.data.length, 1, 'only the reset that removed something is recorded');
  const [event] = log.body.data;
  assert.deepEqual(
    [event.actor, event.target, event.details],
    [
      { id: null, username: `client:${automation.id}`, role: 'admin' },
      { type: 'user', id: user.id, label: user.username },
      { totp: true, passkeys: 0, recovery_codes: recoveryCodes.length },
    ],
  );
});

test('resetting an unknown user is 404 not_found in the one error shape', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const answer = await api('DELETE', '/api/admin/users/no-such-user/second-factors', { token });
  assert.equal(answer.status, 404);
  assert.deepEqual(Object.keys(answer.body).sort(), ['error', 'error_description']);
  assert.equal(answer.body.error, 'not_found');
  assert.equal((await api('DELETE', '/api/admin/users/no-such-user/second-factors', {})).status, 401, 'authorized like every route');
});
