// /account/data: download what Gatehouse holds about you, or delete your account.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { DeleteAccountForm } from '@/components/account/delete-account-form';
import { buttonLook } from '@/components/ui/button';
import { Card, PageHeader } from '@/components/ui/card';
import { brand } from '@/lib/config/brand';
import { selfDeleteAllowed } from '@/lib/surfaces/account/own-data';
import { requireUser } from '@/lib/surfaces/portal/session';
import { deleteOwnAccountAction } from '../../actions';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('account.data'))('title') };
}

export default async function DataPage() {
  const user = await requireUser('/account/data');
  const t = await getTranslations('account.data');
  return (
    <>
      <PageHeader title={t('title')} description={t('description', { product: brand().name })} />
      <div className="grid max-w-xl gap-6">
        <Card title={t('download')} description={t('downloadDescription')}>
          {/* A plain link: the file is an attachment, the page stays. */}
          <a href="/account/data/download" download className={buttonLook('primary', false)}>
            {t('downloadButton')}
          </a>
        </Card>
        {/* ACCOUNT_SELF_DELETE=off: no form (the action refuses one posted anyway), only whom to ask. */}
        {selfDeleteAllowed() ? (
          <Card title={t('delete')} description={t('deleteDescription', { product: brand().name })}>
            <DeleteAccountForm action={deleteOwnAccountAction} username={user.username} product={brand().name} />
          </Card>
        ) : (
          <Card title={t('delete')} description={t('deleteTurnedOff', { product: brand().name })}>
            {null}
          </Card>
        )}
      </div>
    </>
  );
}
