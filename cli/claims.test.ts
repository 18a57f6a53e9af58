/**
 * `gatehouse attribute | claim`, in-process on a temporary SQLite database: an attribute declared, a person's value
 * set, mapped to a claim for a client, which is what the provider reads for that client's tokens; every change in
 * the audit log; bad input exits 2, unknown names 1.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { closeDatabase, database } from '../lib/db/database.ts';
import { migrate } from '../lib/db/migrate.ts';
import { mappedClaims } from '../lib/claims/repository.ts';
import { createUser } from '../lib/users/manage.ts';
import { cliRunner, failure, ok } from './testing.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'gatehouse-cli-claims-'));
const url = `file:${path.join(dir, 'gatehouse.db')}`;
const gatehouse = cliRunner(url);
const json = async (args: string[]) => JSON.parse(ok(await gatehouse([...args, '--json'])).stdout);
let clientId = '';
let aliceId = '';

before(async () => {
  await migrate(url);
  aliceId = (await createUser(database(url), { username: 'alice', password: 'correct horse battery', email: null, name: 'Alice', role: 'user' })).id;
  clientId = (await json(['client', 'create', '--name', 'Payroll', '--redirect-uri', 'https://payroll.example/cb', '--scopes', 'openid profile'])).client_id;
});
after(async () => {
  await closeDatabase(url);
  rmSync(dir, { recursive: true, force: true });
});

test("an attribute, alice's value, mapped to a claim for one client: that client's claims carry it, until unmapped", async () => {
  const created = await json(['attribute', 'create', 'employee_no', '--name', 'Employee number', '--type', 'number']);
  assert.deepEqual(
    { ...created, created_at: undefined },
    {
      key: 'employee_no',
      name: 'Employee number',
      type: 'number',
      editable_by: 'admin',
      created_at: undefined,
    },
  );
  assert.deepEqual(
    (await json(['attribute', 'list'])).map((a: { key: string }) => a.key),
    ['employee_no'],
  );
  assert.deepEqual((await json(['attribute', 'set', 'alice', 'employee_no', '4711'])).values, { employee_no: 4711 });
  assert.deepEqual((await json(['attribute', 'show', 'alice'])).values, { employee_no: 4711 });

  assert.deepEqual(await json(['claim', 'map', clientId, 'employee_number', 'employee_no']), [{ claim: 'employee_number', attribute: 'employee_no' }]);
  const db = database(url);
  assert.deepEqual(await mappedClaims(db, clientId, aliceId), { employee_number: 4711 });
  assert.deepEqual(await json(['claim', 'list', clientId]), [{ claim: 'employee_number', attribute: 'employee_no' }]);

  assert.deepEqual(await json(['claim', 'unmap', clientId, 'employee_number']), []);
  assert.deepEqual(await mappedClaims(db, clientId, aliceId), {});

  assert.deepEqual((await json(['attribute', 'set', 'alice', 'employee_no', ''])).values, {}, 'an empty value removes it');
  assert.deepEqual(await json(['attribute', 'delete', 'employee_no']), { key: 'employee_no', deleted: true });

  const actions = (await db.prisma.auditEvent.findMany({ select: { action: true } })).map((e) => e.action);
  for (const action of ['attribute.created', 'user.updated', 'client.claim_mapped', 'client.claim_unmapped', 'attribute.deleted']) {
    assert.ok(actions.includes(action), action);
  }
});

test('bad input exits 2; unknown names and a taken key exit 1', async () => {
  const badKey = await gatehouse(['attribute', 'create', 'Bad-Key', '--name', 'X']);
  assert.equal(badKey.code, 2);
  assert.match(failure(badKey), /key/);
  await json(['attribute', 'create', 'team', '--name', 'Team']);
  const taken = await gatehouse(['attribute', 'create', 'team', '--name', 'Again']);
  assert.equal(taken.code, 1);
  const reserved = await gatehouse(['claim', 'map', clientId, 'email', 'team']);
  assert.equal(reserved.code, 2, 'a claim Gatehouse gives with its own meaning is refused');
  const count = await gatehouse(['attribute', 'create', 'seats', '--name', 'Seats', '--type', 'number']);
  ok(count);
  const notANumber = await gatehouse(['attribute', 'set', 'alice', 'seats', 'many']);
  assert.equal(notANumber.code, 2);
  const nobody = await gatehouse(['attribute', 'set', 'nobody', 'team', 'x']);
  assert.equal(nobody.code, 1);
  assert.match(failure(nobody), /no user named nobody/);
  const noClient = await gatehouse(['claim', 'map', 'no-such-client', 'team_name', 'team']);
  assert.equal(noClient.code, 1);
  const noAttribute = await gatehouse(['claim', 'map', clientId, 'team_name', 'no_such']);
  assert.equal(noAttribute.code, 1);
});
