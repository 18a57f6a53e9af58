/**
 * The admin portal's user forms as plain data: FormData in, the input of the
 * user schemas (lib/users/manage.ts, shared with the CLI) out; their fields,
 * for `formProblems` (lib/platform/forms.ts) to put the issues under, as codes. A password
 * is read from the form and never put back into `values`: forms are never
 * re-rendered with it.
 */
import type { UserRecord } from '../../users/repository.ts';
import { roleSchema, type Role } from '../../admin-roles/roles.ts';
import { formText, type FieldProblems } from '../../platform/forms.ts';
import { generatePassword, passwordPolicy } from '../../platform/passwords.ts';
import type { NewUserInput, ProfileInput } from '../../users/manage.ts';

export type PasswordChoice = 'generate' | 'type';

/** What the create form shows again after a failed submission: everything but the password. */
export interface NewUserFormValues {
  username: string;
  name: string;
  email: string;
  role: Role;
  /** `invite`: no password; the person chooses it with a mailed link (lib/users/invitations.ts). */
  passwordChoice: PasswordChoice | 'invite';
}

export interface ProfileFormValues {
  name: string;
  email: string;
}

export const userFields = ['username', 'name', 'email', 'role', 'password', 'confirmPassword'] as const;

/** Problems by field; `form` holds any that belong to no one field. */
export type UserFieldProblems = FieldProblems<(typeof userFields)[number]>;

/** One past the policy's maximum: long enough for the schema to refuse, short enough for argon2. */
const PASSWORD_MAX = passwordPolicy.maxLength + 1;

/**
 * The new password a form asks for: generated (returned, to be shown once),
 * or typed twice. `problems` when the two typed ones differ.
 */
export function readPasswordChoice(form: FormData): { choice: PasswordChoice; password: string; generated: boolean; problems: UserFieldProblems } {
  const choice: PasswordChoice = form.get('passwordChoice') === 'type' ? 'type' : 'generate';
  if (choice === 'generate') return { choice, password: generatePassword(), generated: true, problems: {} };
  const password = formText(form, 'password', PASSWORD_MAX);
  const confirm = formText(form, 'confirmPassword', PASSWORD_MAX);
  const problems: UserFieldProblems = password && confirm !== password ? { confirmPassword: [{ code: 'mismatch' }] } : {};
  return { choice, password, generated: false, problems };
}

export function readNewUserForm(form: FormData): { values: NewUserFormValues; input: NewUserInput; generated: boolean; problems: UserFieldProblems } {
  const invite = form.get('passwordChoice') === 'invite';
  const { choice, password, generated, problems } = invite
    ? { choice: 'invite' as const, password: '', generated: false, problems: {} }
    : readPasswordChoice(form);
  const values: NewUserFormValues = {
    username: formText(form, 'username', 200).trim(),
    name: formText(form, 'name', 500).trim(),
    email: formText(form, 'email', 500).trim(),
    // An unknown value is no admin role; which roles the admin may give is the use case's rule (createUser).
    role: roleSchema.catch('user').parse(form.get('role')),
    passwordChoice: choice,
  };
  const input: NewUserInput = {
    username: values.username,
    name: values.name || null,
    email: values.email || null,
    password,
    role: values.role,
  };
  return { values, input, generated, problems };
}

export function readProfileForm(form: FormData): { values: ProfileFormValues; input: ProfileInput } {
  const values = { name: formText(form, 'name', 500), email: formText(form, 'email', 500) };
  return { values, input: values };
}

export function newUserFormValues(): NewUserFormValues {
  return { username: '', name: '', email: '', role: 'user', passwordChoice: 'generate' };
}

export function profileFormValues(user: Pick<UserRecord, 'name' | 'email'>): ProfileFormValues {
  return { name: user.name ?? '', email: user.email ?? '' };
}
