// The policy for a password a person chooses: the operator's minimum, the common passwords refused, no composition rules.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { issueProblem } from '../platform/forms.ts';
import { chosenPasswordSchema, isCommonPassword, minimumPasswordLength } from './password-policy.ts';

const problems = (minLength: number, password: string) => {
  const parsed = chosenPasswordSchema(minLength).safeParse(password);
  return parsed.success ? [] : parsed.error.issues.map(issueProblem);
};

test('the minimum is the operator setting, 8 without one', () => {
  assert.equal(minimumPasswordLength({ PASSWORD_MIN_LENGTH: 12 }), 12);
  assert.equal(minimumPasswordLength({}), 8);
  assert.equal(minimumPasswordLength(undefined), 8);
  assert.deepEqual(problems(12, 'eleven char'), [{ code: 'too_short', values: { minimum: 12 } }]);
  assert.deepEqual(problems(12, 'twelve chars'), []);
  assert.deepEqual(problems(8, 'x'.repeat(257)), [{ code: 'too_long', values: { maximum: 256 } }]);
});

test('a common password is refused whatever its case; a too short one is only said to be too short', () => {
  for (const common of ['password1', 'PASSWORD1', 'Passwort', 'qwertyuiop', 'iloveyou1']) {
    assert.ok(isCommonPassword(common), common);
    assert.deepEqual(problems(8, common), [{ code: 'common_password' }], common);
  }
  assert.deepEqual(problems(12, 'password1'), [{ code: 'too_short', values: { minimum: 12 } }]);
});

test('no composition rules: lowercase words and spaces are fine when long and uncommon', () => {
  for (const fine of ['correct horse battery staple', 'a long password', 'ümlaute sind erlaubt', 'abcdefgh1234 xyz']) {
    assert.ok(!isCommonPassword(fine), fine);
    assert.deepEqual(problems(8, fine), [], fine);
  }
});
