'use client';
/**
 * The change-password form: the current password, then the new one twice.
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
import { TextField } from './fields';

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
      <TextField
        id="currentPassword"
        label={t('current')}
        type="password"
        autoComplete="current-password"
        required
        errors={problemTexts(problems, 'currentPassword', errors.currentPassword)}
      />
      <TextField
        id="newPassword"
        label={t('new')}
        hint={t('newHint', { minimum: minLength })}
        type="password"
        autoComplete="new-password"
        required
        minLength={minLength}
        errors={problemTexts(problems, 'newPassword', errors.newPassword)}
      />
      <TextField
        id="confirmPassword"
        label={t('confirm')}
        type="password"
        autoComplete="new-password"
        required
        errors={problemTexts(problems, 'confirmNewPassword', errors.confirmPassword)}
      />
      <FormError messages={problemTexts(problems, 'form', errors.form)} />
      <Button type="submit" disabled={pending}>
        {pending ? t('pending') : t('submit')}
      </Button>
    </form>
  );
}
