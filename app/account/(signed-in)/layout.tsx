// /account's frame. Not an authorization check: every page and server action calls requireUser() itself.
import type { Metadata } from 'next';
import { brand } from '@/lib/config/brand';
import type { ReactNode } from 'react';
import { PortalShell } from '@/components/portal/shell';
import { currentUser } from '@/lib/services/portal/session';
import { signOutAction } from '../actions';

export function generateMetadata(): Metadata {
  return { title: { default: 'Your account', template: `%s · ${brand().name} account` } };
}

export default async function AccountLayout({ children }: { children: ReactNode }) {
  return (
    <PortalShell area="account" person={await currentUser()} signOut={signOutAction}>
      {children}
    </PortalShell>
  );
}
