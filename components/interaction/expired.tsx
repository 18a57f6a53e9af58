/**
 * What an interaction page shows once its authorization request is gone, in the page's language:
 * what happened, what to do (back to the application when its address is known and safe, else a
 * clear stop), and the request id for support. UI only.
 */
import { getTranslations } from 'next-intl/server';
import { buttonLook } from '../ui/button';
import { AuthCard } from '../ui/card';
import { SupportDetails } from './support';

export async function ExpiredInteraction({ app, requestId }: { app?: { name: string; href: string }; requestId?: string | null }) {
  const t = await getTranslations('interaction.expired');
  return (
    <AuthCard title={t('title')}>
      <p className="text-sm text-slate-600">{t('body')}</p>
      <p className="mt-2 text-sm text-slate-600">{app ? t('goBack', { client: app.name }) : t('startAgain')}</p>
      {app ? (
        <a href={app.href} className={`mt-6 block ${buttonLook('primary', true)}`}>
          {t('back', { client: app.name })}
        </a>
      ) : null}
      <SupportDetails requestId={requestId} />
    </AuthCard>
  );
}
