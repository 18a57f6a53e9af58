// The 404 page (an unknown path, or notFound() from a page): the sign-in pages' card, in the brand, in either scheme,
// in the person's language (a path no route answers gets it in <html lang> too: lib/surfaces/locale.ts), with the request id.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getTranslations } from 'next-intl/server';
import { SupportDetails } from '@/components/interaction/support';
import { AuthCard } from '@/components/ui/card';
import { requestLocale } from '@/lib/surfaces/locale';
import { requestIdOf } from '@/lib/platform/request-context';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations({ locale: await requestLocale(), namespace: 'notFound' }))('title') };
}

export default async function NotFound() {
  // The person's language even inside an area still in English (the admin portal): then `lang` on the card says so.
  const locale = await requestLocale();
  const t = await getTranslations({ locale, namespace: 'notFound' });
  return (
    <div lang={locale}>
      <AuthCard title={t('title')}>
        <p className="text-sm text-slate-600">{t('body')}</p>
        <SupportDetails requestId={requestIdOf(await headers())} code="404" locale={locale} />
      </AuthCard>
    </div>
  );
}
