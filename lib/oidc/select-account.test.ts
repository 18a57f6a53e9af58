// The account choice in the provider's policy: select_account first and requestable, the login prompt's extra check.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import { ANOTHER_ACCOUNT, ANOTHER_ACCOUNT_REASON, forAnotherAccount, promptValues, SELECT_ACCOUNT_REASON, withAccountChoice } from './select-account.ts';

const policy = withAccountChoice(interactionPolicy.base());

/** A provider context as the checks read it: the requested prompts, the session's account, a resumed result. */
const context = (prompts: string[], accountId: string | undefined, result?: Record<string, unknown>) =>
  ({ oidc: { prompts: new Set(prompts), session: { accountId }, result } }) as unknown as KoaContextWithOIDC;

test('select_account comes first and is requestable, so discovery lists it', () => {
  assert.deepEqual(
    policy.map((prompt) => prompt.name),
    ['select_account', 'login', 'consent'],
  );
  assert.deepEqual(promptValues(policy), ['none', 'select_account', 'login', 'consent']);
});

test('select_account asks only when requested, with a signed-in session, and not yet settled by a choice or a sign-in', async () => {
  const [check] = policy.get('select_account')!.checks;
  assert.equal(check.reason, SELECT_ACCOUNT_REASON);
  assert.equal(check.error, 'account_selection_required');
  assert.equal(await check.check(context(['select_account'], 'alice')), true);
  assert.equal(await check.check(context([], 'alice')), false);
  assert.equal(await check.check(context(['select_account'], undefined)), false, 'no one to choose: the login prompt asks');
  for (const settled of [{ select_account: {} }, { login: { accountId: 'bob' } }, { [ANOTHER_ACCOUNT]: {} }]) {
    assert.equal(await check.check(context(['select_account'], 'alice', settled)), false, JSON.stringify(settled));
  }
  assert.equal(policy.get('select_account')!.checks.length, 1, 'the provider’s own check was replaced');
});

test('the login prompt asks again after "Use another account", and the page knows it by the reason', async () => {
  const check = policy.get('login')!.checks.get(ANOTHER_ACCOUNT_REASON)!;
  assert.equal(await check.check(context([], 'alice', { [ANOTHER_ACCOUNT]: {} })), true);
  assert.equal(await check.check(context([], 'alice', { login: { accountId: 'bob' } })), false);
  assert.equal(await check.check(context([], 'alice')), false);
  assert.equal(forAnotherAccount({ name: 'login', reasons: ['no_session', ANOTHER_ACCOUNT_REASON] }), true);
  assert.equal(forAnotherAccount({ name: 'login', reasons: ['no_session'] }), false);
});
