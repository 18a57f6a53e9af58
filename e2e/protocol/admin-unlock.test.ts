// runs-on: stores
// Locked accounts in the admin API: one user's `locked_until`, and POST /api/admin/users/{id}/unlock.
// A lock over HTTP takes ten wrong passwords and about fifteen seconds of waits (throttling.test.ts walks
// it once); here the lock is made in the shared counters from this process, as another instance would.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { database } from '../../lib/db/database.ts';
import { createThrottle, throttleSettings } from '../../lib/platform/throttle.ts';
import { adminToken, api, makeAdminApiClient } from '../support/admin-api.ts';
import { databaseUrl, makeUser } from '../support/fixtures.ts';

// The default limits, except that the first wrong password from a new browser locks new browsers out for the day.
const defaults = throttleSettings();
const throttle = createThrottle({
  db: database(databaseUrl),
  redisUrl: process.env.REDIS_URL,
  settings: { ...defaults, newBrowsers: { ...defaults.newBrowsers, free: 1, lockAfter: 1, cap: 1 } },
  sweepEveryMs: 0,
});
after(() => throttle.close());

async function lock(user: { id: string; username: string }) {
  const attempt = { account: { id: user.id }, username: user.username, ip: '203.0.113.50' };
  assert.deepEqual(await throttle.beforePasswordCheck(attempt), { allowed: true });
  assert.equal((await throttle.passwordFailed(attempt)).locked, true);
}

test('a fresh user is not locked: locked_until is null on the user, and the list leaves it out', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const user = await makeUser();
  const shown = await api('GET', `/api/admin/users/${user.id}`, { token });
  assert.equal(shown.status, 200);
  assert.equal(shown.body.locked_until, null);
  const listed = await api('GET', `/api/admin/users?q=${user.username}`, { token });
  assert.deepEqual(
    listed.body.data.map((u: { id: string }) => u.id),
    [user.id],
  );
  assert.equal('locked_until' in listed.body.data[0], false, 'a page of users costs no counter reads');
});

test('a locked user shows until when; unlocking answers the user with locked_until null, once in the audit log however often it is called', async () => {
  const automation = await makeAdminApiClient();
  const token = await adminToken(automation);
  const user = await makeUser();
  await lock(user);

  const shown = await api('GET', `/api/admin/users/${user.id}`, { token });
  const until = Date.parse(shown.body.locked_until);
  const lockMs = defaults.newBrowsers.windowSeconds * 1000;
  assert.ok(Math.abs(until - (Date.now() + lockMs)) < 60_000, `locked for the lock period: ${shown.body.locked_until}`);
  // Every answer that is one user says so, not just GET (the throttle answers in whole seconds from now).
  const patched = await api('PATCH', `/api/admin/users/${user.id}`, { token, json: { name: 'Still Locked' } });
  assert.ok(Math.abs(Date.parse(patched.body.locked_until) - until) <= 2000, `${patched.body.locked_until} ≈ ${shown.body.locked_until}`);

  const unlocked = await api('POST', `/api/admin/users/${user.id}/unlock`, { token });
  assert.equal(unlocked.status, 200);
  assert.equal(unlocked.headers.get('cache-control'), 'no-store');
  assert.equal(unlocked.body.locked_until, null);
  assert.deepEqual([unlocked.body.id, unlocked.body.username, unlocked.body.name], [user.id, user.username, 'Still Locked']);
  assert.equal((await api('GET', `/api/admin/users/${user.id}`, { token })).body.locked_until, null);
  assert.equal(await throttle.lockState(user.id), undefined, 'lifted in the shared counters');

  const again = await api('POST', `/api/admin/users/${user.id}/unlock`, { token });
  assert.equal(again.status, 200, 'unlocking an unlocked user is no error');
  assert.equal(again.body.locked_until, null);

  const log = await api('GET', `/api/admin/audit-events?action=user.unlocked&target=${user.id}`, { token });
  assert.equal(log.status, 200);
  assert.equal(log.body.data.length, 1, 'only the unlock that lifted a lock is recorded');
  const [event] = log.body.data;
  assert.deepEqual(
    [event.actor, event.target, event.details],
    [{ id: null, username: `client:${automation.id}`, role: 'admin' }, { type: 'user', id: user.id, label: user.username }, {}],
  );
});

test('unlocking an unknown user is 404 not_found in the one error shape', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const answer = await api('POST', '/api/admin/users/no-such-user/unlock', { token });
  assert.equal(answer.status, 404);
  assert.deepEqual(Object.keys(answer.body).sort(), ['error', 'error_description']);
  assert.equal(answer.body.error, 'not_found');
  assert.equal((await api('POST', '/api/admin/users/no-such-user/unlock', {})).status, 401, 'authorized like every route');
});

test('the OpenAPI document describes the unlock operation and locked_until', async () => {
  const token = await adminToken(await makeAdminApiClient());
  const document = (await api('GET', '/api/admin/openapi.json', { token })).body;
  const operation = document.paths['/api/admin/users/{id}/unlock'].post;
  assert.equal(operation.operationId, 'unlockUser');
  assert.ok(operation.responses['200'] && operation.responses['404']);
  const { User, UserSummary } = document.components.schemas;
  assert.ok(User.required.includes('locked_until'));
  assert.equal(UserSummary.properties.locked_until, undefined);
});
