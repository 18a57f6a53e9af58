'use client';
/**
 * "Create an account" (lib/sign-in/sign-up.ts): username, email, optional name,
 * the password twice. A server action: works without JavaScript. After a
 * refusal the fields come back as typed, never the passwords (each with Show
 * and the new one with strength guidance: components/recovery/password-pair.tsx). In the page's
 * language (the `signUp` and `problems` messages). UI only.
 */
import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { problemTexts } from '@/lib/i18n/problems';
import type { SignUpFormState, SignUpValues } from '@/lib/sign-in/sign-up-interaction';
import { Button, TextLink } from '../ui/button';
import { TextField } from '../ui/field';
import { FormError, Notice } from '../ui/notice';
import { PasswordPair } from '../recovery/password-pair';

export function SignUpForm({
  action,
  back,
  domains,
  minLength,
}: {
  action: (state: SignUpFormState, form: FormData) => Promise<SignUpFormState>;
  /** The sign-in page of the same request. */
  back: string;
  domains: string[];
  minLength: number;
}) {
  const t = useTranslations('signUp');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'expired') {
    return (
      <Notice variant="error" compact>
        {t('expired')}
      </Notice>
    );
  }
  const errors = state.status === 'invalid' ? state.errors : {};
  const values = state.status === 'invalid' || state.status === 'failed' ? state.values : undefined;
  // What each text field shares: its label, what was typed before a refusal, and its problems.
  const typed = (id: keyof SignUpValues) => ({
    compact: true,
    id,
    label: t(id),
    defaultValue: values?.[id],
    errors: problemTexts(problems, id, errors[id]),
  });
  // A new key after each answer, so the fields take the values typed back.
  const key = `${state.status}-${values?.username ?? ''}-${values?.email ?? ''}`;
  return (
    <>
      <form action={formAction} noValidate className="space-y-4" key={key}>
        {state.status === 'failed' ? (
          <Notice variant="error" compact>
            {t('mailFailed')}
          </Notice>
        ) : null}
        <TextField
          {...typed('username')}
          hint={t('usernameHint')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          autoFocus
          maxLength={64}
        />
        <TextField
          {...typed('email')}
          hint={domains.length ? t('emailHintDomains', { domains: domains.join(', ') }) : t('emailHint')}
          type="email"
          autoComplete="email"
          required
          maxLength={254}
        />
        <TextField {...typed('name')} autoComplete="name" maxLength={128} />
        <PasswordPair label={t('password')} minLength={minLength} errors={errors} />
        <FormError messages={problemTexts(problems, 'form', errors.form)} />
        <Button block type="submit" disabled={pending}>
          {pending ? t('pending') : t('submit')}
        </Button>
      </form>
      <p className="mt-4 text-center text-sm text-slate-600">{t.rich('haveAccount', { link: (chunks) => <TextLink href={back}>{chunks}</TextLink> })}</p>
    </>
  );
}
