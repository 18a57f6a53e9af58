'use client';
/**
 * The user forms: create a user, edit a profile. Their actions are server
 * actions validated by the shared user schemas; expected errors come back as
 * values and show next to their fields. Work without JavaScript. A generated
 * password is shown once, in the answer to the create form; a typed one is
 * never shown again.
 */
import Link from 'next/link';
import { useActionState, useEffect, useRef } from 'react';
import type { NewUserFormValues, ProfileFormValues, UserFieldErrors } from '@/lib/services/portal/user-form';
import type { NewUserState, ProfileFormState } from '@/lib/services/portal/users';
import { Field, border, describedBy, inputLook } from './field';
import { PasswordFields } from './password-fields';
import { PasswordReveal } from './password-reveal';
import { Button, ButtonLink, focusRing } from './ui';

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

function Problems({ errors }: { errors: UserFieldErrors }) {
  const summary = useRef<HTMLDivElement>(null);
  const problems = Object.entries(errors) as Array<[keyof UserFieldErrors, string[]]>;
  useEffect(() => {
    if (problems.length) summary.current?.focus();
  }, [errors]); // focus the summary after each answer, not on every render
  if (!problems.length) return null;
  return (
    <div ref={summary} tabIndex={-1} role="alert" aria-labelledby="form-problems" className="rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800 outline-none">
      <p id="form-problems" className="font-semibold">
        {problems.length === 1 ? 'One field needs attention' : `${problems.length} fields need attention`}
      </p>
      <ul className="mt-1 list-inside list-disc">
        {problems.map(([field, messages]) => (
          <li key={field}>
            {field === 'form' ? (
              messages.join(' ')
            ) : (
              <a href={`#${anchors[field] ?? field}`} className="underline">
                {fieldNames[field]}: {messages[0]}
              </a>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ProfileFields({ values, errors }: { values: { name: string; email: string }; errors: UserFieldErrors }) {
  return (
    <>
      <Field id="name" label="Name (optional)" hint="Shown to apps that ask for the profile scope." errors={errors.name}>
        <input id="name" name="name" maxLength={128} autoComplete="off" defaultValue={values.name} aria-invalid={!!errors.name} aria-describedby={describedBy('name', true, errors.name)} className={`${inputLook} ${border(!!errors.name)}`} />
      </Field>
      <Field id="email" label="Email (optional)" hint="Unique across users. A changed address is no longer marked verified." errors={errors.email}>
        <input id="email" name="email" type="email" maxLength={254} autoComplete="off" defaultValue={values.email} aria-invalid={!!errors.email} aria-describedby={describedBy('email', true, errors.email)} className={`${inputLook} ${border(!!errors.email)}`} />
      </Field>
    </>
  );
}

export function NewUserForm({ action, initial }: { action: (state: NewUserState, form: FormData) => Promise<NewUserState>; initial: NewUserFormValues }) {
  const [state, formAction, pending] = useActionState(action, { status: 'editing', values: initial, errors: {} });

  if (state.status === 'created') {
    const href = `/admin/users/${encodeURIComponent(state.user.id)}`;
    return (
      <div className="space-y-6">
        {state.password ? (
          <PasswordReveal heading={`${state.user.username} is created`} username={state.user.username} password={state.password} />
        ) : (
          <div role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900">
            <p className="font-semibold">{state.user.username} is created</p>
            <p className="mt-1">They can sign in with the password you typed.</p>
          </div>
        )}
        <ButtonLink href={href}>{state.password ? 'I have copied it — show the user' : 'Show the user'}</ButtonLink>
      </div>
    );
  }

  const { values: v, errors } = state;
  return (
    <form action={formAction} noValidate className="space-y-6">
      <Problems errors={errors} />
      <Field id="username" label="Username" hint="Letters, digits and . _ @ - only. It cannot be changed later." errors={errors.username}>
        <input id="username" name="username" required maxLength={64} autoComplete="off" spellCheck={false} defaultValue={v.username} aria-invalid={!!errors.username} aria-describedby={describedBy('username', true, errors.username)} className={`${inputLook} ${border(!!errors.username)}`} />
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
      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-6">
        <Button type="submit" disabled={pending}>
          {pending ? 'Creating…' : 'Create user'}
        </Button>
        <Link href="/admin/users" className={`rounded-sm px-2 text-sm font-medium text-slate-600 hover:text-slate-900 ${focusRing}`}>
          Cancel
        </Link>
      </div>
    </form>
  );
}

export function ProfileForm({ action, initial, cancelHref }: { action: (state: ProfileFormState, form: FormData) => Promise<ProfileFormState>; initial: ProfileFormValues; cancelHref: string }) {
  const [state, formAction, pending] = useActionState(action, { status: 'editing', values: initial, errors: {} });
  const { values, errors } = state.status === 'editing' ? state : { values: initial, errors: {} };
  return (
    <form action={formAction} noValidate className="space-y-6">
      <Problems errors={errors} />
      <ProfileFields values={values} errors={errors} />
      <div className="flex flex-wrap items-center gap-3 border-t border-slate-200 pt-6">
        <Button type="submit" disabled={pending}>
          {pending ? 'Saving…' : 'Save changes'}
        </Button>
        <Link href={cancelHref} className={`rounded-sm px-2 text-sm font-medium text-slate-600 hover:text-slate-900 ${focusRing}`}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
