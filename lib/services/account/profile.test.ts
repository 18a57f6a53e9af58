// A person edits their own profile, on SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findUserById } from '../../db/users.ts';
import { testDatabases } from '../../db/testing.ts';
import { auditEventsFor } from '../audit.ts';
import { profileValues, updateOwnProfile } from './profile.ts';
import { person, tag } from './testing.ts';

const form = (fields: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
};

for (const storage of testDatabases('account-profile')) {
  describe(`profile on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('saves name and email as the person typed them (trimmed), recorded as user.updated by themselves', async () => {
      const db = await storage.open();
      const { holder, by } = await person(db);
      const email = `new-${tag()}@example.com`;
      const state = await updateOwnProfile(db, holder, form({ name: '  Pat Doe  ', email: ` ${email} ` }), by);
      assert.deepEqual(state, { status: 'saved', values: { name: 'Pat Doe', email }, errors: {} });
      const user = await findUserById(db, holder.id);
      assert.deepEqual([user?.name, user?.email], ['Pat Doe', email]);
      const [event] = await auditEventsFor(db, { involvingUserId: holder.id, actions: ['user.updated'] });
      assert.deepEqual(event.details, { changed: ['name', 'email'] });
      assert.deepEqual(event.actor, { id: holder.id, username: holder.username });
      assert.equal(event.userAgent, 'account-test');
    });

    test('an invalid or taken email comes back on the email field, with what was typed, and nothing changes', async () => {
      const db = await storage.open();
      const { user, holder, by } = await person(db);
      const other = await person(db);
      const invalid = await updateOwnProfile(db, holder, form({ name: 'Pat', email: 'not-an-email' }), by);
      assert.deepEqual(invalid, { status: 'editing', values: { name: 'Pat', email: 'not-an-email' }, errors: { email: ['email is not a valid address'] } });
      const taken = await updateOwnProfile(db, holder, form({ name: 'Pat', email: other.user.email! }), by);
      assert.equal(taken.status, 'editing');
      assert.deepEqual(taken.errors, { email: ['another account already uses this email address'] });
      assert.deepEqual(profileValues((await findUserById(db, holder.id))!), profileValues(user));
      const tooLong = await updateOwnProfile(db, holder, form({ name: 'x'.repeat(200), email: '' }), by);
      assert.deepEqual(Object.keys(tooLong.errors), ['name']);
      assert.deepEqual(await auditEventsFor(db, { involvingUserId: holder.id, actions: ['user.updated'] }), []);
    });

    test('empty fields clear the name and email', async () => {
      const db = await storage.open();
      const { holder } = await person(db);
      const state = await updateOwnProfile(db, holder, form({ name: '', email: '' }));
      assert.deepEqual(state.values, { name: '', email: '' });
      assert.deepEqual([(await findUserById(db, holder.id))?.email], [null]);
    });
  });
}
