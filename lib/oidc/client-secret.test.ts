import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientSecretMatches, generateClientSecret, hashClientSecret } from './client-secret.ts';

test('secrets carry 256 bits and are stored only as their SHA-256', () => {
  const secret = generateClientSecret();
  assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(generateClientSecret(), secret);
  const stored = hashClientSecret(secret);
  assert.match(stored, /^[0-9a-f]{64}$/);
  assert.ok(!stored.includes(secret));
});

test('only the exact secret matches the stored hash', () => {
  const secret = generateClientSecret();
  const stored = hashClientSecret(secret);
  assert.equal(clientSecretMatches(stored, secret), true);
  assert.equal(clientSecretMatches(stored, `${secret} `), false);
  assert.equal(clientSecretMatches(stored, stored), false, 'the hash itself is not the secret');
  assert.equal(clientSecretMatches(stored, ''), false);
  assert.equal(clientSecretMatches(undefined, secret), false, 'a public client has no secret to match');
  assert.equal(clientSecretMatches(stored, undefined), false);
});
