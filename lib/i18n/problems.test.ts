// A use case's Problem in the person's language: every code has words in every catalog, a field's own
// wording comes first, a wait is said in its units, and a schema's issues become the codes the forms expect.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { fieldProblems, problemCodes, throttledProblem } from '../platform/forms.ts';
import { signUpSchema } from '../sign-in/sign-up.ts';
import { SUPPORTED_LOCALES } from './locale.ts';
import { catalogs, translator } from './messages.ts';
import { problemText, problemTexts } from './problems.ts';

test('every problem code has a message of its own in every catalog', () => {
  for (const locale of SUPPORTED_LOCALES) {
    const problems = catalogs[locale].problems as Record<string, unknown>;
    for (const code of problemCodes) assert.ok(code in problems, `${locale}: problems.${code}`);
  }
});

test('the field’s own wording first, then the code’s, in the language asked for', () => {
  const en = translator('en', 'problems');
  const de = translator('de', 'problems');
  assert.equal(problemText(en, 'username', { code: 'conflict' }), 'This username is taken: choose another.');
  assert.equal(problemText(de, 'username', { code: 'conflict' }), 'Dieser Benutzername ist vergeben: Wählen Sie einen anderen.');
  assert.equal(problemText(en, 'form', { code: 'conflict' }), 'This is taken already.');
  assert.equal(problemText(en, 'password', { code: 'too_short', values: { minimum: 12 } }), 'Password must be at least 12 characters.');
  assert.equal(problemText(de, 'nothing', { code: 'too_long', values: { maximum: 64 } }), 'Höchstens 64 Zeichen.');
  assert.deepEqual(problemTexts(en, 'form', []), undefined, 'no problems, no messages');
});

test('a wait in seconds, minutes or hours, as the sign-in page says it', () => {
  const de = translator('de', 'problems');
  const en = translator('en', 'problems');
  assert.equal(problemText(en, 'form', throttledProblem({ retryAfterSeconds: 1 })), 'Too many attempts; try again in 1 second.');
  assert.equal(problemText(de, 'form', throttledProblem({ retryAfterSeconds: 61 })), 'Zu viele Versuche; versuchen Sie es in 2 Minuten erneut.');
  assert.equal(problemText(en, 'form', throttledProblem({ retryAfterSeconds: 3 * 3600 })), 'Too many attempts; try again in 3 hours.');
});

test('a schema’s issues become codes by field, a refinement’s own code and arguments kept', () => {
  const parsed = signUpSchema(8)
    .refine(() => false, { path: ['email'], message: 'outside', params: { code: 'email_domain', domains: 'example.test' } })
    .safeParse({ username: 'a b', email: 'not-an-address', name: 'x'.repeat(200), password: 'short', confirmPassword: 'other' });
  assert.ok(!parsed.success);
  const problems = fieldProblems(parsed.error, ['username', 'email', 'name', 'password', 'confirmPassword'] as const);
  assert.deepEqual(problems, {
    username: [{ code: 'invalid_format' }],
    email: [{ code: 'invalid_email' }, { code: 'email_domain', values: { domains: 'example.test' } }],
    name: [{ code: 'too_long', values: { maximum: 128 } }],
    password: [{ code: 'too_short', values: { minimum: 8 } }],
    confirmPassword: [{ code: 'mismatch' }],
  });
  const missing = fieldProblems(z.object({ confirmPassword: z.string().min(1) }).safeParse({ confirmPassword: '' }).error!, ['confirmPassword'] as const);
  assert.deepEqual(missing, { confirmPassword: [{ code: 'required' }] });
  assert.equal(problemText(translator('de', 'problems'), 'confirmPassword', missing.confirmPassword![0]), 'Geben Sie das Passwort noch einmal ein.');
});
