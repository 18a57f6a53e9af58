/**
 * A person edits their own name and email (/account). The rules are the ones
 * admins and the CLI use (`profileSchema`, `updateProfile` in
 * lib/services/users.ts, which records user.updated); a taken email comes back
 * as a message on the email field.
 */
import type { Database } from '../../db/database.ts';
import type { AuditBy } from '../audit.ts';
import { formErrors, formText, type FieldErrors } from '../forms.ts';
import { updateProfile } from '../users.ts';

export interface ProfileValues {
  name: string;
  email: string;
}

const fields = ['name', 'email'] as const;

export type ProfileState = {
  status: 'editing' | 'saved';
  values: ProfileValues;
  errors: FieldErrors<(typeof fields)[number]>;
};

export function profileValues(user: { name: string | null; email: string | null }): ProfileValues {
  return { name: user.name ?? '', email: user.email ?? '' };
}

export async function updateOwnProfile(db: Database, user: { id: string }, form: FormData, by?: AuditBy): Promise<ProfileState> {
  const values: ProfileValues = { name: formText(form, 'name', 500), email: formText(form, 'email', 500) };
  try {
    const saved = await updateProfile(db, user.id, values, by);
    return { status: 'saved', values: profileValues(saved), errors: {} };
  } catch (error) {
    return { status: 'editing', values, errors: formErrors(error, fields, { email: 'another account already uses this email address' }) };
  }
}
