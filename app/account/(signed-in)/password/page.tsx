// /account/password: change one's own password; the other sessions end, this one stays.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { PasswordForm } from '@/components/account/password-form';
import { Card, PageHeader } from '@/components/ui/card';
import { brand } from '@/lib/config/brand';
import { serverContext } from '@/lib/context';
import { minimumPasswordLength } from '@/lib/users/password-policy';
import { requireUser } from '@/lib/surfaces/portal/session';
import { changePasswordAction } from '../../actions';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('account.password'))('title') };
}

export default async function PasswordPage() {
  const user = await requireUser('/account/password');
  const t = await getTranslations('account.password');
  return (
    <>
      <PageHeader title={t('title')} description={t('description', { product: brand().name })} />
      <div className="max-w-xl">
        <Card title={t('card')} description={t('cardDescription')}>
          <PasswordForm action={changePasswordAction} username={user.username} minLength={minimumPasswordLength(serverContext().config)} />
        </Card>
      </div>
    </>
  );
}
