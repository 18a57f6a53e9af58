'use client';
/**
 * Setting a user's password from their page: typed twice or generated; a
 * generated one is shown once, in place, with how many of their sessions
 * ended. Works without JavaScript. In the page's language (admin.userForm, problems).
 */
import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { fieldProblemTexts } from '@/lib/i18n/problems';
import type { PasswordState } from '@/lib/surfaces/portal/users';
import { PasswordFields } from './password-fields';
import { PasswordReveal } from './password-reveal';
import { Button } from '../ui/button';
import { Notice } from '../ui/notice';

export function SetPasswordForm({ action, username }: { action: (state: PasswordState, form: FormData) => Promise<PasswordState>; username: string }) {
  const t = useTranslations('admin.userForm');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'set') {
    const ended = <Notice>{t('sessionsEnded', { count: state.endedSessions })}</Notice>;
    return state.password ? (
      <>
        <PasswordReveal heading={t('newPasswordSet', { username })} username={username} password={state.password} />
        {ended}
      </>
    ) : (
      <>
        <Notice>{t('passwordChanged')}</Notice>
        {ended}
      </>
    );
  }
  const errors = state.status === 'invalid' ? fieldProblemTexts(problems, state.problems) : {};
  return (
    <form action={formAction} noValidate className="space-y-4">
      <PasswordFields idPrefix="set-password" choice={state.status === 'invalid' ? 'type' : 'generate'} errors={errors} hideLegend />
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? t('setPending') : t('setPassword')}
      </Button>
    </form>
  );
}
