// Custom user attributes and claim mappings, on every database: typed values, who may change which, what a
// client's mapping gives it, and the claim names a mapping may not take.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { testDatabases } from '../db/testing.ts';
import { registerClient } from '../clients/manage.ts';
import { createUser } from '../users/manage.ts';
import type { ServiceError } from '../platform/errors.ts';
import { createAttribute, deleteAttribute, mapClaim, mappedClaims, setAttributeValues, unmapClaim, valuesOf } from './attributes.ts';

const unique = () => randomBytes(4).toString('hex');
const code = (expected: string) => (error: unknown) => (error as ServiceError).code === expected;

for (const store of testDatabases('claims')) {
  describe(store.name, { skip: store.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    async function world() {
      const db = await store.open();
      const id = unique();
      const user = await createUser(db, { username: `u-${id}`, password: 'a long enough password', email: null, name: null, role: 'user' });
      const { client } = await registerClient(db, { name: `App ${id}`, redirectUris: ['https://app.example.test/cb'] });
      const department = await createAttribute(db, { key: `department_${id}`, name: 'Department', editableBy: 'admin' });
      const nickname = await createAttribute(db, { key: `shown_${id}`, name: 'Shown name', editableBy: 'user' });
      const seats = await createAttribute(db, { key: `seats_${id}`, name: 'Seats', type: 'number' });
      const remote = await createAttribute(db, { key: `remote_${id}`, name: 'Remote', type: 'boolean', editableBy: 'user' });
      return { db, id, user, client, department, nickname, seats, remote };
    }

    test('values are stored as their type says, and empty text removes one', async () => {
      const { db, user, department, seats, remote } = await world();
      await setAttributeValues(db, user.id, { [department.key]: ' Sales ', [seats.key]: '3', [remote.key]: 'on' }, 'admin');
      assert.deepEqual(await valuesOf(db, user.id), { [department.key]: 'Sales', [seats.key]: 3, [remote.key]: true });
      await assert.rejects(setAttributeValues(db, user.id, { [seats.key]: 'three' }, 'admin'), code('invalid_request'));
      await setAttributeValues(db, user.id, { [department.key]: '' }, 'admin');
      assert.equal((await valuesOf(db, user.id))[department.key], undefined);
    });

    test('the person changes only the attributes an admin let them, and nothing is written when one is refused', async () => {
      const { db, user, department, nickname } = await world();
      await setAttributeValues(db, user.id, { [nickname.key]: 'Ada' }, 'user');
      await assert.rejects(setAttributeValues(db, user.id, { [nickname.key]: 'Bea', [department.key]: 'Boardroom' }, 'user'), code('forbidden'));
      assert.deepEqual(await valuesOf(db, user.id), { [nickname.key]: 'Ada' });
    });

    test("a client gets a person's attributes only under the claim names its mapping gives them", async () => {
      const { db, id, user, client, department, seats } = await world();
      await setAttributeValues(db, user.id, { [department.key]: 'Sales', [seats.key]: '2' }, 'admin');
      const claim = `https://claims.example.test/department-${id}`;
      await mapClaim(db, client.id, { claim, attribute: department.key });
      assert.deepEqual(await mappedClaims(db, client.id, user.id), { [claim]: 'Sales' });
      const { client: other } = await registerClient(db, { name: `Other ${id}`, redirectUris: ['https://other.example.test/cb'] });
      assert.deepEqual(await mappedClaims(db, other.id, user.id), {}, 'no mapping, no attribute');
      await assert.rejects(mapClaim(db, client.id, { claim, attribute: seats.key }), code('conflict'));
      for (const reserved of ['sub', 'email', 'groups', 'given_name']) {
        await assert.rejects(mapClaim(db, client.id, { claim: reserved, attribute: seats.key }), code('invalid_request'), reserved);
      }
      await unmapClaim(db, client.id, claim);
      assert.deepEqual(await mappedClaims(db, client.id, user.id), {});
    });

    test('deleting an attribute takes its values and mappings with it', async () => {
      const { db, id, user, client, department } = await world();
      await setAttributeValues(db, user.id, { [department.key]: 'Sales' }, 'admin');
      await mapClaim(db, client.id, { claim: `dept_${id}`, attribute: department.key });
      await deleteAttribute(db, department.key);
      assert.deepEqual(await mappedClaims(db, client.id, user.id), {});
      assert.equal((await valuesOf(db, user.id))[department.key], undefined);
    });
  });
}
