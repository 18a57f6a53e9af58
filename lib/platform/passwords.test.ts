import assert from 'node:assert/strict';
import { test } from 'node:test';
import { concurrencyLimit, DUMMY_PASSWORD_HASH, hashPassword, verifyAgainstDummy, verifyPassword } from './passwords.ts';

test('argon2id: a hash verifies its password only, and a malformed hash is a failed verification', async () => {
  const stored = await hashPassword('correct horse battery');
  assert.match(stored, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  assert.equal(await verifyPassword(stored, 'correct horse battery'), true);
  assert.equal(await verifyPassword(stored, 'correct horse battery!'), false);
  assert.equal(await verifyPassword('not a hash', 'anything'), false);
  assert.equal(await verifyAgainstDummy('anything'), false);
});

test('the limit runs at most N tasks at once, in arrival order, and a failure frees its slot', async () => {
  const limited = concurrencyLimit(2);
  let running = 0;
  let peak = 0;
  const started: number[] = [];
  const task = (i: number) => async () => {
    started.push(i);
    running++;
    peak = Math.max(peak, running);
    await new Promise((r) => setTimeout(r, 5));
    running--;
    if (i === 1) throw new Error('boom');
    return i;
  };
  const all = Promise.allSettled([0, 1, 2, 3, 4, 5].map((i) => limited(task(i))));
  assert.deepEqual(limited.load(), { waiting: 4, running: 2 }, 'what the argon2id gauges read');
  const results = await all;
  assert.deepEqual(limited.load(), { waiting: 0, running: 0 });
  assert.equal(peak, 2);
  assert.deepEqual(started, [0, 1, 2, 3, 4, 5]);
  assert.equal(results[1].status, 'rejected');
  assert.deepEqual(
    results.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<number>).value),
    [0, 2, 3, 4, 5],
  );
  // Slots are all free again: two more run at once.
  peak = 0;
  await Promise.all([limited(task(6)), limited(task(7))]);
  assert.equal(peak, 2);
});

test('verifyAgainstDummy: the dummy hash has the parameters passwords.ts hashes with, and never matches', async () => {
  const params = (hash: string) => hash.split('$').slice(1, 4).join('$');
  assert.equal(params(DUMMY_PASSWORD_HASH), params(await hashPassword('anything at all')));
  assert.equal(await verifyAgainstDummy(''), false);
  assert.equal(await verifyAgainstDummy('password'), false);
});
