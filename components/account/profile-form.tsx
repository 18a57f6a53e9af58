'use client';
/**
 * The profile form: name and email. Its action is a server action validated
 * with the shared profile schema; expected errors come back as values (codes,
 * worded here in the page's language) and show next to their fields, with what
 * was typed. Works without JavaScript (React renders the action's answer into the page).
 */
import { useTranslations } from 'next-intl';
import { useActionState, useEffect, useRef } from 'react';
import { problemTexts } from '@/lib/i18n/problems';
import type { ProfileState, ProfileValues } from '@/lib/surfaces/account/pages';
import { Button } from '../ui/button';
import { FormError, Notice } from '../ui/notice';
import { TextField } from './fields';

export function ProfileForm({
  action,
  initial,
  product,
  linkHours,
}: {
  action: (state: ProfileState, form: FormData) => Promise<ProfileState>;
  initial: ProfileValues;
  /** The brand's name. */
  product: string;
  /** How long a new address's confirmation link works. */
  linkHours: number;
}) {
  const t = useTranslations('account.profile');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'editing', values: initial, errors: {} });
  const form = useRef<HTMLFormElement>(null);
  const { values, errors } = state;
  useEffect(() => {
    // After each answer: the first field with a problem takes the focus (its message is read with it).
    form.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
  }, [state]);

  return (
    <form ref={form} action={formAction} noValidate className="space-y-5">
      {state.status === 'saved' ? (
        <Notice>
          {t('saved', { product })}
          {state.pendingEmail ? (
            <> {t.rich('pendingEmail', { email: state.pendingEmail, hours: linkHours, strong: (chunks) => <strong>{chunks}</strong> })}</>
          ) : null}
        </Notice>
      ) : null}
      <TextField
        id="name"
        label={t('name')}
        hint={t('nameHint')}
        autoComplete="name"
        maxLength={128}
        defaultValue={values.name}
        errors={problemTexts(problems, 'name', errors.name)}
      />
      <TextField
        id="email"
        label={t('email')}
        hint={t('emailHint')}
        type="email"
        inputMode="email"
        autoComplete="email"
        maxLength={254}
        defaultValue={values.email}
        errors={problemTexts(problems, 'email', errors.email)}
      />
      <FormError messages={problemTexts(problems, 'form', errors.form)} />
      <Button type="submit" disabled={pending}>
        {pending ? t('pending') : t('submit')}
      </Button>
    </form>
  );
}
