import assert from 'node:assert/strict';
import { test } from 'node:test';
import { generateSigningJwk } from './keys.ts';

test('a kid is 32 hex characters: never one an operator must quote or that reads as a CLI option', () => {
  const kids = new Set<string>();
  for (let i = 0; i < 100; i++) {
    const { kid } = generateSigningJwk(i < 2 ? 'RS256' : 'ES256');
    assert.match(kid, /^[0-9a-f]{32}$/);
    kids.add(kid);
  }
  assert.equal(kids.size, 100);
});
