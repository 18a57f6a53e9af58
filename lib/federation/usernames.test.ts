// The username of an account created just in time: the upstream's, cut to what usernames allow, never someone else's.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testDatabases } from '../db/testing.ts';
import { insertUser } from '../users/repository.ts';
import { justInTimeUsername } from './usernames.ts';

const [sqlite] = testDatabases('jit-usernames');

describe('just-in-time usernames', () => {
  test('the upstream name, else the address, cut to the allowed letters; a taken name gets a suffix, never the holder', async () => {
    const db = await sqlite.open();
    assert.equal(await justInTimeUsername(db, { username: 'octo cat!', email: null, subject: '1' }), 'octo-cat');
    assert.equal(await justInTimeUsername(db, { username: null, email: 'ann.lee@corp.example', subject: '1' }), 'ann.lee');
    assert.equal(await justInTimeUsername(db, { username: '!!!', email: null, subject: '1' }), 'user');
    await insertUser(db, { username: 'Admin', email: null, name: null, passwordHash: null, role: 'admin' });
    const taken = await justInTimeUsername(db, { username: 'admin', email: null, subject: '1' });
    assert.match(taken, /^admin-[0-9a-f]{6}$/, 'a name that is taken in any case is not reused');
  });
});
