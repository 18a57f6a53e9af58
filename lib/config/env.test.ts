import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { parseEnv } from './env.ts';
import { workerCount } from './workers.mjs';

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

test('WORKERS: auto (unset, empty or in any case) is one per core, a number is itself; anything else refuses to start', () => {
  const cores = availableParallelism();
  assert.equal(parseEnv({}).WORKERS, cores);
  assert.equal(parseEnv({ WORKERS: '' }).WORKERS, cores);
  assert.equal(parseEnv({ WORKERS: ' Auto ' }).WORKERS, cores);
  assert.equal(parseEnv({ WORKERS: '1' }).WORKERS, 1);
  assert.equal(parseEnv({ WORKERS: '3' }).WORKERS, 3);
  for (const wrong of ['0', '-1', '1.5', 'two', '257'])
    assert.throws(() => parseEnv({ WORKERS: wrong }), /WORKERS: WORKERS must be auto \(one per core\)/, wrong);
  // scripts/server.mjs reads it with the same rule before Next loads: one core counts as one worker there too.
  assert.equal(workerCount('auto', 1), 1);
  assert.equal(workerCount(undefined, 0), 1);
  assert.equal(workerCount('auto', 1000), 256);
});
