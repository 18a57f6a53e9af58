// The audit hash chain on SQLite and PostgreSQL: appends from two handles make one chain; rows changed, deleted or
// reordered with SQL are each named by verify; a retention cut keeps what is left verifiable; a forged checkpoint shows.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { closeHandle, openDatabase, type Database } from '../db/database.ts';
import { insertSigningKey } from '../db/secrets.ts';
import { testDatabases } from '../db/testing.ts';
import { generateSigningJwk } from '../oidc/keys.ts';
import { entryHash } from './chain.ts';
import { checkpointChain } from './checkpoints.ts';
import { recordAudit } from './log.ts';
import { purgeAuditEventsBefore } from './retention.ts';
import { type ChainProblem, verifyAuditChain } from './verify.ts';

const append = (db: Database, label: string, at?: Date) =>
  recordAudit(db, { action: 'user.enabled', actor: { id: 'admin-1', username: 'root' }, target: { type: 'user', id: label, label }, details: {} }).then(
    () => at,
  );

async function withKey(db: Database): Promise<void> {
  const jwk = generateSigningJwk('ES256');
  await insertSigningKey(db, { kid: jwk.kid, alg: 'ES256', privateJwk: jwk as unknown as Record<string, unknown> });
}

/** A row written straight to the table, as code from before the chain would: no seq, no hashes. */
const insertUnchained = (db: Database, id: string) =>
  db.prisma.auditEvent.create({
    data: {
      id,
      at: new Date(),
      action: 'user.enabled',
      actorId: null,
      actorUsername: null,
      targetType: null,
      targetId: null,
      targetLabel: null,
      ip: null,
      userAgent: null,
      details: '{}',
    },
  });

const seqOf = async (db: Database, label: string) =>
  Number((await db.sql.one<{ seq: number }>('SELECT seq FROM audit_events WHERE target_label = ?', [label]))!.seq);

for (const storage of testDatabases('audit-chain')) {
  describe(`audit chain on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('appends from two handles at once make one unbroken chain, numbered 1, 2, 3 ...', async () => {
      const db = await storage.open();
      await withKey(db);
      assert.equal((await checkpointChain(db, new Date()))[0]?.reason, 'genesis');
      const other = openDatabase(storage.url!);
      try {
        for (let i = 0; i < 60; i++) await append(db, `seq-${i}`);
        await Promise.all(Array.from({ length: 80 }, (_, i) => append(i % 2 ? db : other, `both-${i}`)));
      } finally {
        await closeHandle(other);
      }
      const seqs = (await db.sql.all<{ seq: number }>('SELECT seq FROM audit_events ORDER BY seq')).map((r) => Number(r.seq));
      assert.deepEqual(
        seqs,
        Array.from({ length: 140 }, (_, i) => i + 1),
      );
      assert.deepEqual(
        (await checkpointChain(db, new Date())).map((c) => [c.reason, c.seq]),
        [['periodic', 140]],
      );
      const report = await verifyAuditChain(db);
      assert.deepEqual(report.problems, []);
      assert.equal(report.ok, true);
      assert.deepEqual([report.entries, report.firstSeq, report.lastSeq], [140, 1, 140]);
      assert.deepEqual(report.checkpoints, { total: 2, valid: 2, unverifiable: 0, forged: 0 });
    });

    test('a field changed, a row deleted, two rows swapped: verify names each, by id and seq', async () => {
      const db = await storage.open();
      const first = async (): Promise<ChainProblem | undefined> => (await verifyAuditChain(db)).problems[0];

      const changed = await seqOf(db, 'seq-10');
      await db.sql.run("UPDATE audit_events SET target_label = 'someone-else' WHERE seq = ?", [changed]);
      let found = await first();
      assert.equal(found?.kind, 'changed');
      assert.equal(found?.seq, changed);
      await db.sql.run("UPDATE audit_events SET target_label = 'seq-10' WHERE seq = ?", [changed]);
      assert.equal((await verifyAuditChain(db)).ok, true, 'put back, it verifies again');

      const gone = await db.sql.one<Record<string, string | number | null>>('SELECT * FROM audit_events WHERE seq = 20');
      await db.sql.run('DELETE FROM audit_events WHERE seq = 20');
      found = await first();
      assert.equal(found?.kind, 'removed');
      assert.match(found?.message ?? '', /entries 20 to 20 are missing/);
      const columns = Object.keys(gone!);
      await db.sql.run(`INSERT INTO audit_events (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, Object.values(gone!) as never);

      const [a, b] = [await seqOf(db, 'seq-30'), await seqOf(db, 'seq-31')];
      const swap = async () => {
        await db.sql.run('UPDATE audit_events SET seq = -1 WHERE seq = ?', [a]);
        await db.sql.run('UPDATE audit_events SET seq = ? WHERE seq = ?', [a, b]);
        await db.sql.run('UPDATE audit_events SET seq = ? WHERE seq = -1', [b]);
      };
      await swap();
      found = await first();
      assert.equal(found?.kind, 'reordered');
      assert.equal(found?.seq, a);
      assert.equal((await verifyAuditChain(db)).problems.length, 1, 'one swap, one problem');
      await swap();

      // A row slipped in outside the chain (no seq), after its genesis.
      await insertUnchained(db, 'slipped-in');
      found = (await verifyAuditChain(db)).problems.find((p) => p.kind === 'inserted');
      assert.equal(found?.id, 'slipped-in');
      await db.sql.run("DELETE FROM audit_events WHERE id = 'slipped-in'");

      // The last entry deleted: the chain's head still says how far it went.
      const last = await db.sql.one<Record<string, string | number | null>>('SELECT * FROM audit_events WHERE seq = 140');
      await db.sql.run('DELETE FROM audit_events WHERE seq = 140');
      assert.equal((await first())?.kind, 'removed');
      const lastColumns = Object.keys(last!);
      await db.sql.run(`INSERT INTO audit_events (${lastColumns.join(', ')}) VALUES (${lastColumns.map(() => '?').join(', ')})`, Object.values(last!) as never);
      assert.equal((await verifyAuditChain(db)).ok, true);
    });

    test('a chain rewritten with fresh hashes from an entry on still differs from its signed checkpoint', async () => {
      const db = await storage.open();
      type Row = Parameters<typeof entryHash>[0] & { seq: number; prevHash: string | null; hash: string | null };
      const rows = (await db.prisma.auditEvent.findMany({ where: { seq: { gte: 50 } }, orderBy: { seq: 'asc' } })) as Row[];
      const saved = rows.map((r) => ({ ...r }));
      let prevHash = rows[0].prevHash!;
      rows[0].targetLabel = 'rewritten';
      for (const row of rows) {
        const hash = entryHash(row, prevHash);
        await db.prisma.auditEvent.update({ where: { id: row.id }, data: { targetLabel: row.targetLabel, prevHash, hash } });
        prevHash = hash;
      }
      await db.prisma.auditChainHead.update({ where: { id: 'audit' }, data: { hash: prevHash } });
      const report = await verifyAuditChain(db);
      assert.equal(report.ok, false);
      assert.deepEqual(
        report.problems.map((p) => [p.kind, p.seq]),
        [['changed', 140]],
        'the periodic checkpoint signed seq 140',
      );
      for (const row of saved)
        await db.prisma.auditEvent.update({ where: { id: row.id }, data: { targetLabel: row.targetLabel, prevHash: row.prevHash, hash: row.hash } });
      await db.prisma.auditChainHead.update({ where: { id: 'audit' }, data: { hash: saved.at(-1)!.hash! } });
      assert.equal((await verifyAuditChain(db)).ok, true);
    });

    test('a retention cut keeps the rest verifiable; a removed start without a checkpoint does not', async () => {
      const db = await storage.open();
      await new Promise((r) => setTimeout(r, 5));
      const cut = new Date();
      await new Promise((r) => setTimeout(r, 5));
      await append(db, 'kept');
      const kept = await seqOf(db, 'kept');
      assert.equal(await purgeAuditEventsBefore(db, cut, new Date()), 140);
      const report = await verifyAuditChain(db);
      assert.deepEqual(report.problems, []);
      assert.deepEqual([report.entries, report.firstSeq, report.lastSeq], [1, kept, kept]);

      const cutCheckpoint = (await db.prisma.auditCheckpoint.findFirst({ where: { reason: 'retention' } }))!;
      await db.prisma.auditCheckpoint.delete({ where: { id: cutCheckpoint.id } });
      const unexplained = await verifyAuditChain(db);
      assert.equal(unexplained.problems[0]?.kind, 'removed');
      assert.match(unexplained.problems[0]?.message ?? '', /no signed checkpoint records their removal/);
      await db.prisma.auditCheckpoint.create({ data: cutCheckpoint });
    });

    test('a checkpoint whose payload was changed is forged; one by a key nobody kept is unverifiable, not broken', async () => {
      const db = await storage.open();
      const [checkpoint] = await checkpointChain(db, new Date());
      assert.ok(checkpoint);
      const [header, payload, signature] = checkpoint.jws.split('.');
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
      const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, hash: 'f'.repeat(64) })).toString('base64url')}.${signature}`;
      await db.prisma.auditCheckpoint.update({ where: { id: checkpoint.id }, data: { jws: forged } });
      const report = await verifyAuditChain(db);
      assert.equal(report.ok, false);
      assert.equal(report.problems[0]?.kind, 'checkpoint_forged');
      assert.equal(report.problems[0]?.id, checkpoint.id);

      const otherKey = `${Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(header, 'base64url').toString()), kid: 'gone' })).toString('base64url')}.${payload}.${signature}`;
      await db.prisma.auditCheckpoint.update({ where: { id: checkpoint.id }, data: { jws: otherKey } });
      const retired = await verifyAuditChain(db);
      assert.equal(retired.ok, true);
      assert.deepEqual([retired.checkpoints.unverifiable, retired.unverifiableKids], [1, ['gone']]);
    });

    test('an append during a Prisma transaction of the same process waits for it, without holding up the process', async () => {
      const db = await storage.open();
      const started = Date.now();
      let appended: Promise<unknown> | undefined;
      await db.prisma.$transaction(async (tx) => {
        // A write: on SQLite the transaction now holds the database's write lock until it ends.
        await tx.auditChainHead.update({ where: { id: 'audit' }, data: { updatedAt: new Date() } });
        appended = append(db, 'during-a-transaction');
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      await appended;
      assert.ok(Date.now() - started < 3000, `${Date.now() - started} ms: the transaction's timer ran on time`);
      assert.ok(await seqOf(db, 'during-a-transaction'));
      assert.equal((await verifyAuditChain(db)).ok, true);
    });
  });
}
