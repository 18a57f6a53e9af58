import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseEnv } from './env.ts';

test('without ISSUER the issuer is localhost on the configured port, so a server on another port signs in on its own', () => {
  assert.equal(parseEnv({}).ISSUER, 'http://localhost:3000');
  assert.equal(parseEnv({ PORT: '4000' }).ISSUER, 'http://localhost:4000');
});

test('a configured ISSUER wins over PORT, reduced to its origin', () => {
  assert.equal(parseEnv({ PORT: '4000', ISSUER: 'https://id.example.com/' }).ISSUER, 'https://id.example.com');
  assert.throws(() => parseEnv({ ISSUER: 'https://id.example.com/path' }), /ISSUER: ISSUER must be a bare origin/);
  assert.throws(() => parseEnv({ PORT: 'x' }), /PORT:/);
});

test('ACCOUNT_SELF_DELETE keeps self-deletion on unless an operator turns it off; anything else refuses to start', () => {
  assert.equal(parseEnv({}).ACCOUNT_SELF_DELETE, 'on');
  assert.equal(parseEnv({ ACCOUNT_SELF_DELETE: 'off' }).ACCOUNT_SELF_DELETE, 'off');
  assert.throws(() => parseEnv({ ACCOUNT_SELF_DELETE: 'no' }), /ACCOUNT_SELF_DELETE:/);
});
