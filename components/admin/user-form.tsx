'use client';
/**
 * The user forms: create a user, edit a profile. Their actions are server
 * actions validated by the shared user schemas; expected errors come back as
 * values and show next to their fields. Work without JavaScript. A generated
 * password is shown once, in the answer to the create form; a typed one is
 * never shown again; an invitation's link never (it goes to the person only).
 */
import { useActionState } from 'react';
import type { NewUserFormValues, ProfileFormValues, UserFieldErrors } from '@/lib/services/portal/user-form';
import type { NewUserState, ProfileFormState } from '@/lib/services/portal/users';
import { border, describedBy, Field, inputLook } from '../ui/field';
import { Created } from './created';
import { PasswordFields } from './password-fields';
import { PasswordReveal } from './password-reveal';
import { FormActions, focusRing } from '../ui/button';
import { Notice } from '../ui/notice';
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

/** `creating`: the new-user form, where the address gets a mail (an invitation needs one). */
function ProfileFields({ values, errors, creating = false }: { values: { name: string; email: string }; errors: UserFieldErrors; creating?: boolean }) {
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
      <Field
        id="email"
        label="Email (optional)"
        hint={
          creating
            ? 'Unique across users. Needed for an invitation; otherwise it gets a link that verifies it.'
            : 'Unique across users. A changed address is no longer marked verified.'
        }
        errors={errors.email}
      >
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

/** What the answer says about the mail a new user got, if any. */
function mailNotice(state: Extract<NewUserState, { status: 'created' }>) {
  const { user, invitation, verification } = state;
  if (invitation === 'sent') return <Notice>An invitation is on its way to {user.email}: they choose their password with its link.</Notice>;
  if (invitation === 'failed')
    return (
      <Notice variant="error">
        The mail server refused the invitation: {user.username} is created without a password. Send the invitation again from their page.
      </Notice>
    );
  if (verification === 'sent') return <Notice>A link to verify {user.email} is on its way to it.</Notice>;
  if (verification === 'failed') return <Notice variant="error">The mail server refused the verification link: send it again from the user’s page.</Notice>;
  return null;
}

export function NewUserForm({
  action,
  initial,
  invite,
}: {
  action: (state: NewUserState, form: FormData) => Promise<NewUserState>;
  initial: NewUserFormValues;
  /** Whether this server can mail invitations, and for how long their links work. */
  invite: { available: boolean; validDays: number };
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'editing', values: initial, errors: {} });

  if (state.status === 'created') {
    const { user, password, invitation } = state;
    return (
      <>
        {mailNotice(state)}
        <Created
          heading={`${user.username} is created`}
          reveal={password ? <PasswordReveal heading={`${user.username} is created`} username={user.username} password={password} /> : undefined}
          href={`/admin/users/${encodeURIComponent(user.id)}`}
          next={password ? 'I have copied it — show the user' : 'Show the user'}
        >
          {invitation ? 'They cannot sign in until they choose their password.' : 'They can sign in with the password you typed.'}
        </Created>
      </>
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
      <ProfileFields values={v} errors={errors} creating />
      <PasswordFields idPrefix="new-user" choice={v.passwordChoice} errors={errors} invite={invite} />
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
