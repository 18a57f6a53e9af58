/**
 * A person changes their own password: the current one first (argon2id
 * verification under the sign-in throttle; a wrong one is recorded in the
 * audit log, see lib/sign-in/authentication.ts), the new one twice, the policy of
 * password-policy.ts. Afterwards every other Gatehouse session of theirs ends;
 * the one this browser signed in to the portal with stays, so the person
 * stays signed in here. Nothing typed is ever sent back to the form.
 */
import { z } from 'zod';
import type { AuditBy } from '../audit/log.ts';
import { type PasswordCheckContext, verifyCurrentPassword } from '../sign-in/authentication.ts';
import { addProblem, fieldProblems, formText, type FieldProblems, throttledProblem } from '../platform/forms.ts';
import { passwordPolicy } from '../platform/passwords.ts';
import { changePassword } from '../users/manage.ts';
import { chosenPasswordSchema, minimumPasswordLength, type PasswordPolicySettings } from '../users/password-policy.ts';
import type { AccountHolder } from './sessions.ts';

const fields = ['currentPassword', 'newPassword', 'confirmPassword'] as const;
type Field = (typeof fields)[number];

const passwordChangeSchema = (minLength: number) =>
  z
    .object({
      currentPassword: z.string().min(1, 'Enter your current password'),
      newPassword: chosenPasswordSchema(minLength),
      confirmPassword: z.string().min(1, 'Enter the new password again'),
    })
    .refine((p) => p.newPassword === p.confirmPassword, {
      path: ['confirmPassword'],
      message: 'The two new passwords do not match',
      params: { code: 'mismatch' },
    })
    .refine((p) => p.newPassword !== p.currentPassword, {
      path: ['newPassword'],
      message: 'The new password is the one you have now',
      params: { code: 'same_password' },
    });

/** No values: a password is never rendered back into a form. The problems in no language: the form words them. */
export type PasswordChangeState = { status: 'idle' } | { status: 'invalid'; errors: FieldProblems<Field> } | { status: 'changed'; endedSessions: number };

export async function changeOwnPassword(
  ctx: PasswordCheckContext & { config?: PasswordPolicySettings },
  holder: AccountHolder,
  form: FormData,
  by?: AuditBy,
): Promise<PasswordChangeState> {
  const { db } = ctx;
  // One past the policy's maximum: long enough for the schema to refuse, short enough for argon2.
  const max = passwordPolicy.maxLength + 1;
  const input = {
    currentPassword: formText(form, 'currentPassword', max),
    newPassword: formText(form, 'newPassword', max),
    confirmPassword: formText(form, 'confirmPassword', max),
  };
  const parsed = passwordChangeSchema(minimumPasswordLength(ctx.config)).safeParse(input);
  let errors: FieldProblems<Field> = parsed.success ? {} : fieldProblems(parsed.error, fields);
  if (input.currentPassword && !errors.currentPassword) {
    const checked = await verifyCurrentPassword(ctx, holder, input.currentPassword, by?.context);
    if (!checked.ok) errors = addProblem(errors, 'currentPassword', checked.refusal ? throttledProblem(checked.refusal) : { code: 'wrong_password' });
  }
  if (!parsed.success || Object.keys(errors).length) return { status: 'invalid', errors };

  // Without a known current session (it always is known through the portal), every session ends.
  const { endedSessions } = await changePassword(db, holder.id, parsed.data.newPassword, by, { keepSessionUid: holder.sessionUid });
  return { status: 'changed', endedSessions };
}
