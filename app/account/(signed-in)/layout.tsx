// /account's frame. Not an authorization check: every page and server action calls requireUser() itself.
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { AccountShell } from '@/components/account/shell';
import { currentUser } from '@/lib/services/portal/session';
import { signOutAction } from '../actions';

export const metadata: Metadata = { title: { default: 'Your account', template: '%s · Gatehouse account' } };

export default async function AccountLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  return (
    <AccountShell user={user} signOut={signOutAction}>
      {children}
    </AccountShell>
  );
}
