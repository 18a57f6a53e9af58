// /verify-email/{token}: the mailed verification link — one button confirms the address. Opening it changes nothing.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { EmailConfirmed, VerifyEmailForm } from '@/components/recovery/verify-email-form';
import { AuthCard } from '@/components/ui/card';
import { ClientMessages } from '@/components/ui/client-messages';
import { serverContext } from '@/lib/context';
import { VERIFICATION_LINK_HOURS, viewVerificationLink } from '@/lib/mail-links/email-verification';
import { confirmEmailAction } from '../actions';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('recovery.verifyEmail'))('title') };
}

export default async function VerifyEmailPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await viewVerificationLink(serverContext(), token);
  const t = await getTranslations('recovery');
  if (view.status === 'confirmed') {
    return (
      <AuthCard title={t('verifyEmail.title')}>
        <ClientMessages namespaces={['recovery']}>
          <EmailConfirmed email={view.email} used />
        </ClientMessages>
      </AuthCard>
    );
  }
  if (view.status !== 'valid') {
    const problems = {
      expired: t('verifyEmail.expired', { hours: VERIFICATION_LINK_HOURS }),
      used: t('verifyEmail.used'),
      unknown: t('verifyEmail.unknown'),
    };
    return (
      <AuthCard title={t('linkGone')}>
        <p className="text-sm text-slate-700">{problems[view.status]}</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('verifyEmail.title')} subtitle={t('verifyEmail.subtitle', { username: view.username })}>
      <ClientMessages namespaces={['recovery', 'problems']}>
        <VerifyEmailForm action={confirmEmailAction.bind(null, token)} email={view.email} />
      </ClientMessages>
    </AuthCard>
  );
}
