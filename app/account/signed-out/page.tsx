// Where RP-initiated logout returns to after signing out from /account (a post_logout_redirect_uri of the portal client).
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { SignedOut } from '@/components/portal/signed-out';
import { brand } from '@/lib/config/brand';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('account.signedOut'))('title') };
}

export default async function AccountSignedOutPage() {
  const t = await getTranslations('account.signedOut');
  return <SignedOut home="/account" subtitle={t('subtitle', { product: brand().name })} />;
}
