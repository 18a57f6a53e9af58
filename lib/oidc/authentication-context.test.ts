// What an ID token says of how the person signed in (RFC 8176 amr, our acr): an email code is one factor (`otp`, no
// `pwd`), and with a second step it stands where the password stood.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ACR, acrValuesFor, loginResult } from './authentication-context.ts';

test('a password, alone or with a second step, as before', () => {
  assert.deepEqual(loginResult('a'), { accountId: 'a', acr: ACR.password, amr: ['pwd'] });
  assert.deepEqual(loginResult('a', 'totp'), { accountId: 'a', acr: ACR.mfa, amr: ['pwd', 'otp', 'mfa'] });
  assert.deepEqual(loginResult('a', 'passwordless'), { accountId: 'a', acr: ACR.mfa, amr: ['pop', 'mfa'] });
});

test('an email code alone is one factor of its own acr; with a second step, mfa without pwd', () => {
  assert.deepEqual(loginResult('a', undefined, 'email_code'), { accountId: 'a', acr: ACR.email_code, amr: ['otp'] });
  assert.deepEqual(loginResult('a', 'totp', 'email_code'), { accountId: 'a', acr: ACR.mfa, amr: ['otp', 'mfa'] });
  assert.deepEqual(loginResult('a', 'recovery_code', 'email_code'), { accountId: 'a', acr: ACR.mfa, amr: ['otp', 'mfa'] });
  assert.deepEqual(loginResult('a', 'passkey', 'email_code'), { accountId: 'a', acr: ACR.mfa, amr: ['otp', 'pop', 'mfa'] });
});

test('discovery lists the email code’s acr only while the setting is on', () => {
  assert.deepEqual(acrValuesFor(false), [ACR.password, ACR.mfa]);
  assert.deepEqual(acrValuesFor(true), [ACR.password, ACR.mfa, ACR.email_code]);
});

test('a sign-in at another provider is amr fed and the federated acr; with a second step here, fed stands where pwd stood', () => {
  assert.deepEqual(loginResult('a', undefined, 'fed'), { accountId: 'a', acr: ACR.federated, amr: ['fed'] });
  assert.deepEqual(loginResult('a', 'totp', 'fed'), { accountId: 'a', acr: ACR.mfa, amr: ['fed', 'otp', 'mfa'] });
  assert.deepEqual(loginResult('a', 'passkey', 'fed'), { accountId: 'a', acr: ACR.mfa, amr: ['fed', 'pop', 'mfa'] });
  assert.ok(!(acrValuesFor(true) as string[]).includes(ACR.federated), 'not in discovery: with no connection nothing there changes');
});
