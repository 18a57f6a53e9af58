// The search boxes match `%`, `_` and `\` literally, ignoring case, on SQLite and PostgreSQL (users, clients, the audit log).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { listAuditEvents } from '../audit/repository.ts';
import { searchClients } from '../clients/repository.ts';
import { testDatabases } from './testing.ts';
import { searchUsers } from '../users/repository.ts';
import { escapeLike, likePattern } from './text-search.ts';
import { recordAudit } from '../audit/log.ts';
import { registerClient } from '../clients/manage.ts';
import { createUser } from '../users/manage.ts';

test('escapeLike escapes the wildcards and the escape character; likePattern reads them back', () => {
  assert.equal(escapeLike('50%_off\\now'), '50\\%\\_off\\\\now');
  assert.ok(likePattern(`%${escapeLike('a_c')}%`).test('xA_Cx'));
  assert.ok(!likePattern(`%${escapeLike('a_c')}%`).test('abc'));
  assert.ok(likePattern('a%c').test('aXYc') && likePattern('a_c').test('abc'), 'unescaped, they are still wildcards');
  assert.ok(likePattern('%.*(%').test('x.*(y'), 'regular-expression characters are plain text');
});

for (const storage of testDatabases('text-search')) {
  describe(`search on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    const t = randomBytes(4).toString('hex');

    test('users: % and _ are not wildcards; case is still ignored', async () => {
      const db = await storage.open();
      await createUser(db, { username: `ab_${t}`, password: 'a long password' });
      await createUser(db, { username: `abx${t}`, password: 'a long password' });
      await createUser(db, { username: `pct-${t}`, name: `100% Sure ${t}`, password: 'a long password' });
      await createUser(db, { username: `pcx-${t}`, name: `100 Sure ${t}`, password: 'a long password' });
      const names = async (query: string) => (await searchUsers(db, { query, skip: 0, take: 10 })).users.map((u) => u.username).sort();
      assert.deepEqual(await names(`b_${t}`), [`ab_${t}`]);
      assert.deepEqual(await names(`AB_${t.toUpperCase()}`), [`ab_${t}`]);
      assert.deepEqual(await names(`100% sure ${t}`), [`pct-${t}`]);
      assert.equal((await searchUsers(db, { query: '%', skip: 0, take: 10 })).total, 1, 'only the one name with a % in it');
      assert.equal((await searchUsers(db, { query: `\\${t}`, skip: 0, take: 10 })).total, 0, 'a backslash is a character too');
    });

    test('clients and the audit log: the same', async () => {
      const db = await storage.open();
      await registerClient(db, { name: `Shop_${t}`, redirectUris: ['https://shop.example/cb'] });
      await registerClient(db, { name: `Shopx${t}`, redirectUris: ['https://shop.example/cb'] });
      const clients = await searchClients(db, { query: `shop_${t}`, skip: 0, take: 10 });
      assert.deepEqual(
        clients.clients.map((c) => c.name),
        [`Shop_${t}`],
      );

      for (const username of [`au_${t}`, `aux${t}`]) {
        await recordAudit(db, {
          action: 'user.enabled',
          actor: { id: null, username },
          target: { type: 'user', id: `id-${username}`, label: username },
          details: {},
        });
      }
      const byActor = await listAuditEvents(db, { actor: `AU_${t}` }, { skip: 0, take: 10 });
      assert.deepEqual(
        byActor.events.map((e) => e.actor?.username),
        [`au_${t}`],
      );
      const byTarget = await listAuditEvents(db, { target: `u_${t}` }, { skip: 0, take: 10 });
      assert.deepEqual(
        byTarget.events.map((e) => e.target?.label),
        [`au_${t}`],
      );
    });
  });
}
