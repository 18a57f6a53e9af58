// The admin area's frame. Not an authorization check: every page and server action calls requireAdmin() itself.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { brand } from '@/lib/config/brand';
import type { ReactNode } from 'react';
import { signOutAction } from '@/app/admin/actions';
import { PortalShell } from '@/components/portal/shell';
import { currentAdmin } from '@/lib/services/portal/session';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('admin');
  return { title: { default: t('title'), template: `%s · ${t('titleTemplate', { product: brand().name })}` } };
}

export default async function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <PortalShell area="admin" person={await currentAdmin()} signOut={signOutAction}>
      {children}
    </PortalShell>
  );
}
