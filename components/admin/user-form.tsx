'use client';
/**
 * The user forms: create a user, edit a profile. Their actions are server
 * actions validated by the shared user schemas; expected errors come back as
 * values and show next to their fields. Work without JavaScript. A generated
 * password is shown once, in the answer to the create form; a typed one is
 * never shown again.
 */
import { useActionState } from 'react';
import type { NewUserFormValues, ProfileFormValues, UserFieldErrors } from '@/lib/services/portal/user-form';
import type { NewUserState, ProfileFormState } from '@/lib/services/portal/users';
import { border, describedBy, Field, inputLook } from '../ui/field';
import { Created } from './created';
import { PasswordFields } from './password-fields';
import { PasswordReveal } from './password-reveal';
import { FormActions, focusRing } from '../ui/button';
import { ProblemSummary } from '../ui/problem-summary';

const fieldNames: Record<keyof UserFieldErrors, string> = {
  form: 'Form',
  username: 'Username',
  name: 'Name',
  email: 'Email',
  role: 'Role',
  password: 'Password',
  confirmPassword: 'Password, again',
};

/** Anchors of the fields, for the summary's links. */
const anchors: Partial<Record<keyof UserFieldErrors, string>> = { password: 'new-user-password', confirmPassword: 'new-user-confirm' };

function ProfileFields({ values, errors }: { values: { name: string; email: string }; errors: UserFieldErrors }) {
  return (
    <>
      <Field id="name" label="Name (optional)" hint="Shown to apps that ask for the profile scope." errors={errors.name}>
        <input
          id="name"
          name="name"
          maxLength={128}
          autoComplete="off"
          defaultValue={values.name}
          aria-invalid={!!errors.name}
          aria-describedby={describedBy('name', true, errors.name)}
          className={`${inputLook} ${border(!!errors.name)}`}
        />
      </Field>
      <Field id="email" label="Email (optional)" hint="Unique across users. A changed address is no longer marked verified." errors={errors.email}>
        <input
          id="email"
          name="email"
          type="email"
          maxLength={254}
          autoComplete="off"
          defaultValue={values.email}
          aria-invalid={!!errors.email}
          aria-describedby={describedBy('email', true, errors.email)}
          className={`${inputLook} ${border(!!errors.email)}`}
        />
      </Field>
    </>
  );
}

export function NewUserForm({ action, initial }: { action: (state: NewUserState, form: FormData) => Promise<NewUserState>; initial: NewUserFormValues }) {
  const [state, formAction, pending] = useActionState(action, { status: 'editing', values: initial, errors: {} });

  if (state.status === 'created') {
    const { user, password } = state;
    return (
      <Created
        heading={`${user.username} is created`}
        reveal={password ? <PasswordReveal heading={`${user.username} is created`} username={user.username} password={password} /> : undefined}
        href={`/admin/users/${encodeURIComponent(user.id)}`}
        next={password ? 'I have copied it — show the user' : 'Show the user'}
      >
        They can sign in with the password you typed.
      </Created>
    );
  }

  const { values: v, errors } = state;
  return (
    <form action={formAction} noValidate className="space-y-6">
      <ProblemSummary errors={errors} names={fieldNames} anchors={anchors} />
      <Field id="username" label="Username" hint="Letters, digits and . _ @ - only. It cannot be changed later." errors={errors.username}>
        <input
          id="username"
          name="username"
          required
          maxLength={64}
          autoComplete="off"
          spellCheck={false}
          defaultValue={v.username}
          aria-invalid={!!errors.username}
          aria-describedby={describedBy('username', true, errors.username)}
          className={`${inputLook} ${border(!!errors.username)}`}
        />
      </Field>
      <ProfileFields values={v} errors={errors} />
      <PasswordFields idPrefix="new-user" choice={v.passwordChoice} errors={errors} />
      <label className="flex gap-3 text-sm">
        <input type="checkbox" name="role" value="admin" defaultChecked={v.role === 'admin'} className={`mt-0.5 size-4 accent-indigo-600 ${focusRing}`} />
        <span>
          <span className="font-medium text-slate-900">Administrator</span>
          <span className="block text-slate-500">May use this portal: manage clients, users and read the audit log.</span>
        </span>
      </label>
      <FormActions submit="Create user" pending={pending} pendingLabel="Creating…" cancelHref="/admin/users" />
    </form>
  );
}

export function ProfileForm({
  action,
  initial,
  cancelHref,
}: {
  action: (state: ProfileFormState, form: FormData) => Promise<ProfileFormState>;
  initial: ProfileFormValues;
  cancelHref: string;
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'editing', values: initial, errors: {} });
  const { values, errors } = state.status === 'editing' ? state : { values: initial, errors: {} };
  return (
    <form action={formAction} noValidate className="space-y-6">
      <ProblemSummary errors={errors} names={fieldNames} anchors={anchors} />
      <ProfileFields values={values} errors={errors} />
      <FormActions submit="Save changes" pending={pending} pendingLabel="Saving…" cancelHref={cancelHref} />
    </form>
  );
}
