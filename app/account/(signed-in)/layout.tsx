// /account's frame. Not an authorization check: every page and server action calls requireUser() itself.
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { PortalShell } from '@/components/portal/shell';
import { currentUser } from '@/lib/services/portal/session';
import { signOutAction } from '../actions';

export const metadata: Metadata = { title: { default: 'Your account', template: '%s · Gatehouse account' } };

export default async function AccountLayout({ children }: { children: ReactNode }) {
  return (
    <PortalShell area="account" person={await currentUser()} signOut={signOutAction}>
      {children}
    </PortalShell>
  );
}
