// Where RP-initiated logout returns to after signing out from /account (a post_logout_redirect_uri of the portal client),
// and where a person lands after deleting their own account (?deleted=1, app/account/actions.ts).
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { SignedOut } from '@/components/portal/signed-out';
import { brand } from '@/lib/config/brand';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('account.signedOut'))('title') };
}

export default async function AccountSignedOutPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const t = await getTranslations('account.signedOut');
  const { deleted } = await searchParams;
  return <SignedOut home="/account" subtitle={t(deleted === '1' ? 'deleted' : 'subtitle', { product: brand().name })} />;
}
