// The 403 page (forbidden() from requireAdmin): signed in, but not an administrator, or an administrator whose admin role
// does not allow this page or change (lib/admin-roles/roles.ts: the page names the role); their own /account is open to them.
// In the person's language, with the request id; `<html lang>` says so too (pageLocale, lib/surfaces/locale.ts), though the
// admin area around it is English: `lang` on the card keeps it right should the page ever be shown elsewhere.
import { headers } from 'next/headers';
import { Link } from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import { SupportDetails } from '@/components/interaction/support';
import { Button, focusRing } from '@/components/ui/button';
import { AuthCard } from '@/components/ui/card';
import { signOutAction } from '@/app/admin/actions';
import { brand } from '@/lib/config/brand';
import { requestLocale } from '@/lib/surfaces/locale';
import { requestIdOf } from '@/lib/platform/request-context';
import { currentAdmin } from '@/lib/surfaces/portal/session';

export default async function Forbidden() {
  const locale = await requestLocale();
  const t = await getTranslations({ locale, namespace: 'forbidden' });
  // For the words only: the check that led here was requireAdmin's.
  const admin = await currentAdmin();
  const role = admin ? t(`roles.${admin.role}`) : undefined;
  return (
    <div lang={locale}>
      <AuthCard title={role ? t('roleTitle', { role }) : t('title')}>
        <p className="text-sm text-slate-600">{role ? t('roleBody', { role, brand: brand().name }) : t('body', { brand: brand().name })}</p>
        {admin ? (
          <p className="mt-4 text-sm">
            <Link href="/admin" className={`rounded-sm text-slate-600 underline hover:text-slate-900 ${focusRing}`}>
              {t('back')}
            </Link>
          </p>
        ) : null}
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
