// The standard profile claims beyond name and email, on every database: what is accepted, and who may say a phone
// number is verified.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { testDatabases } from '../db/testing.ts';
import type { ServiceError } from '../platform/errors.ts';
import { createUser } from './manage.ts';
import { findAccount } from './repository.ts';
import { profileClaimsOf, updateProfileClaims } from './profile-claims.ts';

const code = (expected: string) => (error: unknown) => (error as ServiceError).code === expected;

for (const store of testDatabases('profile-claims')) {
  describe(store.name, { skip: store.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    async function person() {
      const db = await store.open();
      const user = await createUser(db, {
        username: `p-${randomBytes(4).toString('hex')}`,
        password: 'a long enough password',
        email: null,
        name: null,
        role: 'user',
      });
      return { db, user };
    }

    test('stored and read back as the provider reads an account', async () => {
      const { db, user } = await person();
      const input = {
        givenName: 'Ada',
        familyName: 'Lovelace',
        picture: 'https://example.test/ada.png',
        locale: 'en-GB',
        zoneinfo: 'Europe/London',
        phoneNumber: '+44 20 7946 0958',
      };
      await updateProfileClaims(db, user.id, input, 'user');
      assert.deepEqual(await profileClaimsOf(db, user.id), { ...input, phoneNumber: '+442079460958', phoneNumberVerified: false });
      assert.equal((await findAccount(db, user.id))?.givenName, 'Ada');
    });

    test('bad values are refused in words; empty ones clear the claim', async () => {
      const { db, user } = await person();
      for (const bad of [{ picture: 'http://example.test/a.png' }, { locale: 'not a locale' }, { zoneinfo: 'Mars/Olympus' }, { phoneNumber: '0301234' }]) {
        await assert.rejects(updateProfileClaims(db, user.id, bad, 'admin'), code('invalid_request'), JSON.stringify(bad));
      }
      await updateProfileClaims(db, user.id, { givenName: 'Ada' }, 'admin');
      await updateProfileClaims(db, user.id, { givenName: '' }, 'admin');
      assert.equal((await profileClaimsOf(db, user.id)).givenName, null);
    });

    test('only an admin says a number is verified; a changed number is no longer verified', async () => {
      const { db, user } = await person();
      await assert.rejects(updateProfileClaims(db, user.id, { phoneNumber: '+4930123456', phoneNumberVerified: true }, 'user'), code('forbidden'));
      await updateProfileClaims(db, user.id, { phoneNumber: '+4930123456', phoneNumberVerified: true }, 'admin');
      await updateProfileClaims(db, user.id, { phoneNumber: '+4930123456', givenName: 'Ada' }, 'user');
      assert.equal((await profileClaimsOf(db, user.id)).phoneNumberVerified, true, 'the same number stays verified');
      await updateProfileClaims(db, user.id, { phoneNumber: '+4930999999' }, 'user');
      assert.equal((await profileClaimsOf(db, user.id)).phoneNumberVerified, false);
    });
  });
}
