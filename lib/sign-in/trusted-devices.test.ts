// Trusted devices on SQLite: proved by the browser's device cookie, ended by time, by the person, by a new password or a factor reset.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testDatabases } from '../db/testing.ts';
import { person } from '../account/testing.ts';
import { changePassword, resetSecondFactors } from '../users/manage.ts';
import { knownDevice, rememberDevice } from './devices.ts';
import { listTrustedDevices, removeTrustedDevice, trustDevice, trustedDeviceHere } from './trusted-devices.ts';

const storage = testDatabases('trusted-devices')[0];
const header = (setCookie: string) => setCookie.split('; ')[0];
const DAY = 86_400_000;

async function trustedBrowser() {
  const db = await storage.open();
  const { holder } = await person(db);
  let now = Date.now();
  const ctx = { db, now: () => now, provider: undefined as never, config: { TRUSTED_DEVICE_DAYS: 30 } };
  const cookie = header(await rememberDevice(db, holder.id, null, false));
  const deviceId = (await knownDevice(db, holder.id, cookie))!;
  await trustDevice(ctx, holder.id, deviceId, 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0');
  return { db, ctx, holder, cookie, later: (ms: number) => (now += ms) };
}

test('only the browser whose cookie proves the device, and only until its end', async () => {
  const { db, ctx, holder, cookie, later } = await trustedBrowser();
  assert.equal(await trustedDeviceHere(ctx, holder.id, cookie), true);
  const other = header(await rememberDevice(db, holder.id, null, false));
  assert.equal(await trustedDeviceHere(ctx, holder.id, other), false, 'another browser of the same person');
  assert.equal(await trustedDeviceHere(ctx, 'someone-else', cookie), false, 'the cookie proves nothing for another account');
  const [listed] = await listTrustedDevices(db, holder.id, cookie, ctx.now());
  assert.deepEqual([listed.current, listed.userAgent?.includes('Chrome'), listed.lastUsedAt !== null], [true, true, true]);
  later(31 * DAY);
  assert.equal(await trustedDeviceHere(ctx, holder.id, cookie), false, 'after TRUSTED_DEVICE_DAYS');
  assert.deepEqual(await listTrustedDevices(db, holder.id, cookie, ctx.now()), []);
});

test('the person removes one; a new password or a reset of the second factors ends them all', async () => {
  for (const end of ['remove', 'password', 'reset'] as const) {
    const { db, ctx, holder, cookie } = await trustedBrowser();
    if (end === 'remove') {
      const [device] = await listTrustedDevices(db, holder.id, cookie, ctx.now());
      assert.equal(await removeTrustedDevice(db, 'someone-else', device.id), false, 'not theirs to remove');
      assert.equal(await removeTrustedDevice(db, holder.id, device.id), true);
    } else if (end === 'password') await changePassword(db, holder.id, 'a brand new password');
    else await resetSecondFactors(db, holder.id);
    assert.equal(await trustedDeviceHere(ctx, holder.id, cookie), false, end);
  }
});
