// Where RP-initiated logout returns to (the portal client's post_logout_redirect_uri).
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { SignedOut } from '@/components/portal/signed-out';
import { brand } from '@/lib/config/brand';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.signedOut'))('title') };
}

export default async function SignedOutPage() {
  const t = await getTranslations('admin.signedOut');
  return <SignedOut home="/admin" subtitle={t('subtitle', { product: brand().name })} />;
}
