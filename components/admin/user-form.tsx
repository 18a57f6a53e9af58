'use client';
/**
 * The user forms: create a user, edit a profile. Their actions are server
 * actions validated by the shared user schemas; expected errors come back as
 * values and show next to their fields. Work without JavaScript. A generated
 * password is shown once, in the answer to the create form; a typed one is
 * never shown again; an invitation's link never (it goes to the person only).
 * In the page's language (admin.userForm, and problems for the refusals).
 */
import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { fieldProblemTexts } from '@/lib/i18n/problems';
import type { NewUserFormValues, ProfileFormValues, UserFieldProblems } from '@/lib/surfaces/portal/user-fields';
import type { NewUserState, ProfileFormState } from '@/lib/surfaces/portal/users';
import { TextField } from '../ui/field';
import { Created } from './created';
import { PasswordFields } from './password-fields';
import { PasswordReveal } from './password-reveal';
import { FormActions, focusRing } from '../ui/button';
import { Notice } from '../ui/notice';
import { ProblemSummary } from '../ui/problem-summary';

type FieldName = keyof UserFieldProblems;
type Errors = Partial<Record<FieldName, string[]>>;
const fields: FieldName[] = ['form', 'username', 'name', 'email', 'role', 'password', 'confirmPassword'];

/** Anchors of the fields, for the summary's links. */
const anchors: Partial<Record<FieldName, string>> = { password: 'new-user-password', confirmPassword: 'new-user-confirm' };

/** The form's words: its fields' names for the summary, and each field's problems as messages. */
function useWords(problems: UserFieldProblems) {
  const t = useTranslations('admin.userForm');
  const problemWords = useTranslations('problems');
  const fieldNames = Object.fromEntries(fields.map((field) => [field, t(`fields.${field}`)])) as Record<FieldName, string>;
  return { t, fieldNames, errors: fieldProblemTexts(problemWords, problems) };
}

/** `creating`: the new-user form, where the address gets a mail (an invitation needs one). */
function ProfileFields({ values, errors, creating = false }: { values: { name: string; email: string }; errors: Errors; creating?: boolean }) {
  const t = useTranslations('admin.userForm');
  return (
    <>
      <TextField id="name" label={t('name')} hint={t('nameHint')} errors={errors.name} maxLength={128} autoComplete="off" defaultValue={values.name} />
      <TextField
        id="email"
        label={t('email')}
        hint={creating ? t('emailHintCreate') : t('emailHintEdit')}
        errors={errors.email}
        type="email"
        maxLength={254}
        autoComplete="off"
        defaultValue={values.email}
      />
    </>
  );
}

/** What the answer says about the mail a new user got, if any. */
function MailNotice({ state }: { state: Extract<NewUserState, { status: 'created' }> }) {
  const t = useTranslations('admin.userForm');
  const { user, invitation, verification } = state;
  const email = user.email ?? '';
  if (invitation === 'sent') return <Notice>{t('invitationSent', { email })}</Notice>;
  if (invitation === 'failed') return <Notice variant="error">{t('invitationFailed', { username: user.username })}</Notice>;
  if (verification === 'sent') return <Notice>{t('verificationSent', { email })}</Notice>;
  if (verification === 'failed') return <Notice variant="error">{t('verificationFailed')}</Notice>;
  return null;
}

export function NewUserForm({
  action,
  initial,
  invite,
  canGiveAdmin,
}: {
  action: (state: NewUserState, form: FormData) => Promise<NewUserState>;
  initial: NewUserFormValues;
  /** Whether this server can mail invitations, and for how long their links work. */
  invite: { available: boolean; validDays: number };
  /** Whether the admin's own role may give the admin role (a user manager's may not: the use case refuses it anyway). */
  canGiveAdmin: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'editing', values: initial, problems: {} });
  const { t, fieldNames, errors } = useWords(state.status === 'editing' ? state.problems : {});

  if (state.status === 'created') {
    const { user, password, invitation } = state;
    const heading = t('created', { username: user.username });
    return (
      <>
        <MailNotice state={state} />
        <Created
          heading={heading}
          reveal={password ? <PasswordReveal heading={heading} username={user.username} password={password} /> : undefined}
          href={`/admin/users/${encodeURIComponent(user.id)}`}
          next={password ? t('showUserCopied') : t('showUser')}
        >
          {invitation ? t('createdInvited') : t('createdTyped')}
        </Created>
      </>
    );
  }

  const v = state.values;
  return (
    <form action={formAction} noValidate className="space-y-6">
      <ProblemSummary errors={errors} names={fieldNames} anchors={anchors} />
      <TextField
        id="username"
        label={t('username')}
        hint={t('usernameHint')}
        errors={errors.username}
        required
        maxLength={64}
        autoComplete="off"
        spellCheck={false}
        defaultValue={v.username}
      />
      <ProfileFields values={v} errors={errors} creating />
      <PasswordFields idPrefix="new-user" choice={v.passwordChoice} errors={errors} invite={invite} />
      {canGiveAdmin ? (
        <label className="flex gap-3 text-sm">
          <input type="checkbox" name="role" value="admin" defaultChecked={v.role === 'admin'} className={`mt-0.5 size-4 accent-indigo-600 ${focusRing}`} />
          <span>
            <span className="font-medium text-slate-900">{t('administrator')}</span>
            <span className="block text-slate-500">{t('administratorHint')}</span>
          </span>
        </label>
      ) : null}
      <FormActions submit={t('submitCreate')} pending={pending} pendingLabel={t('pendingCreate')} cancelHref="/admin/users" />
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
  const [state, formAction, pending] = useActionState(action, { status: 'editing', values: initial, problems: {} });
  const { values, problems } = state.status === 'editing' ? state : { values: initial, problems: {} };
  const { t, fieldNames, errors } = useWords(problems);
  return (
    <form action={formAction} noValidate className="space-y-6">
      <ProblemSummary errors={errors} names={fieldNames} anchors={anchors} />
      <ProfileFields values={values} errors={errors} />
      <FormActions submit={t('submitSave')} pending={pending} pendingLabel={t('pendingSave')} cancelHref={cancelHref} />
    </form>
  );
}
