// /unlock/{token}: the mailed unlock link — one button lifts the lock and makes this browser a known one. Opening it changes nothing.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getTranslations } from 'next-intl/server';
import { UnlockForm } from '@/components/recovery/unlock-form';
import { AuthCard } from '@/components/ui/card';
import { ClientMessages } from '@/components/ui/client-messages';
import { Notice } from '@/components/ui/notice';
import { serverContext } from '@/lib/context';
import { UNLOCK_LINK_HOURS, viewUnlockLink } from '@/lib/mail-links/account-unlock';
import { unlockAction } from '../actions';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('recovery.unlock'))('title') };
}

export default async function UnlockPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await viewUnlockLink(serverContext(), token, (await headers()).get('cookie'));
  const t = await getTranslations('recovery');
  if (view.status === 'unlocked') {
    return (
      <AuthCard title={t('unlock.title')}>
        <Notice compact>{t('unlock.done', { username: view.username })}</Notice>
      </AuthCard>
    );
  }
  if (view.status !== 'valid') {
    const problems = { expired: t('unlock.expired', { hours: UNLOCK_LINK_HOURS }), used: t('unlock.used'), unknown: t('unlock.unknown') };
    return (
      <AuthCard title={t('linkGone')}>
        <p className="text-sm text-slate-700">{problems[view.status]}</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('unlock.title')} subtitle={t('unlock.subtitle', { username: view.username })}>
      <ClientMessages namespaces={['recovery', 'problems']}>
        <UnlockForm action={unlockAction.bind(null, token)} />
      </ClientMessages>
    </AuthCard>
  );
}
