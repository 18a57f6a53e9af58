// /password-reset: "Forgot your password?" — the username or email address the link goes to. In the browser's language.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { RequestResetForm } from '@/components/recovery/reset-forms';
import { TextLink } from '@/components/ui/button';
import { AuthCard } from '@/components/ui/card';
import { ClientMessages } from '@/components/ui/client-messages';
import { serverContext } from '@/lib/context';
import { canMailLinks, RESET_LINK_MINUTES } from '@/lib/mail-links/password-reset';
import { requestResetAction } from './actions';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('recovery.request'))('title') };
}

/** Back to the sign-in page the person came from: only an interaction page of this server. */
const backTo = (from: unknown) => (typeof from === 'string' && /^\/interaction\/[A-Za-z0-9_-]{1,64}$/.test(from) ? from : undefined);

export default async function PasswordResetPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const t = await getTranslations('recovery.request');
  const back = backTo((await searchParams).from);
  const backLink = back ? (
    <p className="mt-4 text-sm text-slate-600">
      <TextLink href={back}>{t('back')}</TextLink>
    </p>
  ) : null;
  if (!canMailLinks(serverContext())) {
    return (
      <AuthCard title={t('title')}>
        <p className="text-sm text-slate-700">{t('noMail')}</p>
        {backLink}
      </AuthCard>
    );
  }
  return (
    <AuthCard title={t('title')} subtitle={t('subtitle')}>
      <ClientMessages namespaces={['recovery', 'problems']}>
        <RequestResetForm action={requestResetAction} validMinutes={RESET_LINK_MINUTES} />
      </ClientMessages>
      {backLink}
    </AuthCard>
  );
}
