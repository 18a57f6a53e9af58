// Who may do what, on every database: what a person's roles (directly and through groups) and a machine
// client's grants give of an API, what taking them away leaves, and the rules an API's registration keeps.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { testDatabases } from '../db/testing.ts';
import { registerClient } from '../clients/manage.ts';
import { createUser } from '../users/manage.ts';
import type { ServiceError } from '../platform/errors.ts';
import {
  addRolePermission,
  addToGroup,
  assignRole,
  createApi,
  createGroup,
  createRole,
  deleteRole,
  grantClientPermission,
  removeApiPermission,
  removeFromGroup,
  unassignRole,
  updateApi,
} from './manage.ts';
import { accessOf, findApiByIdentifier, permissionsGranted } from './repository.ts';

const unique = () => randomBytes(4).toString('hex');

for (const store of testDatabases('authorization')) {
  describe(store.name, { skip: store.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    async function world() {
      const db = await store.open();
      const id = unique();
      const api = await createApi(db, {
        identifier: `https://api-${id}.example.test`,
        name: 'Orders',
        permissions: [{ name: 'read' }, { name: 'write', description: 'Change orders' }],
      });
      const user = await createUser(db, { username: `u-${id}`, password: 'a long enough password', email: null, name: null, role: 'user' });
      return { db, id, api, user };
    }

    test('a role grants its permissions to the people it is given to, directly or through a group, and to no one else', async () => {
      const { db, id, api, user } = await world();
      const other = await createUser(db, { username: `o-${id}`, password: 'a long enough password', email: null, name: null, role: 'user' });
      const writer = await createRole(db, { name: `writer-${id}` });
      const reader = await createRole(db, { name: `reader-${id}` });
      await addRolePermission(db, writer.name, api.identifier, 'write');
      await addRolePermission(db, reader.name, api.identifier, 'read');
      const group = await createGroup(db, { name: `g-${id}` });
      await assignRole(db, reader.name, { group: group.name });
      await addToGroup(db, group.name, user.username);
      await assignRole(db, writer.name, { user: { id: user.id } });
      assert.deepEqual(await permissionsGranted(db, api.id, { userId: user.id }), ['read', 'write']);
      assert.deepEqual(await permissionsGranted(db, api.id, { userId: other.id }), []);
      assert.deepEqual(await accessOf(db, user.id), { groups: [group.name], roles: [reader.name, writer.name].sort() });

      await removeFromGroup(db, group.name, user.username);
      assert.deepEqual(await permissionsGranted(db, api.id, { userId: user.id }), ['write']);
      await unassignRole(db, writer.name, { user: user.username });
      assert.deepEqual(await permissionsGranted(db, api.id, { userId: user.id }), []);
      await assert.rejects(unassignRole(db, writer.name, { user: user.username }), (e: ServiceError) => e.code === 'not_found');
    });

    test('a removed permission or a deleted role leaves every holder', async () => {
      const { db, id, api, user } = await world();
      const role = await createRole(db, { name: `r-${id}` });
      await addRolePermission(db, role.name, api.identifier, 'read');
      await addRolePermission(db, role.name, api.identifier, 'write');
      await assignRole(db, role.name, { user: user.username });
      await removeApiPermission(db, api.identifier, 'write');
      assert.deepEqual(await permissionsGranted(db, api.id, { userId: user.id }), ['read']);
      await deleteRole(db, role.name);
      assert.deepEqual(await permissionsGranted(db, api.id, { userId: user.id }), []);
      assert.deepEqual(await accessOf(db, user.id), { groups: [], roles: [] });
    });

    test("a machine client's grants are its own", async () => {
      const { db, api } = await world();
      const { client } = await registerClient(db, { name: 'Machine', grantTypes: ['client_credentials'], scopes: ['openid'] });
      await grantClientPermission(db, client.id, api.identifier, 'read');
      assert.deepEqual(await permissionsGranted(db, api.id, { clientId: client.id }), ['read']);
      await assert.rejects(grantClientPermission(db, client.id, api.identifier, 'delete'), (e: ServiceError) => e.code === 'not_found');
    });

    test('registration rules: identifiers, permission names, lifetimes, and no second API of one identifier', async () => {
      const { db, api } = await world();
      const refused = async (input: Parameters<typeof createApi>[1]) =>
        assert.rejects(createApi(db, input), (e: ServiceError) => e.code === 'invalid_request', JSON.stringify(input));
      await refused({ identifier: 'http://plain.example.test', name: 'X' });
      await refused({ identifier: 'https://frag.example.test/#x', name: 'X' });
      await refused({ identifier: 'not a uri', name: 'X' });
      await refused({ identifier: `urn:x:${unique()}`, name: 'X', permissions: [{ name: 'has space' }] });
      await refused({ identifier: `urn:x:${unique()}`, name: 'X', permissions: [{ name: 'profile' }] });
      await refused({ identifier: `urn:x:${unique()}`, name: 'X', tokenLifetime: 7200 });
      await refused({ identifier: `urn:x:${unique()}`, name: 'X', permissions: [{ name: 'a' }, { name: 'a' }] });
      await assert.rejects(createApi(db, { identifier: api.identifier, name: 'Again' }), (e: ServiceError) => e.code === 'conflict');
      const urn = await createApi(db, { identifier: `urn:example:${unique()}`, name: 'URN API', tokenFormat: 'opaque' });
      assert.equal(urn.tokenFormat, 'opaque');
      assert.equal(urn.tokenLifetime, 300);
      const changed = await updateApi(db, api.id, { tokenLifetime: 600, rolesInToken: true });
      assert.equal(changed.tokenLifetime, 600);
      assert.equal((await findApiByIdentifier(db, api.identifier))?.rolesInToken, true);
    });
  });
}
