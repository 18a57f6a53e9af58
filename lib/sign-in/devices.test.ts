// Device cookies: only the server makes one for an account, it names no account, and a browser keeps a few.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testDatabases } from '../db/testing.ts';
import { DEVICE_COOKIE, knownDevice, rememberDevice } from './devices.ts';

const storage = testDatabases('devices')[0];
const header = (setCookie: string) => setCookie.split('; ')[0];

test('a remembered browser is known to that account only; a forged or altered cookie is not', async () => {
  const db = await storage.open();
  const set = await rememberDevice(db, 'alice-id', null, true);
  assert.match(set, new RegExp(`^${DEVICE_COOKIE}=[\\w~.-]+; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax; Secure$`));
  assert.doesNotMatch(set, /alice/, 'the cookie names no account');
  const device = await knownDevice(db, 'alice-id', header(set));
  assert.ok(device);
  assert.equal(await knownDevice(db, 'bob-id', header(set)), undefined, "not bob's");
  const [id, mac] = header(set)
    .slice(DEVICE_COOKIE.length + 1)
    .split('~');
  const altered = `${DEVICE_COOKIE}=${id}~${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`;
  assert.equal(await knownDevice(db, 'alice-id', altered), undefined, 'an altered MAC');
  assert.equal(await knownDevice(db, 'alice-id', `${DEVICE_COOKIE}=${'x'.repeat(22)}~${mac}`), undefined, 'another device id');
  assert.equal(await knownDevice(db, 'alice-id', `${DEVICE_COOKIE}=garbage; other=1`), undefined);
  assert.equal(await knownDevice(db, 'alice-id', 'other=1'), undefined);
  assert.equal(
    await rememberDevice(db, 'alice-id', header(set), false).then((s) => knownDevice(db, 'alice-id', header(s))),
    device,
    'signing in again keeps the device id',
  );
});

test('a browser shared by several people keeps the five most recent accounts', async () => {
  const db = await storage.open();
  let cookie: string | null = null;
  for (let i = 0; i < 6; i++) cookie = header(await rememberDevice(db, `user-${i}`, cookie, false));
  assert.equal(await knownDevice(db, 'user-0', cookie), undefined, 'the oldest is dropped');
  for (let i = 1; i < 6; i++) assert.ok(await knownDevice(db, `user-${i}`, cookie), `user-${i}`);
});
