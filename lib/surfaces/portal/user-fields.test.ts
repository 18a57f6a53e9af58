// The portal's user forms: FormData to the shared user schemas, issues back per field, and never a password in the values.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newUserSchema, profileSchema } from '../../users/manage.ts';
import { fieldProblems } from '../../platform/forms.ts';
import { readNewUserForm, readPasswordChoice, readProfileForm, userFields } from './user-fields.ts';

function form(entries: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(entries)) data.append(name, value);
  return data;
}

test('a generated password is 24 characters from the CSPRNG; the form values never hold a password', () => {
  const { values, input, generated } = readNewUserForm(
    form({ username: ' ada ', email: '', name: ' Ada ', role: 'admin', passwordChoice: 'generate', password: 'ignored typed value' }),
  );
  assert.equal(generated, true);
  assert.match(input.password, /^[A-Za-z0-9_-]{24}$/);
  assert.notEqual(input.password, 'ignored typed value');
  assert.deepEqual(values, { username: 'ada', name: 'Ada', email: '', role: 'admin', passwordChoice: 'generate' });
  assert.ok(!JSON.stringify(values).includes(input.password));
  const parsed = newUserSchema.parse(input);
  assert.deepEqual([parsed.username, parsed.email, parsed.name, parsed.role], ['ada', null, 'Ada', 'admin']);
});

test('a typed password must be typed twice the same; its policy errors land on the password field', () => {
  assert.deepEqual(readPasswordChoice(form({ passwordChoice: 'type', password: 'a long password', confirmPassword: 'a long passw0rd' })).problems, {
    confirmPassword: [{ code: 'mismatch' }],
  });
  const typed = readNewUserForm(form({ username: 'bob', passwordChoice: 'type', password: 'short', confirmPassword: 'short' }));
  assert.equal(typed.generated, false);
  const result = newUserSchema.safeParse(typed.input);
  assert.ok(!result.success);
  assert.deepEqual(Object.keys(fieldProblems(result.error, userFields)), ['password']);
  assert.ok(!JSON.stringify(typed.values).includes('short'));
});

test('a bad username and email come back on their fields', () => {
  const { input } = readNewUserForm(form({ username: 'not ok!', email: 'nope', passwordChoice: 'generate' }));
  const result = newUserSchema.safeParse(input);
  assert.ok(!result.success);
  assert.deepEqual(Object.keys(fieldProblems(result.error, userFields)).sort(), ['email', 'username']);
});

test('the profile form: empty fields clear, values come back as typed', () => {
  const { values, input } = readProfileForm(form({ name: '  ', email: 'x@example.com ' }));
  assert.deepEqual(values, { name: '  ', email: 'x@example.com ' });
  assert.deepEqual(profileSchema.parse(input), { name: null, email: 'x@example.com' });
});
