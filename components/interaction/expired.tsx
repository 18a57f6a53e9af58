/** What an interaction page shows once its authorization request is gone, in the page's language. UI only. */
import { getTranslations } from 'next-intl/server';
import { AuthCard } from '../ui/card';

export async function ExpiredInteraction() {
  const t = await getTranslations('interaction.expired');
  return (
    <AuthCard title={t('title')}>
      <p className="text-sm text-slate-600">{t('body')}</p>
    </AuthCard>
  );
}
