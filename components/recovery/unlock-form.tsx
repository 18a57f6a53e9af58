'use client';
/**
 * The unlock link's page: one button that uses the link (a POST: mail scanners only open it). Works without
 * JavaScript. In the page's language (the `recovery` and `problems` messages). UI only.
 */
import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { problemText } from '@/lib/i18n/problems';
import type { UnlockOutcome } from '@/lib/mail-links/account-unlock';
import { Button } from '../ui/button';
import { Notice } from '../ui/notice';

export function UnlockForm({ action }: { action: (state: UnlockOutcome, form: FormData) => Promise<UnlockOutcome> }) {
  const t = useTranslations('recovery.unlock');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'unlocked') return <Notice compact>{t('done', { username: state.username })}</Notice>;
  const stale = { expired: t('staleExpired'), used: t('used'), unknown: t('unknown') };
  return (
    <form action={formAction} className="space-y-4">
      {state.status === 'link' ? (
        <Notice variant="error" compact>
          {t('stale')} {stale[state.problem]}
        </Notice>
      ) : null}
      {state.status === 'throttled' ? (
        <Notice variant="error" compact>
          {problemText(problems, 'form', { code: 'throttled', values: { seconds: state.retryAfterSeconds } })}
        </Notice>
      ) : null}
      <p className="text-sm text-slate-700">{t('explain')}</p>
      <Button block type="submit" disabled={pending}>
        {pending ? t('pending') : t('submit')}
      </Button>
    </form>
  );
}
