// /password-reset/{token}: the mailed link's page — choose the new password. Opening it spends nothing (mail scanners open links).
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { NewPasswordForm } from '@/components/recovery/reset-forms';
import { TextLink } from '@/components/ui/button';
import { AuthCard } from '@/components/ui/card';
import { ClientMessages } from '@/components/ui/client-messages';
import { serverContext } from '@/lib/context';
import { minimumPasswordLength } from '@/lib/users/password-policy';
import { RESET_LINK_MINUTES, viewResetLink } from '@/lib/mail-links/password-reset';
import { resetPasswordAction } from '../actions';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('recovery.reset'))('title') };
}

export default async function ResetLinkPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await viewResetLink(serverContext(), token);
  const t = await getTranslations('recovery');
  if (view.status !== 'valid') {
    const problems = { expired: t('reset.expired', { minutes: RESET_LINK_MINUTES }), used: t('reset.used'), unknown: t('reset.unknown') };
    return (
      // Used: also what the page says after its own plain form post without JavaScript (drawn again, the
      // link spent by then), so the words fit both the person who just used it and anyone opening it later.
      <AuthCard title={view.status === 'used' ? t('reset.usedTitle') : t('linkGone')}>
        <p className="text-sm text-slate-700">{problems[view.status]}</p>
        <p className="mt-4 text-sm">
          <TextLink href="/password-reset">{t('reset.askAgain')}</TextLink>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('reset.title')} subtitle={t('reset.subtitle', { username: view.username })}>
      <ClientMessages namespaces={['recovery', 'passwordPair', 'problems', 'ui']}>
        <NewPasswordForm action={resetPasswordAction.bind(null, token)} username={view.username} minLength={minimumPasswordLength(serverContext().config)} />
      </ClientMessages>
    </AuthCard>
  );
}
