// Passkeys on SQLite and PostgreSQL: registering in /account, and signing in with one (alone or as the second step),
// answered by a software authenticator that can also send what a browser never would.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Database } from '../db/database.ts';
import { countPasskeys, deleteTotp, listPasskeys } from './repository.ts';
import { testDatabases } from '../db/testing.ts';
import { auditEventsFor } from '../audit/log.ts';
import { person } from '../account/testing.ts';
import { finishPasskeyRegistration, removeOwnPasskey, startPasskeyRegistration } from '../account/passkeys.ts';
import { beginTotpEnrolment, confirmTotpEnrolment, twoStepStatus } from '../account/two-step.ts';
import { resetSecondFactors } from '../users/manage.ts';
import { TEST_ISSUER, testContext } from '../testing.ts';
import { recoveryCodesLeft } from './recovery-codes.ts';
import { checkSignIn, passkeysStartupLine, passkeysUsable, signInOptions } from './passkeys.ts';
import { hasSecondFactor, verifySecondStep, type SecondStepContext } from './second-step.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';
import { totpCode } from './totp.ts';

const ORIGIN = new URL(TEST_ISSUER).origin;
const HOUR = 3_600_000;

const formOf = (fields: Record<string, string>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
};

const contextOf = (db: Database): SecondStepContext => ({ ...testContext(db), now: Date.now });

/** A person with one passkey on `authenticator`, registered through /account's use cases. */
async function withPasskey(db: Database, authenticator = new SoftAuthenticator(), name = 'Laptop') {
  const who = await person(db);
  const ctx = contextOf(db);
  const started = await startPasskeyRegistration(ctx, who.holder, formOf({ name, currentPassword: who.password }), who.by);
  assert.equal(started.status, 'options');
  const options = started.status === 'options' ? started.options : assert.fail();
  const added = await finishPasskeyRegistration(ctx, who.holder, JSON.stringify(authenticator.create(options, ORIGIN)), who.by);
  assert.equal(added.status, 'added');
  return { ...who, ctx, authenticator, added };
}

let uidCount = 0;
const newUid = () => `interaction-${process.pid}-${++uidCount}`;

/** The sign-in page's options for a new interaction (passwordless unless `accountId`), and its uid. */
async function challenge(ctx: SecondStepContext, accountId?: string) {
  const uid = newUid();
  const options = await signInOptions(ctx, uid, Date.now() + HOUR, accountId);
  assert.ok(options, 'passkeys are offered under the test issuer');
  return { uid, options };
}

test('an issuer whose host is an IP address: no passkey offered, and the start-up line says why; a host name (localhost too) offers them', async () => {
  // Nothing is asked of the database: the sign-in page gets no options at all.
  const nowhere = { db: undefined as never, now: Date.now, config: { ISSUER: 'http://127.0.0.1:3000' } };
  assert.equal(await signInOptions(nowhere, 'some-interaction', Date.now() + HOUR), undefined);
  for (const issuer of ['http://192.168.1.10:3000', 'https://203.0.113.5', 'http://[::1]:3000', 'https://[2001:db8::1]']) {
    assert.equal(passkeysUsable({ ISSUER: issuer }), false, issuer);
    assert.match(passkeysStartupLine({ ISSUER: issuer }) ?? '', /is an IP address.*passkeys are NOT offered/, issuer);
  }
  for (const issuer of ['http://localhost:3000', 'https://id.example.com', 'https://10-0-0-1.example.net']) {
    assert.equal(passkeysUsable({ ISSUER: issuer }), true, issuer);
    assert.equal(passkeysStartupLine({ ISSUER: issuer }), undefined, issuer);
  }
});

for (const storage of testDatabases('passkeys')) {
  describe(`passkeys on ${storage.name}`, { skip: storage.url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    test('registering: name and current password first; the first passkey turns two-step verification on with ten recovery codes, shown once', async () => {
      const db = await storage.open();
      const who = await person(db);
      const ctx = contextOf(db);
      const noName = await startPasskeyRegistration(ctx, who.holder, formOf({ name: '  ', currentPassword: who.password }), who.by);
      assert.deepEqual(noName.status === 'invalid' && Object.keys(noName.errors), ['name']);
      const longName = await startPasskeyRegistration(ctx, who.holder, formOf({ name: 'x'.repeat(65), currentPassword: who.password }), who.by);
      assert.deepEqual(longName.status === 'invalid' && Object.keys(longName.errors), ['name']);
      const wrongPassword = await startPasskeyRegistration(ctx, who.holder, formOf({ name: 'Laptop', currentPassword: 'not it' }), who.by);
      assert.deepEqual(wrongPassword.status === 'invalid' && wrongPassword.errors.currentPassword, [{ code: 'wrong_password' }]);
      assert.equal(await hasSecondFactor(db, who.holder.id), false);

      const authenticator = new SoftAuthenticator();
      const started = await startPasskeyRegistration(ctx, who.holder, formOf({ name: ' Laptop ', currentPassword: who.password }), who.by);
      const options = started.status === 'options' ? started.options : assert.fail('options');
      assert.equal(options.rp.id, new URL(TEST_ISSUER).hostname, 'the relying party is the configured issuer');
      assert.equal(options.authenticatorSelection?.residentKey, 'required', 'discoverable: it can sign in on its own');
      // Ed25519, P-256, RSA: the same on Node 22 and 24 (no ML-DSA, which Node 22 cannot verify and whose signatures outgrow the form).
      assert.deepEqual(
        options.pubKeyCredParams.map((p) => p.alg),
        [-8, -7, -257],
      );
      const added = await finishPasskeyRegistration(ctx, who.holder, JSON.stringify(authenticator.create(options, ORIGIN)), who.by);
      assert.equal(added.status, 'added');
      assert.equal(added.status === 'added' && added.name, 'Laptop');
      assert.equal(added.status === 'added' && added.recoveryCodes?.length, 10, 'the first second factor comes with recovery codes');
      assert.equal(await hasSecondFactor(db, who.holder.id), true);
      const [stored] = await listPasskeys(db, who.holder.id);
      assert.equal(stored.name, 'Laptop');
      assert.ok(!('publicKey' in stored), 'what pages see has no key');

      // The answer's challenge is used up: the same answer again is refused, and nothing is added twice.
      const replay = await finishPasskeyRegistration(ctx, who.holder, JSON.stringify(authenticator.create(options, ORIGIN)), who.by);
      assert.equal(replay.status, 'invalid');
      assert.equal(await countPasskeys(db, who.holder.id), 1);

      // A second passkey: no new recovery codes (the ten from the first still stand).
      const second = await startPasskeyRegistration(ctx, who.holder, formOf({ name: 'Phone', currentPassword: who.password }), who.by);
      const secondOptions = second.status === 'options' ? second.options : assert.fail();
      assert.deepEqual(
        secondOptions.excludeCredentials?.map((c) => c.id),
        [stored.id],
        'the browser is told which authenticator holds one already',
      );
      const phone = await finishPasskeyRegistration(ctx, who.holder, JSON.stringify(new SoftAuthenticator().create(secondOptions, ORIGIN)), who.by);
      assert.equal(phone.status === 'added' && phone.recoveryCodes, undefined);
      assert.equal(await countPasskeys(db, who.holder.id), 2);
      const enrolled = (await auditEventsFor(db, { involvingUserId: who.holder.id })).filter((e) => e.action === 'factor.enrolled');
      assert.deepEqual(
        enrolled.map((e) => e.details),
        [
          { kind: 'passkey', name: 'Phone' },
          { kind: 'passkey', name: 'Laptop' },
        ],
      );
    });

    test('registering: an answer for another origin, malformed, oversized or without a challenge is refused and adds nothing', async () => {
      const db = await storage.open();
      const who = await person(db);
      const ctx = contextOf(db);
      const start = async () => {
        const started = await startPasskeyRegistration(ctx, who.holder, formOf({ name: 'Key', currentPassword: who.password }), who.by);
        return started.status === 'options' ? started.options : assert.fail();
      };
      const authenticator = new SoftAuthenticator();
      const cases: Array<[string, () => Promise<string>]> = [
        ['another origin', async () => JSON.stringify(authenticator.create(await start(), 'https://evil.example'))],
        ['not JSON', async () => '{not json'],
        ['the wrong shape', async () => JSON.stringify({ id: 'x', response: {} })],
        ['oversized', async () => JSON.stringify({ ...authenticator.create(await start(), ORIGIN), padding: 'x'.repeat(40_000) })],
      ];
      for (const [what, answer] of cases) {
        await start(); // a live challenge, so only the answer is wrong
        const outcome = await finishPasskeyRegistration(ctx, who.holder, await answer(), who.by);
        assert.equal(outcome.status, 'invalid', what);
      }
      const control = await finishPasskeyRegistration(ctx, who.holder, JSON.stringify(authenticator.create(await start(), ORIGIN)), who.by);
      assert.equal(control.status, 'added', 'the control: a right answer to a live challenge');
      const again = await finishPasskeyRegistration(ctx, who.holder, JSON.stringify(authenticator.create(await start(), ORIGIN)), who.by);
      assert.equal(again.status, 'added', 'a new credential from one authenticator is a new passkey');
      assert.equal((await finishPasskeyRegistration(ctx, who.holder, '{}', who.by)).status, 'invalid', 'no challenge waits');
      assert.equal(await countPasskeys(db, who.holder.id), 2);
    });

    test('signing in with a passkey alone: user verification required; the account it names; each challenge answered once', async () => {
      const db = await storage.open();
      const { holder, ctx, authenticator } = await withPasskey(db);
      const first = await challenge(ctx);
      assert.equal(first.options.userVerification, 'required');
      assert.deepEqual(first.options.allowCredentials, [], 'discoverable: the browser offers whichever passkeys it holds');
      const answer = JSON.stringify(authenticator.get(first.options, ORIGIN));
      assert.deepEqual(await checkSignIn(ctx, first.uid, answer), { status: 'verified', accountId: holder.id });
      assert.equal((await checkSignIn(ctx, first.uid, answer)).status, 'refused', 'a replayed answer finds no challenge');
      assert.ok((await listPasskeys(db, holder.id))[0].lastUsedAt, 'the use is recorded');

      authenticator.userVerification = false;
      const presenceOnly = await challenge(ctx);
      const refused = await checkSignIn(ctx, presenceOnly.uid, JSON.stringify(authenticator.get(presenceOnly.options, ORIGIN)));
      assert.deepEqual(refused, { status: 'refused', problem: 'passkey_failed', accountId: holder.id }, 'without user verification a passkey is one factor');
    });

    test('a forged or replayed assertion is refused: another challenge, another origin, a counter gone backwards, an unknown credential', async () => {
      const db = await storage.open();
      const { holder, ctx, authenticator } = await withPasskey(db);
      const a = await challenge(ctx);
      const b = await challenge(ctx);
      // Signed for b's challenge, sent to a.
      assert.deepEqual(await checkSignIn(ctx, a.uid, JSON.stringify(authenticator.get(b.options, ORIGIN))), {
        status: 'refused',
        problem: 'passkey_failed',
        accountId: holder.id,
      });
      const c = await challenge(ctx);
      assert.equal((await checkSignIn(ctx, c.uid, JSON.stringify(authenticator.get(c.options, 'https://evil.example')))).status, 'refused', 'another origin');

      // A clone: the same key answering with a counter not above the stored one.
      const d = await challenge(ctx);
      assert.equal((await checkSignIn(ctx, d.uid, JSON.stringify(authenticator.get(d.options, ORIGIN)))).status, 'verified');
      authenticator.credentials[0].counter -= 2;
      const e = await challenge(ctx);
      assert.equal((await checkSignIn(ctx, e.uid, JSON.stringify(authenticator.get(e.options, ORIGIN)))).status, 'refused', 'the counter went backwards');

      const f = await challenge(ctx);
      const stranger = new SoftAuthenticator();
      stranger.create(
        { ...f.options, rp: { id: new URL(ORIGIN).hostname, name: 'x' }, user: { id: 'eA', name: 'x', displayName: 'x' }, pubKeyCredParams: [] },
        ORIGIN,
      );
      assert.deepEqual(await checkSignIn(ctx, f.uid, JSON.stringify(stranger.get(f.options, ORIGIN))), { status: 'refused', problem: 'passkey_unknown' });

      const g = await challenge(ctx);
      for (const text of ['', '{"id":1}', 'x'.repeat(40_000)]) {
        const again = await challenge(ctx);
        assert.deepEqual(await checkSignIn(ctx, again.uid, text), { status: 'refused', problem: 'passkey_invalid' });
      }
      assert.deepEqual(await checkSignIn(ctx, 'no-such-interaction', JSON.stringify(authenticator.get(g.options, ORIGIN))), {
        status: 'refused',
        problem: 'passkey_expired',
      });
    });

    test('as the second step: only that account’s passkey, counted by the throttle like a code; amr-worthy success', async () => {
      const db = await storage.open();
      const alice = await withPasskey(db);
      const bob = await withPasskey(db, new SoftAuthenticator(), 'Bob’s key');
      const ctx = alice.ctx;
      const alicePerson = { id: alice.holder.id, username: alice.holder.username };

      const own = await challenge(ctx, alice.holder.id);
      assert.deepEqual(
        own.options.allowCredentials?.map((c) => c.id),
        alice.authenticator.credentials.map((c) => c.id),
      );
      const ok = await verifySecondStep(
        ctx,
        alicePerson,
        { method: 'passkey', uid: own.uid, response: JSON.stringify(alice.authenticator.get(own.options, ORIGIN)) },
        {},
      );
      assert.deepEqual(ok, { status: 'verified', method: 'passkey' });

      // Bob's passkey answering Alice's second step.
      const other = await challenge(ctx, alice.holder.id);
      const bobs = bob.authenticator.get({ ...other.options, allowCredentials: [] }, ORIGIN);
      const refused = await verifySecondStep(ctx, alicePerson, { method: 'passkey', uid: other.uid, response: JSON.stringify(bobs) }, {});
      assert.deepEqual(refused, { status: 'refused', problem: 'passkey_other_account' });
      const failures = (await auditEventsFor(db, { involvingUserId: alice.holder.id })).filter((e) => e.action === 'sign_in.second_factor_failed');
      assert.deepEqual(failures[0]?.details, { method: 'passkey', reason: 'other_account' });

      // A passwordless challenge cannot be answered as Alice's second step, nor hers as passwordless.
      const passwordless = await challenge(ctx);
      const crossed = await verifySecondStep(
        ctx,
        alicePerson,
        { method: 'passkey', uid: passwordless.uid, response: JSON.stringify(alice.authenticator.get(passwordless.options, ORIGIN)) },
        {},
      );
      assert.deepEqual(crossed, { status: 'refused', problem: 'passkey_expired' });
    });

    test('removing needs the password; recovery codes stay while any factor does; an admin reset removes passkeys too', async () => {
      const db = await storage.open();
      const { holder, by, password, ctx } = await withPasskey(db);
      // TOTP as well, then removed: the passkey remains, and so do the recovery codes.
      await beginTotpEnrolment(ctx, holder);
      const pending = await twoStepStatus(ctx, holder);
      const secret = pending.status === 'pending' ? pending.secret : '';
      assert.equal((await confirmTotpEnrolment(ctx, holder, formOf({ code: totpCode(secret, Date.now()) }), by)).status, 'codes');
      assert.equal(await deleteTotp(db, holder.id), true);
      assert.equal(await recoveryCodesLeft(db, holder.id), 10);
      assert.equal(await hasSecondFactor(db, holder.id), true);

      const [passkey] = await listPasskeys(db, holder.id);
      const wrong = await removeOwnPasskey(ctx, holder, formOf({ passkey: passkey.id, currentPassword: 'nope' }), by);
      assert.equal(wrong.status, 'invalid');
      assert.equal(await countPasskeys(db, holder.id), 1);
      assert.deepEqual(await removeOwnPasskey(ctx, holder, formOf({ passkey: passkey.id, currentPassword: password }), by), { status: 'removed' });
      assert.equal(await hasSecondFactor(db, holder.id), false);
      assert.equal(await recoveryCodesLeft(db, holder.id), 0, 'the last factor takes the recovery codes with it');
      const again = await removeOwnPasskey(ctx, holder, formOf({ passkey: passkey.id, currentPassword: password }), by);
      assert.deepEqual(again.status === 'invalid' && again.errors.form, [{ code: 'passkey_removed' }]);

      const other = await withPasskey(db);
      const reset = await resetSecondFactors(db, other.holder.id, other.by);
      assert.deepEqual({ totp: reset.totp, passkeys: reset.passkeys, recoveryCodes: reset.recoveryCodes }, { totp: false, passkeys: 1, recoveryCodes: 10 });
      assert.equal(await hasSecondFactor(db, other.holder.id), false);
    });
  });
}
