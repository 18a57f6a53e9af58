// TOTP enrolment and the second step of signing in, on SQLite and PostgreSQL, on a fixed clock.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Database } from '../db/database.ts';
import { testDatabases } from '../db/testing.ts';
import { auditEventsFor } from '../audit/log.ts';
import { person } from '../account/testing.ts';
import { beginTotpEnrolment, confirmTotpEnrolment, regenerateOwnRecoveryCodes, removeOwnTotp, twoStepStatus } from '../account/two-step.ts';
import { unknownUsernameFailures } from '../platform/source-counts.ts';
import { testContext } from '../testing.ts';
import { hasSecondFactor, verifySecondStep, type SecondStepContext } from './second-step.ts';
import { TOTP_PERIOD, totpCode } from './totp.ts';

/** A step boundary plus a few seconds, so ±1 step is exactly one period either way. */
const T0 = 1_800_000_000_000 - (1_800_000_000_000 % (TOTP_PERIOD * 1000)) + 5_000;
const STEP = TOTP_PERIOD * 1000;

const formOf = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
};

const at = (db: Database, now: number): SecondStepContext => ({ ...testContext(db), now: () => now });

/** A person with TOTP on, enrolled at T0 - 10 steps (so the codes around T0 are unused); their secret and recovery codes. */
async function enrolled(db: Database) {
  const who = await person(db);
  const ctx = at(db, T0 - 10 * STEP);
  await beginTotpEnrolment(ctx, who.holder);
  const pending = await twoStepStatus(ctx, who.holder);
  assert.equal(pending.status, 'pending');
  const secret = pending.status === 'pending' ? pending.secret : '';
  const confirmed = await confirmTotpEnrolment(ctx, who.holder, formOf({ code: totpCode(secret, T0 - 10 * STEP) }), who.by);
  assert.equal(confirmed.status, 'codes');
  const recoveryCodes = confirmed.status === 'codes' ? confirmed.recoveryCodes : [];
  return { ...who, secret, recoveryCodes };
}

for (const storage of testDatabases('second-step')) {
  describe(`TOTP and recovery codes on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('enrolment: pending until a first code confirms it; posting the start twice keeps one secret; confirming twice changes nothing', async () => {
      const db = await storage.open();
      const { holder, by } = await person(db);
      const ctx = at(db, T0);
      assert.deepEqual(await twoStepStatus(ctx, holder), { status: 'off' });
      await beginTotpEnrolment(ctx, holder);
      const first = await twoStepStatus(ctx, holder);
      await beginTotpEnrolment(ctx, holder);
      assert.deepEqual(await twoStepStatus(ctx, holder), first, 'the second start keeps the first secret');
      assert.equal(await hasSecondFactor(db, holder.id), false, 'pending does not count');
      const secret = first.status === 'pending' ? first.secret : '';
      assert.match(secret, /^[A-Z2-7]{32}$/);

      const wrong = await confirmTotpEnrolment(ctx, holder, formOf({ code: totpCode(secret, T0 + 5 * STEP) }), by);
      assert.equal(wrong.status, 'invalid');
      const done = await confirmTotpEnrolment(ctx, holder, formOf({ code: totpCode(secret, T0) }), by);
      assert.equal(done.status, 'codes');
      assert.equal(done.status === 'codes' && done.recoveryCodes.length, 10);
      assert.equal(await hasSecondFactor(db, holder.id), true);
      const again = await confirmTotpEnrolment(ctx, holder, formOf({ code: totpCode(secret, T0 + STEP) }), by);
      assert.deepEqual(again, { status: 'invalid', errors: { form: [{ code: 'two_step_on' }] } });
      const status = await twoStepStatus(ctx, holder);
      assert.equal(status.status, 'on');
      assert.ok(!JSON.stringify(status).includes(secret), 'the secret is not shown once it is on');
      const actions = (await auditEventsFor(db, { involvingUserId: holder.id })).map((e) => e.action);
      assert.deepEqual(actions, ['factor.enrolled']);
    });

    test('the secret is stored sealed, not as its base32', async () => {
      const db = await storage.open();
      const { user, secret } = await enrolled(db);
      const row = await db.prisma.userFactor.findFirstOrThrow({ where: { userId: user.id } });
      assert.notEqual(row.secret, secret);
      assert.ok(!row.secret.includes(secret));
      assert.match(row.secret, /^v1\./);
      const codes = await db.prisma.recoveryCode.findMany({ where: { userId: user.id } });
      assert.equal(codes.length, 10);
      for (const code of codes) assert.match(code.hash, /^[0-9a-f]{64}$/);
    });

    test('a code of the previous or next step is accepted; two steps away is refused; a code works once', async () => {
      const db = await storage.open();
      const { user, secret } = await enrolled(db);
      const who = { id: user.id, username: user.username };
      const previous = await verifySecondStep(at(db, T0), who, { method: 'totp', code: totpCode(secret, T0 - STEP) }, {});
      assert.deepEqual(previous, { status: 'verified', method: 'totp' });
      const farAhead = await verifySecondStep(at(db, T0), who, { method: 'totp', code: totpCode(secret, T0 + 2 * STEP) }, {});
      assert.deepEqual(farAhead, { status: 'refused', problem: 'wrong_code' });
      const next = await verifySecondStep(at(db, T0), who, { method: 'totp', code: totpCode(secret, T0 + STEP) }, {});
      assert.deepEqual(next, { status: 'verified', method: 'totp' });
      const reused = await verifySecondStep(at(db, T0 + STEP), who, { method: 'totp', code: totpCode(secret, T0 + STEP) }, {});
      assert.deepEqual(reused, { status: 'refused', problem: 'code_used' });
      const older = await verifySecondStep(at(db, T0), who, { method: 'totp', code: totpCode(secret, T0) }, {});
      assert.deepEqual(older, { status: 'refused', problem: 'code_used' }, 'a code older than the last one used is refused too');
      const reasons = (await auditEventsFor(db, { involvingUserId: user.id }))
        .filter((e) => e.action === 'sign_in.second_factor_failed')
        .map((e) => e.details.reason);
      assert.deepEqual(reasons.sort(), ['replayed', 'replayed', 'wrong']);
    });

    test('two concurrent uses of one code: exactly one passes', async () => {
      const db = await storage.open();
      const { user, secret } = await enrolled(db);
      const who = { id: user.id, username: user.username };
      const code = totpCode(secret, T0);
      const outcomes = await Promise.all(Array.from({ length: 5 }, () => verifySecondStep(at(db, T0), who, { method: 'totp', code }, {})));
      assert.equal(outcomes.filter((o) => o.status === 'verified').length, 1);
    });

    test('letters, seven digits or nothing: refused with what is wrong, nothing counted or changed', async () => {
      const db = await storage.open();
      const { user, secret } = await enrolled(db);
      const who = { id: user.id, username: user.username };
      const before = await db.prisma.userFactor.findFirstOrThrow({ where: { userId: user.id } });
      for (const [code, error] of [
        ['12a456', 'code_letters'],
        ['1234567', 'code_length'],
        ['', 'code_missing'],
        ['   ', 'code_missing'],
      ] as const) {
        assert.deepEqual(await verifySecondStep(at(db, T0), who, { method: 'totp', code }, {}), { status: 'refused', problem: error });
      }
      assert.deepEqual(await verifySecondStep(at(db, T0), who, { method: 'recovery_code', code: 'short' }, {}), {
        status: 'refused',
        problem: 'recovery_code_format',
      });
      assert.deepEqual(await db.prisma.userFactor.findFirstOrThrow({ where: { userId: user.id } }), before);
      assert.deepEqual(await auditEventsFor(db, { involvingUserId: user.id, actions: ['sign_in.second_factor_failed'] }), []);
      // "123 456" as apps show it is fine.
      const spaced = totpCode(secret, T0).replace(/^(\d{3})/, '$1 ');
      assert.deepEqual(await verifySecondStep(at(db, T0), who, { method: 'totp', code: spaced }, {}), { status: 'verified', method: 'totp' });
      // The enrolment form says the same.
      const { holder: other, by: otherBy } = await person(db);
      await beginTotpEnrolment(at(db, T0), other);
      assert.deepEqual(await confirmTotpEnrolment(at(db, T0), other, formOf({ code: 'abcdef' }), otherBy), {
        status: 'invalid',
        errors: { code: [{ code: 'code_letters' }] },
      });
      assert.equal((await twoStepStatus(at(db, T0), other)).status, 'pending');
    });

    test('recovery codes: each works once, whatever its case and dashes; using one is audited with what remains', async () => {
      const db = await storage.open();
      const { user, recoveryCodes } = await enrolled(db);
      const who = { id: user.id, username: user.username };
      const [first, second] = recoveryCodes;
      assert.match(first, /^[0-9a-z]{4}(-[0-9a-z]{4}){3}$/);
      assert.deepEqual(await verifySecondStep(at(db, T0), who, { method: 'recovery_code', code: first.toUpperCase().replace(/-/g, ' ') }, {}), {
        status: 'verified',
        method: 'recovery_code',
        remaining: 9,
      });
      assert.deepEqual(await verifySecondStep(at(db, T0), who, { method: 'recovery_code', code: first }, {}), { status: 'refused', problem: 'wrong_code' });
      assert.deepEqual(await verifySecondStep(at(db, T0), who, { method: 'recovery_code', code: second }, {}), {
        status: 'verified',
        method: 'recovery_code',
        remaining: 8,
      });
      const used = await auditEventsFor(db, { involvingUserId: user.id, actions: ['recovery_code.used'] });
      assert.deepEqual(used.map((e) => e.details.remaining).sort(), [8, 9]);
      assert.ok(!JSON.stringify(used).includes(first), 'never the code');
    });

    test('regenerating needs the password and replaces every code; removing needs the password and takes codes with it', async () => {
      const db = await storage.open();
      const { user, holder, by, password, recoveryCodes } = await enrolled(db);
      const who = { id: user.id, username: user.username };
      const ctx = at(db, T0);
      assert.deepEqual(await regenerateOwnRecoveryCodes(ctx, holder, formOf({ currentPassword: 'wrong' }), by), {
        status: 'invalid',
        errors: { currentPassword: [{ code: 'wrong_password' }] },
      });
      const fresh = await regenerateOwnRecoveryCodes(ctx, holder, formOf({ currentPassword: password }), by);
      assert.equal(fresh.status, 'codes');
      const newCodes = fresh.status === 'codes' ? fresh.recoveryCodes : [];
      assert.deepEqual(await verifySecondStep(ctx, who, { method: 'recovery_code', code: recoveryCodes[0] }, {}), { status: 'refused', problem: 'wrong_code' });
      assert.deepEqual(await verifySecondStep(ctx, who, { method: 'recovery_code', code: newCodes[0] }, {}), {
        status: 'verified',
        method: 'recovery_code',
        remaining: 9,
      });

      assert.equal((await removeOwnTotp(ctx, holder, formOf({ currentPassword: '' }), by)).status, 'invalid');
      assert.equal(await hasSecondFactor(db, user.id), true);
      assert.deepEqual(await removeOwnTotp(ctx, holder, formOf({ currentPassword: password }), by), { status: 'removed' });
      assert.equal(await hasSecondFactor(db, user.id), false);
      assert.equal(await db.prisma.recoveryCode.count({ where: { userId: user.id } }), 0);
      const actions = (await auditEventsFor(db, { involvingUserId: user.id })).map((e) => e.action);
      for (const action of ['factor.enrolled', 'recovery_codes.regenerated', 'password.check_failed', 'recovery_code.used', 'factor.removed'])
        assert.ok(actions.includes(action as never), action);
    });

    test('code guesses are throttled: past the free failures the next attempt waits, without a code being checked', async () => {
      const db = await storage.open();
      const { user, secret } = await enrolled(db);
      const who = { id: user.id, username: user.username };
      const right = totpCode(secret, T0);
      const wrong = right === '000000' ? '111111' : '000000';
      let outcome = await verifySecondStep(at(db, T0), who, { method: 'totp', code: wrong }, {});
      for (let i = 0; i < 20 && !(outcome.status === 'throttled'); i++) {
        outcome = await verifySecondStep(at(db, T0), who, { method: 'totp', code: wrong }, {});
      }
      assert.equal(outcome.status, 'throttled');
      const refused = await verifySecondStep(at(db, T0), who, { method: 'totp', code: right }, {});
      assert.equal(refused.status, 'throttled', 'even the right code waits');
      const reasons = (await auditEventsFor(db, { involvingUserId: user.id, actions: ['sign_in.second_factor_failed'] })).map((e) => e.details.reason);
      assert.ok(reasons.includes('throttled'));
    });

    test('refused attempts are aggregated: one audit entry a minute per source, with a count, however many come', async () => {
      const db = await storage.open();
      const { user, secret } = await enrolled(db);
      const who = { id: user.id, username: user.username };
      const wrong = totpCode(secret, T0) === '000000' ? '111111' : '000000';
      let clock = T0;
      // One process's aggregation, written when asked (flushDue) rather than by a timer.
      const ctx: SecondStepContext = { ...at(db, T0), signInFailures: unknownUsernameFailures({ timer: false, clock: () => clock }) };
      const from = (ip: string) => ({ ip, userAgent: 'guesser' });
      for (let i = 0; i < 20; i++) {
        const outcome = await verifySecondStep(ctx, who, { method: 'totp', code: wrong }, from('203.0.113.7'));
        if (outcome.status === 'throttled') break;
      }
      const throttled = async () =>
        (await auditEventsFor(db, { involvingUserId: user.id, actions: ['sign_in.second_factor_failed'] }))
          .filter((e) => e.details.reason === 'throttled')
          .map((e) => [e.ip, e.details.count]);
      assert.deepEqual(await throttled(), [['203.0.113.7', 1]], 'the first refusal is written at once');
      for (let i = 0; i < 46; i++) await verifySecondStep(ctx, who, { method: 'totp', code: wrong }, from('203.0.113.7'));
      await verifySecondStep(ctx, who, { method: 'totp', code: wrong }, from('198.51.100.9'));
      assert.equal((await throttled()).length, 2, 'the rest of the minute waits; another source has its own entry');
      clock += 60_000;
      await ctx.signInFailures.flushDue();
      assert.deepEqual((await throttled()).sort(), [
        ['198.51.100.9', 1],
        ['203.0.113.7', 1],
        ['203.0.113.7', 46],
      ]);
    });
  });
}
