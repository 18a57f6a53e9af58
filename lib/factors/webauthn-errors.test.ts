// A WebAuthn ceremony's failure, named by its real cause.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { webauthnFailure } from './webauthn-errors.ts';

test('each DOMException a ceremony throws is its own cause; anything else is a plain failure', () => {
  const named = (name: string) => Object.assign(new Error('x'), { name });
  assert.equal(webauthnFailure(named('NotAllowedError')), 'cancelled');
  assert.equal(webauthnFailure(named('AbortError')), 'cancelled');
  assert.equal(webauthnFailure(named('InvalidStateError')), 'exists');
  assert.equal(webauthnFailure(named('SecurityError')), 'security');
  assert.equal(webauthnFailure(named('NotSupportedError')), 'unsupported');
  assert.equal(webauthnFailure(named('UnknownError')), 'failed');
  assert.equal(webauthnFailure(new TypeError('x')), 'failed');
  assert.equal(webauthnFailure(undefined), 'failed');
});
