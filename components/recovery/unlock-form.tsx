'use client';
/**
 * The unlock link's page: one button that uses the link (a POST: mail scanners only open it). Works without
 * JavaScript. In the page's language (the `recovery` and `problems` messages). UI only.
 */
import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import type { UnlockOutcome } from '@/lib/mail-links/account-unlock';
import { Button } from '../ui/button';
import { Notice } from '../ui/notice';
import { LinkRefusal } from './link-refusal';

export function UnlockForm({ action }: { action: (state: UnlockOutcome, form: FormData) => Promise<UnlockOutcome> }) {
  const t = useTranslations('recovery.unlock');
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'unlocked') return <Notice compact>{t('done', { username: state.username })}</Notice>;
  return (
    <form action={formAction} className="space-y-4">
      <LinkRefusal state={state} stale={t('stale')} words={{ expired: t('staleExpired'), used: t('used'), unknown: t('unknown') }} />
      <p className="text-sm text-slate-700">{t('explain')}</p>
      <Button block type="submit" disabled={pending}>
        {pending ? t('pending') : t('submit')}
      </Button>
    </form>
  );
}
