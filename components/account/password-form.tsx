'use client';
/**
 * The change-password form: the current password, then the new one twice (with Show and strength
 * guidance, components/recovery/password-pair.tsx).
 * Nothing typed is ever sent back: after each answer every field starts empty
 * (React resets a form once its action completes) and only the messages
 * remain, worded here in the page's language. A hidden username field lets
 * password managers file the new password under the right account.
 */
import { useTranslations } from 'next-intl';
import { useActionState, useEffect, useRef } from 'react';
import { problemTexts } from '@/lib/i18n/problems';
import type { PasswordChangeState } from '@/lib/surfaces/account/pages';
import { Button, TextLink } from '../ui/button';
import { FormError, Notice } from '../ui/notice';
import { PasswordField } from '../ui/password-field';
import { PasswordPair } from '../recovery/password-pair';
import { sentence } from './fields';

export function PasswordForm({
  action,
  username,
  minLength,
}: {
  action: (state: PasswordChangeState, form: FormData) => Promise<PasswordChangeState>;
  username: string;
  minLength: number;
}) {
  const t = useTranslations('account.password');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  const form = useRef<HTMLFormElement>(null);
  const errors = state.status === 'invalid' ? state.errors : {};
  useEffect(() => {
    form.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
  }, [state]);

  return (
    <form ref={form} action={formAction} noValidate className="space-y-5">
      {state.status === 'changed' ? (
        <Notice>
          <p className="font-semibold">{t('changed')}</p>
          <p className="mt-1">
            {state.endedSessions === 0 ? t('noOthers') : t('othersEnded', { count: state.endedSessions })}{' '}
            {t.rich('appsKeep', { link: (chunks) => <TextLink href="/account/apps">{chunks}</TextLink> })}
          </p>
        </Notice>
      ) : null}
      <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
      <PasswordField
        id="currentPassword"
        label={t('current')}
        autoComplete="current-password"
        required
        errors={problemTexts(problems, 'currentPassword', errors.currentPassword)?.map(sentence)}
      />
      <PasswordPair
        name="newPassword"
        label={t('new')}
        againLabel={t('confirm')}
        minLength={minLength}
        errors={{ password: errors.newPassword, confirmPassword: errors.confirmPassword }}
        problemFields={{ password: 'newPassword', confirmPassword: 'confirmNewPassword' }}
        sentence={sentence}
      />
      <FormError messages={problemTexts(problems, 'form', errors.form)} />
      <Button type="submit" disabled={pending}>
        {pending ? t('pending') : t('submit')}
      </Button>
    </form>
  );
}
