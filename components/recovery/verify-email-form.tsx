'use client';
/**
 * The verification link's page: one button that uses the link (a POST: mail scanners only open it). Works without
 * JavaScript. In the page's language (the `recovery` and `problems` messages). UI only.
 */
import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { problemText } from '@/lib/i18n/problems';
import type { VerificationOutcome } from '@/lib/mail-links/email-verification';
import { Button, TextLink } from '../ui/button';
import { Notice } from '../ui/notice';

/**
 * The address is confirmed: said by the form once its button worked, and by the page for a link used
 * already (`used`), which is what a browser without JavaScript shows after the button.
 */
export function EmailConfirmed({ email, used = false }: { email: string; used?: boolean }) {
  const t = useTranslations('recovery');
  return (
    <Notice compact>
      {used ? `${t('verifyEmail.linkUsed')} ` : null}
      {t.rich('verifyEmail.confirmed', { email, strong: (chunks) => <strong>{chunks}</strong> })} <TextLink href="/account">{t('openAccount')}</TextLink>
    </Notice>
  );
}

export function VerifyEmailForm({ action, email }: { action: (state: VerificationOutcome, form: FormData) => Promise<VerificationOutcome>; email: string }) {
  const t = useTranslations('recovery.verifyEmail');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'verified') return <EmailConfirmed email={state.email} />;
  const stale = { expired: t('staleExpired'), used: t('staleUsed'), unknown: t('unknown') };
  return (
    <form action={formAction} className="space-y-4">
      {state.status === 'link' ? (
        <Notice variant="error" compact>
          {t('stale')} {stale[state.problem]}
        </Notice>
      ) : null}
      {state.status === 'taken' ? (
        <Notice variant="error" compact>
          {t('taken', { email })}
        </Notice>
      ) : null}
      {state.status === 'throttled' ? (
        <Notice variant="error" compact>
          {problemText(problems, 'form', { code: 'throttled', values: { seconds: state.retryAfterSeconds } })}
        </Notice>
      ) : null}
      <Button block type="submit" disabled={pending}>
        {pending ? t('pending') : t('submit', { email })}
      </Button>
    </form>
  );
}
