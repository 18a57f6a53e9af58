// The account chooser's list: signed, most recent first, five at most, names read from the accounts; a forged list is no list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testDatabases } from '../db/testing.ts';
import { person } from '../account/testing.ts';
import { setUserDisabled } from '../users/repository.ts';
import { ACCOUNTS_COOKIE, forgetAccount, rememberAccount, rememberedAccounts, rememberedIds } from './remembered-accounts.ts';

const storage = testDatabases('remembered-accounts')[0];
const header = (setCookie: string) => setCookie.split('; ')[0];

test('the most recent first, as the accounts are named now; removing one keeps the others; a disabled account drops out', async () => {
  const db = await storage.open();
  const [a, b, c] = [await person(db), await person(db), await person(db)];
  let cookie = header(await rememberAccount(db, a.holder.id, null, true));
  cookie = header(await rememberAccount(db, b.holder.id, cookie, true));
  cookie = header(await rememberAccount(db, c.holder.id, cookie, true));
  cookie = header(await rememberAccount(db, a.holder.id, cookie, true));
  assert.deepEqual(
    (await rememberedAccounts(db, cookie)).map((account) => account.username),
    [a.holder.username, c.holder.username, b.holder.username],
  );
  const forgotten = await forgetAccount(db, c.holder.id, cookie, true);
  assert.match(forgotten, /Path=\/interaction; HttpOnly; SameSite=Lax; Secure; Max-Age=31536000$/);
  assert.deepEqual(await rememberedIds(db, header(forgotten)), [a.holder.id, b.holder.id]);
  await setUserDisabled(db, b.holder.id, true);
  assert.deepEqual(
    (await rememberedAccounts(db, header(forgotten))).map((account) => account.id),
    [a.holder.id],
  );
  const empty = await forgetAccount(db, a.holder.id, header(await forgetAccount(db, b.holder.id, header(forgotten), false)), false);
  assert.match(empty, new RegExp(`^${ACCOUNTS_COOKIE}=; .*Max-Age=0$`), 'the last one removed: the cookie goes');
});

test('a list the server did not sign is no list; five at most', async () => {
  const db = await storage.open();
  const a = await person(db);
  const cookie = header(await rememberAccount(db, a.holder.id, null, false));
  const [, mac] = cookie.split('~');
  assert.deepEqual(await rememberedIds(db, `${ACCOUNTS_COOKIE}=someone-else~${mac}`), [], 'another id under the MAC');
  assert.deepEqual(await rememberedIds(db, `${ACCOUNTS_COOKIE}=${a.holder.id}~${'A'.repeat(22)}`), [], 'a made-up MAC');
  assert.deepEqual(await rememberedIds(db, `${ACCOUNTS_COOKIE}=garbage`), []);
  let many: string | null = null;
  for (let i = 0; i < 7; i++) many = header(await rememberAccount(db, `user-${i}`, many, false));
  assert.deepEqual(await rememberedIds(db, many), ['user-6', 'user-5', 'user-4', 'user-3', 'user-2']);
});
