import assert from 'node:assert/strict';
import { test } from 'node:test';
import { confirmOrSay, isConfirmed } from './confirmation.ts';

const form = (ticked: boolean) => {
  const data = new FormData();
  if (ticked) data.set('confirm', 'on');
  return data;
};

test('an unticked form does nothing and says what to tick', async () => {
  let acted = false;
  const state = await confirmOrSay(form(false), 'Tick the box to confirm: the user’s sessions end.', async () => {
    acted = true;
  });
  assert.equal(acted, false);
  assert.deepEqual(state, { status: 'unconfirmed', message: 'Tick the box to confirm: the user’s sessions end.' });
});

test('a ticked form acts', async () => {
  let acted = false;
  await confirmOrSay(form(true), 'x', async () => {
    acted = true;
  });
  assert.equal(acted, true);
  assert.equal(isConfirmed(form(true)), true);
  // Only the checkbox's own value counts.
  const other = new FormData();
  other.set('confirm', 'yes');
  assert.equal(isConfirmed(other), false);
});
