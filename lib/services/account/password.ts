/**
 * A person changes their own password: the current one first (argon2id
 * verification, lib/services/passwords.ts), the new one twice, the policy of
 * `passwordSchema`. Afterwards every other Gatehouse session of theirs ends;
 * the one this browser signed in to the portal with stays, so the person
 * stays signed in here. Nothing typed is ever sent back to the form.
 */
import { z } from 'zod';
import type { Database } from '../../db/database.ts';
import { findCredentials } from '../../db/users.ts';
import type { AuditBy } from '../audit.ts';
import { passwordPolicy, verifyPassword } from '../passwords.ts';
import { changePassword, passwordSchema } from '../users.ts';
import { addError, fieldErrorsOf, formText, type FieldErrors } from './form.ts';
import { endOtherSessions, type AccountHolder } from './sessions.ts';

const fields = ['currentPassword', 'newPassword', 'confirmPassword'] as const;
type Field = (typeof fields)[number];

export const passwordChangeSchema = z
  .object({
    currentPassword: z.string().min(1, 'enter your current password'),
    newPassword: passwordSchema,
    confirmPassword: z.string().min(1, 'enter the new password again'),
  })
  .refine((p) => p.newPassword === p.confirmPassword, { path: ['confirmPassword'], message: 'the two new passwords do not match' })
  .refine((p) => p.newPassword !== p.currentPassword, { path: ['newPassword'], message: 'the new password is the one you have now' });

/** No values: a password is never rendered back into a form. */
export type PasswordChangeState =
  | { status: 'idle' }
  | { status: 'invalid'; errors: FieldErrors<Field> }
  | { status: 'changed'; endedSessions: number };

export async function changeOwnPassword(db: Database, holder: AccountHolder, form: FormData, by?: AuditBy): Promise<PasswordChangeState> {
  // One past the policy's maximum: long enough for the schema to refuse, short enough for argon2.
  const max = passwordPolicy.maxLength + 1;
  const input = {
    currentPassword: formText(form, 'currentPassword', max),
    newPassword: formText(form, 'newPassword', max),
    confirmPassword: formText(form, 'confirmPassword', max),
  };
  const parsed = passwordChangeSchema.safeParse(input);
  let errors: FieldErrors<Field> = parsed.success ? {} : fieldErrorsOf(parsed.error, fields);
  if (input.currentPassword && !errors.currentPassword && !(await currentPasswordMatches(db, holder.username, input.currentPassword))) {
    errors = addError(errors, 'currentPassword', 'this is not your current password');
  }
  if (!parsed.success || Object.keys(errors).length) return { status: 'invalid', errors };

  await changePassword(db, holder.username, parsed.data.newPassword, by);
  return { status: 'changed', endedSessions: await endOtherSessions(db, holder, by) };
}

async function currentPasswordMatches(db: Database, username: string, password: string): Promise<boolean> {
  const credentials = await findCredentials(db, username);
  return credentials !== undefined && !credentials.disabled && (await verifyPassword(credentials.passwordHash, password));
}
