// /account's frame, in the person's language. Not an authorization check: every page and server action calls requireUser() itself.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { PortalShell } from '@/components/portal/shell';
import { ClientMessages } from '@/components/ui/client-messages';
import { brand } from '@/lib/config/brand';
import { currentUser } from '@/lib/surfaces/portal/session';
import { signOutAction } from '../actions';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('account');
  return { title: { default: t('title'), template: `%s · ${t('titleTemplate', { product: brand().name })}` } };
}

export default async function AccountLayout({ children }: { children: ReactNode }) {
  return (
    <PortalShell area="account" person={await currentUser()} signOut={signOutAction}>
      {/* The forms' words (client components): the account's, the problems', the confirmations'. */}
      <ClientMessages namespaces={['account', 'problems', 'portal', 'passwordPair', 'ui']}>{children}</ClientMessages>
    </PortalShell>
  );
}
