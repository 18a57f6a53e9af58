// /federation/error — a sign-in through another provider that cannot go back to its sign-in page
// (a callback with an unknown or replayed state, or whose sign-in request is gone): what happened,
// in the person's language, and the way back to the application when it is known.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getTranslations } from 'next-intl/server';
import { buttonLook } from '@/components/ui/button';
import { AuthCard } from '@/components/ui/card';
import { SupportDetails } from '@/components/interaction/support';
import { federationErrorPage } from '@/lib/surfaces/federation/error-page';
import { requestIdOf } from '@/lib/platform/request-context';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('federation.error'))('title') };
}

export default async function FederationErrorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { reason, uid } = await searchParams;
  const view = await federationErrorPage(reason, uid);
  const t = await getTranslations('federation.error');
  const errors = await getTranslations('interaction.errors');
  return (
    <AuthCard title={t('title')}>
      <p className="text-sm text-slate-600">{errors(`federation_${view.reason}`)}</p>
      {view.app ? (
        <a href={view.app.href} className={`mt-6 block ${buttonLook('primary', true)}`}>
          {t('back', { client: view.app.name })}
        </a>
      ) : (
        <p className="mt-2 text-sm text-slate-600">{t('startAgain')}</p>
      )}
      <SupportDetails requestId={requestIdOf(await headers())} />
    </AuthCard>
  );
}
