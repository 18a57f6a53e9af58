// AUDIT_RETENTION_DAYS: entries older than the period are deleted, newer ones stay; 0 keeps everything. SQLite and PostgreSQL.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { insertAuditEvent, listAuditEvents } from './repository.ts';
import type { Database } from '../db/database.ts';
import { insertSigningKey } from '../db/secrets.ts';
import { testDatabases } from '../db/testing.ts';
import { generateSigningJwk } from '../oidc/keys.ts';
import { purgeAuditEvents, startAuditRetention } from './retention.ts';

const DAY = 86_400_000;

/** A current signing key: retention signs a checkpoint of the chain's cut before it deletes (lib/audit/checkpoints.ts). */
async function withKey(db: Database): Promise<Database> {
  const jwk = generateSigningJwk('ES256');
  await insertSigningKey(db, { kid: jwk.kid, alg: 'ES256', privateJwk: jwk as unknown as Record<string, unknown> });
  return db;
}

function envOf(value: string): string {
  const script = "import('./lib/config/env.ts').then((m) => { try { console.log(m.env().AUDIT_RETENTION_DAYS); } catch (e) { console.log(e.message); } })";
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, AUDIT_RETENTION_DAYS: value },
    encoding: 'utf8',
  }).trim();
}

test('AUDIT_RETENTION_DAYS is a whole number of days, 0 by default; anything else stops the start with its name', () => {
  assert.equal(envOf(''), '0');
  assert.equal(envOf('90'), '90');
  for (const bad of ['ninety', '-1', '1.5']) assert.match(envOf(bad), /AUDIT_RETENTION_DAYS/, bad);
});

for (const storage of testDatabases('audit-retention')) {
  describe(`audit retention on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('startAuditRetention purges at once and can be stopped', async () => {
      // First: retention cuts the chain's oldest run only, and this entry, written long ago, must be the chain's first.
      const db = await withKey(await storage.open());
      const t = randomBytes(4).toString('hex');
      await insertAuditEvent(db, {
        action: 'user.enabled',
        actorId: null,
        actorUsername: null,
        targetType: 'user',
        targetId: t,
        targetLabel: t,
        ip: null,
        userAgent: null,
        details: '{}',
        at: new Date(Date.now() - 400 * DAY),
      });
      const lines: string[] = [];
      const stop = startAuditRetention(db, { days: 365, log: (line) => lines.push(line), now: Date.now });
      try {
        for (let i = 0; i < 750 && lines.length === 0; i++) await new Promise((r) => setTimeout(r, 20)); // up to 15 s on a loaded machine
        assert.match(lines[0] ?? '', /audit log: deleted \d+ entries older than 365 days/);
        assert.equal((await listAuditEvents(db, { target: t }, { skip: 0, take: 10 })).total, 0);
      } finally {
        stop();
      }
    });
    test('older entries go, in batches; newer ones stay; 0 days deletes nothing', async () => {
      const db = await storage.open();
      const t = randomBytes(4).toString('hex');
      const now = Date.now();
      const add = (label: string, ageDays: number) =>
        insertAuditEvent(db, {
          action: 'user.enabled',
          actorId: null,
          actorUsername: null,
          targetType: 'user',
          targetId: `${label}-${t}`,
          targetLabel: `${label}-${t}`,
          ip: null,
          userAgent: null,
          details: '{}',
          at: new Date(now - ageDays * DAY),
        });
      for (let i = 0; i < 3; i++) await add('old', 40 + i);
      await add('recent', 29);
      await add('new', 0);
      const labels = async () => (await listAuditEvents(db, { target: t }, { skip: 0, take: 10 })).events.map((e) => e.target?.label);

      assert.equal(await purgeAuditEvents(db, 0, now), 0);
      assert.equal((await labels()).length, 5);
      assert.equal(await purgeAuditEvents(db, 30, now), 3);
      assert.deepEqual(await labels(), [`new-${t}`, `recent-${t}`]);
    });
  });
}
