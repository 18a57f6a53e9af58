// When a sign-in must end with a second factor, and which interaction asks only for it (lib/oidc/step-up.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ACR } from './authentication-context.ts';
import { SECOND_FACTOR_REASON, secondFactorRequired, stepUpAccountId } from './step-up.ts';

test('acr_values asks for a second factor when mfa is its first known value; the client setting always does', () => {
  assert.equal(secondFactorRequired(undefined, false), false);
  assert.equal(secondFactorRequired(ACR.mfa, false), true);
  assert.equal(secondFactorRequired(`${ACR.mfa} ${ACR.password}`, false), true);
  assert.equal(secondFactorRequired(`urn:other ${ACR.mfa}`, false), true, 'unknown values are ignored');
  assert.equal(secondFactorRequired(`${ACR.password} ${ACR.mfa}`, false), false, 'the password preferred');
  assert.equal(secondFactorRequired('urn:other', false), false);
  assert.equal(secondFactorRequired(undefined, true), true);
  assert.equal(secondFactorRequired(ACR.password, true), true, 'the client setting wins over the request');
});

test("the code step alone: the login prompt's only reason is the second factor, on a signed-in session", () => {
  const session = { accountId: 'u1' };
  assert.equal(stepUpAccountId({ prompt: { name: 'login', reasons: [SECOND_FACTOR_REASON] }, session }), 'u1');
  assert.equal(stepUpAccountId({ prompt: { name: 'login', reasons: ['login_prompt', SECOND_FACTOR_REASON] }, session }), undefined);
  assert.equal(stepUpAccountId({ prompt: { name: 'login', reasons: ['no_session'] } }), undefined);
  assert.equal(stepUpAccountId({ prompt: { name: 'consent', reasons: ['op_scopes_missing'] }, session }), undefined);
  assert.equal(stepUpAccountId({ prompt: { name: 'login', reasons: [SECOND_FACTOR_REASON] } }), undefined);
});
