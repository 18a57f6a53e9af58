// /invitation/{token}: the mailed invitation — the person chooses their password. Opening it spends nothing (mail scanners open links).
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { NewPasswordForm } from '@/components/recovery/reset-forms';
import { TextLink } from '@/components/ui/button';
import { AuthCard } from '@/components/ui/card';
import { ClientMessages } from '@/components/ui/client-messages';
import { serverContext } from '@/lib/context';
import { INVITATION_LINK_DAYS, viewInvitation } from '@/lib/users/invitations';
import { minimumPasswordLength } from '@/lib/users/password-policy';
import { acceptInvitationAction } from '../actions';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('recovery.invitation'))('title') };
}

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await viewInvitation(serverContext(), token);
  const t = await getTranslations('recovery');
  if (view.status !== 'valid') {
    const problems = {
      expired: t('invitation.expired', { days: INVITATION_LINK_DAYS }),
      used: t('invitation.used'),
      unknown: t('invitation.unknown'),
    };
    return (
      <AuthCard title={t('linkGone')}>
        <p className="text-sm text-slate-700">{problems[view.status]}</p>
        <p className="mt-4 text-sm">{view.status === 'used' ? <TextLink href="/account">{t('openAccount')}</TextLink> : t('invitation.ask')}</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('invitation.title')} subtitle={t('invitation.subtitle', { username: view.username })}>
      <p className="mb-4 text-sm text-slate-700">{t('invitation.welcome', { email: view.email })}</p>
      <ClientMessages namespaces={['recovery', 'passwordPair', 'problems', 'ui']}>
        <NewPasswordForm
          action={acceptInvitationAction.bind(null, token)}
          username={view.username}
          minLength={minimumPasswordLength(serverContext().config)}
          wording={{
            done: t('invitation.done', { email: view.email }),
            another: t('invitation.ask'),
            submit: t('invitation.submit'),
          }}
        />
      </ClientMessages>
    </AuthCard>
  );
}
