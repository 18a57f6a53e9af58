// Importing people on SQLite and PostgreSQL, with hashes made by the real libraries (bcryptjs, @node-rs/argon2,
// node:crypto's scrypt and pbkdf2, a Keycloak-shaped export): sign-in with the original password, a wrong one
// refused, the hash replaced by argon2id at the first sign-in; idempotent by external id; refused lines reported.
import assert from 'node:assert/strict';
import { pbkdf2Sync, randomBytes, scryptSync } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, test } from 'node:test';
import { hash as argon2Hash } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { auditEventsFor, BY_CLI } from '../audit/log.ts';
import { createGroup } from '../authorization/manage.ts';
import { dropRefusal, refuseInserts, testDatabases } from '../db/testing.ts';
import { authenticate } from '../sign-in/authentication.ts';
import { testContext } from '../testing.ts';
import type { Database } from '../db/database.ts';
import { exportLines } from './export.ts';
import { importRecords, type ImportFormat } from './import-format.ts';
import { importUsers, type ImportOptions } from './import.ts';
import { changePassword, insertNewUser } from './manage.ts';
import { createEndpoint, deleteEndpoint, listEndpoints } from '../webhooks/manage.ts';

const tag = () => randomBytes(4).toString('hex');
const b64 = (bytes: Buffer) => bytes.toString('base64');
const jsonl = (rows: object[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

async function run(db: Database, text: string, format: ImportFormat = 'jsonl', options: ImportOptions = {}) {
  // In small chunks, so records and multi-line CSV cells cross chunk boundaries as a file's stream does.
  const chunks = (async function* () {
    for (let i = 0; i < text.length; i += 7) yield Buffer.from(text.slice(i, i + 7));
  })();
  return importUsers(db, importRecords(chunks, format), BY_CLI, options);
}

async function stored(db: Database, externalId: string) {
  const row = await db.prisma.userImport.findUnique({
    where: { externalId },
    select: {
      passwordImported: true,
      user: { select: { id: true, passwordHash: true, username: true, email: true, emailVerified: true, name: true, disabled: true } },
    },
  });
  return row ? { ...row.user, passwordImported: row.passwordImported } : null;
}

/** A hash of `password` in each format a real tool writes, as an import line's fields. */
async function hashedLines(password: string, t: string) {
  const salt = randomBytes(16);
  const pbkdf2 = (digest: string, iterations: number) => pbkdf2Sync(password, salt, iterations, digest === 'sha1' ? 20 : 32, digest);
  const scrypt = scryptSync(password, salt, 32, { N: 2 ** 14, r: 8, p: 1 });
  const djangoSalt = 'Qx7uVdPcM0aZ';
  return {
    bcrypt_2b: { password_hash: bcrypt.hashSync(password, 4) },
    // PHP's password_hash writes $2y$, OpenBSD's older $2a$: the same algorithm.
    bcrypt_2y: { password_hash: bcrypt.hashSync(password, 4).replace(/^\$2b\$/, '$2y$') },
    bcrypt_2a: { password_hash: bcrypt.hashSync(password, 4).replace(/^\$2b\$/, '$2a$') },
    argon2id: { password_hash: await argon2Hash(password, { algorithm: 2, memoryCost: 4096, timeCost: 3, parallelism: 1 }) },
    argon2i: { password_hash: await argon2Hash(password, { algorithm: 1, memoryCost: 4096, timeCost: 3, parallelism: 1 }) },
    argon2d: { password_hash: await argon2Hash(password, { algorithm: 0, memoryCost: 4096, timeCost: 3, parallelism: 1 }) },
    scrypt: { password_hash: `$scrypt$ln=14,r=8,p=1$${b64(salt).replace(/=+$/, '')}$${b64(scrypt).replace(/=+$/, '')}` },
    pbkdf2_phc: { password_hash: `$pbkdf2-sha512$i=1000$${b64(salt).replace(/=+$/, '')}$${b64(pbkdf2('sha512', 1000)).replace(/=+$/, '')}` },
    django: { password_hash: `pbkdf2_sha256$1200$${djangoSalt}$${b64(pbkdf2Sync(password, djangoSalt, 1200, 32, 'sha256'))}` },
    keycloak_fields_sha1: { password_hash: b64(pbkdf2('sha1', 1500)), password_salt: b64(salt), password_iterations: 1500, password_algorithm: 'pbkdf2' },
    keycloak_fields_sha256: {
      password_hash: b64(pbkdf2('sha256', 2700)),
      password_salt: b64(salt),
      password_iterations: '2700',
      password_algorithm: 'pbkdf2-sha256',
    },
    // A realm export's user as `jq '.users[]'` gives it, its credential as Keycloak writes it.
    keycloak_credentials: {
      credentials: [
        {
          type: 'password',
          createdDate: 1700000000000,
          secretData: JSON.stringify({ value: b64(pbkdf2Sync(password, salt, 2100, 64, 'sha512')), salt: b64(salt), additionalParameters: {} }),
          credentialData: JSON.stringify({ hashIterations: 2100, algorithm: 'pbkdf2-sha512', additionalParameters: {} }),
        },
      ],
    },
    tag: t,
  };
}

/** The only webhook endpoint, wanting what a person's changes raise. */
async function freshEndpoint(db: Database) {
  for (const endpoint of await listEndpoints(db)) await deleteEndpoint(db, endpoint.id);
  return createEndpoint(db, { url: 'http://127.0.0.1:9/hooks', events: ['user.created', 'user.updated'] });
}

for (const storage of testDatabases('user-import')) {
  describe(`user import on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('every hash format signs in with its original password only, and the first sign-in stores argon2id in its place', async () => {
      const db = await storage.open();
      const password = `original password ${tag()}`;
      const { tag: t, ...formats } = await hashedLines(password, tag());
      const lines = Object.entries(formats).map(([format, fields]) => ({ external_id: `${format}-${t}`, username: `${format}-${t}`, ...fields }));
      const report = await run(db, jsonl(lines));
      assert.deepEqual(report.rejectedLines, []);
      assert.equal(report.created, lines.length);
      for (const line of lines) {
        const before = await stored(db, line.external_id);
        assert.ok(before?.passwordImported, `${line.username}: marked as imported`);
        assert.doesNotMatch(before!.passwordHash!, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/, `${line.username}: stored as it came, not hashed again`);
        const ctx = testContext(db);
        const wrong = await authenticate(ctx, line.username, `${password}!`);
        assert.equal(wrong.ok, false, `${line.username}: a wrong password is refused`);
        assert.equal((await stored(db, line.external_id))?.passwordHash, before!.passwordHash, 'a failed sign-in changes nothing');
        assert.equal((await authenticate(ctx, line.username, password)).ok, true, `${line.username}: the original password signs in`);
        const after = await stored(db, line.external_id);
        assert.match(after!.passwordHash!, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/, `${line.username}: rehashed with Gatehouse's argon2id`);
        assert.equal(after!.passwordImported, false);
        assert.equal((await authenticate(ctx, line.username, password)).ok, true, `${line.username}: and signs in with it`);
      }
    });

    test('importing again updates by external id and never duplicates; a password set here is kept; a dry run writes nothing', async () => {
      const db = await storage.open();
      const t = tag();
      await createGroup(db, { name: `staff-${t}` });
      await createGroup(db, { name: `ops-${t}` });
      const first = [
        {
          external_id: `kc-1-${t}`,
          username: `ada-${t}`,
          email: `ada-${t}@example.com`,
          email_verified: true,
          name: 'Ada',
          groups: [`staff-${t}`],
          password_hash: bcrypt.hashSync('first secret', 4),
        },
        { external_id: `kc-2-${t}`, username: `bob-${t}`, email: `bob-${t}@example.com`, password_hash: bcrypt.hashSync('bob secret', 4) },
      ];
      const dry = await run(db, jsonl(first), 'jsonl', { dryRun: true });
      assert.deepEqual({ created: dry.created, dryRun: dry.dryRun }, { created: 2, dryRun: true });
      assert.equal(await stored(db, `kc-1-${t}`), null, 'a dry run writes nothing');

      assert.equal((await run(db, jsonl(first))).created, 2);
      const again = await run(db, jsonl(first));
      assert.deepEqual({ created: again.created, updated: again.updated, unchanged: again.unchanged }, { created: 0, updated: 0, unchanged: 2 });
      assert.equal(await db.prisma.userImport.count({ where: { externalId: { in: [`kc-1-${t}`, `kc-2-${t}`] } } }), 2);

      // Bob sets his own password here; Ada's source changed hers and her name, and she joins a second group.
      const bob = await stored(db, `kc-2-${t}`);
      await changePassword(db, bob!.id, 'chosen in gatehouse');
      const changed = [
        { ...first[0], name: 'Ada Lovelace', groups: [`ops-${t}`], password_hash: bcrypt.hashSync('second secret', 4) },
        { ...first[1], password_hash: bcrypt.hashSync('bob changed it upstream', 4) },
      ];
      const update = await run(db, jsonl(changed));
      assert.deepEqual({ created: update.created, updated: update.updated }, { created: 0, updated: 1 }, 'only Ada changed; Bob’s own password stays');
      const ada = await stored(db, `kc-1-${t}`);
      assert.equal(ada?.name, 'Ada Lovelace');
      assert.equal((await authenticate(testContext(db), `ada-${t}`, 'second secret')).ok, true);
      assert.equal((await authenticate(testContext(db), `bob-${t}`, 'chosen in gatehouse')).ok, true);
      assert.equal((await authenticate(testContext(db), `bob-${t}`, 'bob changed it upstream')).ok, false);
      const groups = await db.prisma.groupMember.findMany({ where: { userId: ada!.id }, select: { group: { select: { name: true } } } });
      assert.deepEqual(groups.map((g) => g.group.name).sort(), [`ops-${t}`, `staff-${t}`], 'an import adds to groups, never takes anyone out');

      const entries = await auditEventsFor(db, { actions: ['users.imported'] }, 50);
      assert.ok(
        entries.some((e) => JSON.stringify(e.details).includes('"unchanged":2')),
        'each run is one audit entry',
      );
      assert.doesNotMatch(JSON.stringify(entries), /\$2[aby]\$/, 'no hash in the log');
    });

    test('each person an import creates or changes raises the webhook event the portal raises, once; a dry run and a run that changes nothing raise none', async () => {
      const db = await storage.open();
      const t = tag();
      await createGroup(db, { name: `hooked-${t}` });
      const { endpoint } = await freshEndpoint(db);
      const queued = async () =>
        (await db.prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.id }, orderBy: { id: 'asc' } })).map((row) => ({
          type: row.type,
          subject: row.subject,
          payload: JSON.parse(row.payload) as { type: string; timestamp: string; data: Record<string, unknown> },
        }));
      const people = Array.from({ length: 5 }, (_, i) => ({
        external_id: `hook-${i}-${t}`,
        username: `hook-${i}-${t}`,
        email: `hook-${i}-${t}@example.com`,
        groups: [`hooked-${t}`],
      }));

      const dry = await run(db, jsonl(people), 'jsonl', { dryRun: true, batchSize: 2 });
      assert.equal(dry.created, 5);
      assert.deepEqual(await queued(), [], 'a dry run raises nothing');

      const report = await run(db, jsonl(people), 'jsonl', { batchSize: 2 });
      assert.equal(report.created, 5);
      const created = await queued();
      const ids = await Promise.all(people.map(async (p) => (await stored(db, p.external_id))!.id));
      assert.deepEqual(
        created.map((e) => [e.type, e.subject]),
        ids.map((id) => ['user.created', `user:${id}`]),
        'one user.created per person, in the file’s order; joining a group raises none (as on the group’s page)',
      );
      assert.deepEqual(created[0].payload.data, {
        user: { id: ids[0], username: people[0].username },
        action: 'user.created',
        actor: null,
        details: { role: 'user', email: people[0].email, imported: true },
      });
      // The same shape as a person an admin creates (the CLI's actor is null in both).
      const byAdmin = await insertNewUser(db, { username: `admin-made-${t}`, email: null, name: null, role: 'user' }, null, BY_CLI, {});
      const adminMade = (await queued()).find((e) => e.subject === `user:${byAdmin.id}`)!;
      assert.equal(adminMade.type, 'user.created');
      assert.deepEqual(Object.keys(adminMade.payload).sort(), Object.keys(created[0].payload).sort());
      assert.deepEqual(Object.keys(adminMade.payload.data).sort(), Object.keys(created[0].payload.data).sort());
      const entries = await auditEventsFor(db, { targetType: 'user', targetId: ids[0] });
      assert.deepEqual(
        entries.map((e) => e.action),
        ['user.created'],
        'each event is its audit entry',
      );
      const before = (await queued()).length;

      const again = await run(db, jsonl(people), 'jsonl', { batchSize: 2 });
      assert.equal(again.unchanged, 5);
      assert.equal((await queued()).length, before, 'a run that changes nothing raises nothing');

      const changed = [
        { ...people[0], name: 'Renamed' },
        { ...people[1], disabled: true },
        { ...people[2], username: `hook-2-renamed-${t}`, email: `hook-2-new-${t}@example.com` },
      ];
      const update = await run(db, jsonl(changed), 'jsonl', { batchSize: 2 });
      assert.equal(update.updated, 3);
      const updates = (await queued()).slice(before);
      assert.deepEqual(
        updates.map((e) => [e.type, e.subject, e.payload.data.action, e.payload.data.details]),
        [
          ['user.updated', `user:${ids[0]}`, 'user.updated', { changed: ['name'] }],
          ['user.updated', `user:${ids[1]}`, 'user.disabled', {}],
          ['user.updated', `user:${ids[2]}`, 'user.updated', { changed: ['username', 'email'] }],
        ],
      );
      assert.deepEqual(updates[2].payload.data.user, { id: ids[2], username: `hook-2-renamed-${t}` }, 'named as they are now');
      const runs = await auditEventsFor(db, { actions: ['users.imported'] }, 50);
      assert.ok(
        runs.some((e) => JSON.stringify(e.details).includes('"updated":3')),
        'the run keeps its summary entry',
      );
    });

    test('a batch that fails midway announces nobody it did not write, and writes nobody it did not announce', async () => {
      const db = await storage.open();
      const t = tag();
      const doomed = await createGroup(db, { name: `doomed-${t}` });
      const { endpoint } = await freshEndpoint(db);
      const lines = Array.from({ length: 4 }, (_, i) => ({
        external_id: `half-${i}-${t}`,
        username: `half-${i}-${t}`,
        ...(i === 2 ? { groups: [`doomed-${t}`] } : {}),
      }));
      // A real failure inside the batch's transaction, after its people were inserted: joining this group aborts.
      await refuseInserts(db, `m_${t}`, 'group_members', `NEW.group_id = '${doomed.id}'`);
      const report = await run(db, jsonl(lines), 'jsonl', { batchSize: 4 });
      assert.deepEqual(report.rejectedLines, [{ line: 3, reason: 'could not be written; see the server log' }]);
      const written = await db.prisma.userImport.findMany({ where: { externalId: { startsWith: 'half-' } }, select: { userId: true } });
      assert.equal(written.length, 3);
      const subjects = (await db.prisma.webhookDelivery.findMany({ where: { endpointId: endpoint.id } })).map((row) => row.subject).sort();
      assert.deepEqual(subjects, written.map((row) => `user:${row.userId}`).sort(), 'an event for each person written, none for the one rolled back');
      const audited = await db.prisma.auditEvent.count({ where: { action: 'user.created', targetLabel: { startsWith: 'half-' } } });
      assert.equal(audited, 3);

      // The other way round: the outbox's rows cannot be written, so neither are the people they announce.
      await refuseInserts(db, `d_${t}`, 'webhook_deliveries', 'true');
      const refused = await run(db, jsonl([{ external_id: `gone-${t}`, username: `gone-${t}` }]));
      assert.equal(refused.rejected, 1);
      assert.equal(await stored(db, `gone-${t}`), null, 'no person without their event');
      assert.equal(await db.prisma.auditEvent.count({ where: { action: 'user.created', targetLabel: `gone-${t}` } }), 0);
      await dropRefusal(db, `d_${t}`, 'webhook_deliveries');
      await dropRefusal(db, `m_${t}`, 'group_members');
    });

    test('refused lines come back with their line numbers and reasons, the others are imported', async () => {
      const db = await storage.open();
      const t = tag();
      await run(db, jsonl([{ external_id: `taken-${t}`, username: `taken-${t}`, email: `taken-${t}@example.com` }]));
      const text = [
        JSON.stringify({ external_id: `ok-${t}`, username: `ok-${t}` }),
        '{ not json',
        JSON.stringify({ external_id: `u-${t}`, username: `taken-${t}` }),
        JSON.stringify({ external_id: `e-${t}`, username: `e-${t}`, email: `TAKEN-${t}@example.com` }),
        '',
        JSON.stringify({ external_id: `g-${t}`, username: `g-${t}`, groups: ['nobody-made-this'] }),
        JSON.stringify({ external_id: `h-${t}`, username: `h-${t}`, password_hash: 'md5:5f4dcc3b5aa765d61d8327deb882cf99' }),
        JSON.stringify({ external_id: `ok-${t}`, username: `ok2-${t}` }),
        JSON.stringify({ external_id: `x-${t}`, username: 'has space', shoe_size: 44 }),
        JSON.stringify({ username: `noid-${t}` }),
      ].join('\n');
      const report = await run(db, text);
      assert.equal(report.created, 1);
      assert.equal(report.lines, 9, 'blank lines are not lines of people');
      const reasons = Object.fromEntries(report.rejectedLines.map((r) => [r.line, r.reason]));
      assert.deepEqual(Object.keys(reasons).map(Number), [2, 3, 4, 6, 7, 8, 9, 10]);
      assert.equal(reasons[2], 'not valid JSON');
      assert.match(reasons[3], /username taken-\w+ is another account's/);
      assert.match(reasons[4], /email .* is another account's/);
      assert.match(reasons[6], /no group named nobody-made-this/);
      assert.match(reasons[7], /not a format Gatehouse verifies/);
      assert.doesNotMatch(reasons[7], /5f4dcc3b/, 'the hash is never quoted');
      assert.match(reasons[8], /the same external_id as line 1/);
      assert.match(reasons[9], /username: Username may contain/);
      assert.match(reasons[9], /shoe_size/);
      assert.match(reasons[10], /external_id/);
    });

    test('a user manager’s import cannot change an admin’s account, though it names them by external id', async () => {
      const db = await storage.open();
      const t = tag();
      await run(db, jsonl([{ external_id: `boss-${t}`, username: `boss-${t}`, email: `boss-${t}@example.com` }]));
      const boss = await stored(db, `boss-${t}`);
      await db.prisma.user.update({ where: { id: boss!.id }, data: { role: 'admin' } });
      const takeover = jsonl([
        { external_id: `boss-${t}`, username: `boss-${t}`, email: `attacker-${t}@example.com`, password_hash: bcrypt.hashSync('mine now', 4) },
      ]);
      const manager = { actor: { id: null, username: 'client:hr', role: 'user_manager' as const } };
      const report = await importUsers(db, importRecords(Readable.from([Buffer.from(takeover)]), 'jsonl'), manager);
      assert.deepEqual(report.rejectedLines, [{ line: 1, reason: `boss-${t} has the admin role: your admin role may not change their account` }]);
      assert.equal((await stored(db, `boss-${t}`))?.email, `boss-${t}@example.com`);
      const byAdmin = await importUsers(db, importRecords(Readable.from([Buffer.from(takeover)]), 'jsonl'), {
        actor: { id: null, username: 'client:it', role: 'admin' },
      });
      assert.equal(byAdmin.updated, 1, 'an admin may');
    });

    test('CSV: a header row, quoted cells with commas, quotes and line breaks, groups separated by semicolons, Keycloak’s separate fields', async () => {
      const db = await storage.open();
      const t = tag();
      await createGroup(db, { name: `a-${t}` });
      await createGroup(db, { name: `b-${t}` });
      const salt = randomBytes(16);
      const hash = pbkdf2Sync('csv password', salt, 2000, 32, 'sha256');
      const csv =
        'external_id,username,email,email_verified,name,groups,password_hash,password_salt,password_iterations,password_algorithm\r\n' +
        `c1-${t},csv1-${t},c1-${t}@example.com,true,"Lovelace, Ada ""the first""",a-${t};b-${t},${b64(hash)},${b64(salt)},2000,pbkdf2-sha256\r\n` +
        `c2-${t},csv2-${t},,false,"two\nlines",,,,,\r\n` +
        `c3-${t},csv3-${t},only three cells\r\n`;
      const report = await run(db, csv, 'csv');
      assert.deepEqual(report.rejectedLines, [{ line: 5, reason: '3 cells where the header has 10' }]);
      const one = await stored(db, `c1-${t}`);
      assert.deepEqual(
        { name: one?.name, email: one?.email, verified: one?.emailVerified },
        { name: 'Lovelace, Ada "the first"', email: `c1-${t}@example.com`, verified: true },
      );
      assert.equal((await stored(db, `c2-${t}`))?.name, 'two\nlines');
      assert.equal((await stored(db, `c2-${t}`))?.passwordHash, null, 'no hash: no password signs in');
      assert.equal((await authenticate(testContext(db), `csv1-${t}`, 'csv password')).ok, true);
    });

    test('the export holds no hash and imports again unchanged', async () => {
      const db = await storage.open();
      const t = tag();
      await run(db, jsonl([{ external_id: `ex-${t}`, username: `ex-${t}`, email: `ex-${t}@example.com`, password_hash: bcrypt.hashSync('exported', 4) }]));
      // Someone who came by no import: the export names them by their id alone, which must find them again.
      const local = await insertNewUser(db, { username: `local-${t}`, email: `local-${t}@example.com`, name: 'Local Person', role: 'user' }, null, BY_CLI, {});
      for (const format of ['jsonl', 'csv'] as const) {
        let text = '';
        for await (const chunk of exportLines(db, format)) text += chunk;
        assert.match(text, new RegExp(`ex-${t}@example.com`));
        assert.doesNotMatch(text, /\$2[aby]\$|\$argon2|password_hash|\$pbkdf2|\$scrypt/, `${format}: never a hash`);
        const again = await run(db, text, format);
        assert.deepEqual(again.rejectedLines, [], format);
        assert.equal(again.created, 0, `${format}: everyone is known, by external id or by id`);
      }
      const entries = await auditEventsFor(db, { targetType: 'user', targetId: local.id });
      assert.deepEqual(
        entries.map((e) => e.action),
        ['user.created'],
        'the person of this Gatehouse is found by their id, and nothing of theirs changes',
      );
      assert.equal(await db.prisma.userImport.count({ where: { userId: local.id } }), 0, 'and they still came by no import');
    });
  });
}
