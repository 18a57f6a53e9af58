'use client';
/**
 * The verification link's page: one button that uses the link (a POST: mail scanners only open it). Works without
 * JavaScript. In the page's language (the `recovery` and `problems` messages). UI only.
 */
import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import type { VerificationOutcome } from '@/lib/mail-links/email-verification';
import { Button, TextLink } from '../ui/button';
import { Notice } from '../ui/notice';
import { LinkRefusal } from './link-refusal';

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
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'verified') return <EmailConfirmed email={state.email} />;
  return (
    <form action={formAction} className="space-y-4">
      {state.status === 'taken' ? (
        <Notice variant="error" compact>
          {t('taken', { email })}
        </Notice>
      ) : null}
      <LinkRefusal state={state} stale={t('stale')} words={{ expired: t('staleExpired'), used: t('staleUsed'), unknown: t('unknown') }} />
      <Button block type="submit" disabled={pending}>
        {pending ? t('pending') : t('submit', { email })}
      </Button>
    </form>
  );
}
