// The 403 page (forbidden() from requireAdmin): signed in, but not an administrator; their own /account is open to them.
// In the person's language, with the request id; `<html lang>` says so too (pageLocale, lib/surfaces/locale.ts), though the
// admin area around it is English: `lang` on the card keeps it right should the page ever be shown elsewhere.
import { headers } from 'next/headers';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { SupportDetails } from '@/components/interaction/support';
import { Button, focusRing } from '@/components/ui/button';
import { AuthCard } from '@/components/ui/card';
import { signOutAction } from '@/app/admin/actions';
import { brand } from '@/lib/config/brand';
import { requestLocale } from '@/lib/surfaces/locale';
import { requestIdOf } from '@/lib/platform/request-context';

export default async function Forbidden() {
  const locale = await requestLocale();
  const t = await getTranslations({ locale, namespace: 'forbidden' });
  return (
    <div lang={locale}>
      <AuthCard title={t('title')}>
        <p className="text-sm text-slate-600">{t('body', { brand: brand().name })}</p>
        <form action={signOutAction} className="mt-6">
          <Button type="submit" block>
            {t('signOut')}
          </Button>
        </form>
        <p className="mt-4 text-center text-sm">
          <Link href="/account" className={`rounded-sm text-slate-600 underline hover:text-slate-900 ${focusRing}`}>
            {t('account')}
          </Link>
        </p>
        <SupportDetails requestId={requestIdOf(await headers())} code="403" locale={locale} />
      </AuthCard>
    </div>
  );
}
