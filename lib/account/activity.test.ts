// A person's recent activity, from the audit log, on SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { testDatabases } from '../db/testing.ts';
import { recordAudit } from '../audit/log.ts';
import { recentActivity } from './activity.ts';
import { describeUserAgent, summarizeUserAgent } from '../platform/user-agent.ts';
import { person } from './testing.ts';

test('user agents read as a browser and a system', () => {
  const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36';
  const safari = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';
  const edge = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0';
  const firefox = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.0; rv:128.0) Gecko/20100101 Firefox/128.0';
  assert.equal(describeUserAgent(chrome), 'Chrome on Linux');
  assert.equal(describeUserAgent(safari), 'Safari on iOS');
  assert.equal(describeUserAgent(edge), 'Edge on Windows');
  assert.equal(describeUserAgent(firefox), 'Firefox on macOS');
  assert.equal(describeUserAgent('gatehouse-cli'), 'gatehouse-cli');
  assert.equal(describeUserAgent(`curl/8.0 ${'x'.repeat(100)}`)?.length, 60);
  assert.equal(describeUserAgent(null), null);
  assert.deepEqual(summarizeUserAgent(chrome), { browser: 'Chrome', system: 'Linux' });
  assert.deepEqual(summarizeUserAgent('gatehouse-cli'), { other: 'gatehouse-cli' });
  assert.equal(summarizeUserAgent(null), null);
});

for (const storage of testDatabases('account-activity')) {
  describe(`recent activity on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('newest first: who acted (the person, an administrator unnamed, someone not signed in, Gatehouse), the app, where from', async () => {
      const db = await storage.open();
      const { holder } = await person(db);
      const me = { id: holder.id, username: holder.username };
      const target = { type: 'user' as const, id: holder.id, label: holder.username };
      const from = { ip: '203.0.113.9', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0' };
      await recordAudit(db, { action: 'user.created', actor: null, target, details: { role: 'user' } });
      await recordAudit(db, { action: 'sign_in.failed', actor: null, target, context: from, details: { username: holder.username, reason: 'wrong_password' } });
      await recordAudit(db, { action: 'sign_in.succeeded', actor: me, target, context: from, details: { clientId: 'c1', clientName: 'Notes' } });
      await recordAudit(db, { action: 'user.password_changed', actor: { id: 'admin-1', username: 'root' }, target, context: from, details: {} });

      const entries = await recentActivity(db, holder);
      assert.deepEqual(
        entries.map((e) => [e.what, e.action, e.by, e.app]),
        [
          ['Password changed', 'user.password_changed', 'administrator', null],
          ['Signed in', 'sign_in.succeeded', 'you', 'Notes'],
          ['Sign-in failed', 'sign_in.failed', 'someone', null],
          ['User created', 'user.created', 'gatehouse', null],
        ],
      );
      assert.deepEqual([entries[1].ip, entries[1].browser], ['203.0.113.9', 'Firefox on Linux']);
      assert.deepEqual(entries[1].agent, { browser: 'Firefox', system: 'Linux' }, 'in no language, for /account to word');
      assert.ok(!JSON.stringify(entries).includes('root'), 'administrators are not named');
    });
  });
}
