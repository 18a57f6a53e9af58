// The admin area's frame. Not an authorization check: every page and server action calls requireAdmin() itself.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { brand } from '@/lib/config/brand';
import type { ReactNode } from 'react';
import { signOutAction } from '@/app/admin/actions';
import { PortalShell } from '@/components/portal/shell';
import { ClientMessages } from '@/components/ui/client-messages';
import { currentAdmin } from '@/lib/surfaces/portal/session';

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations('admin');
  return { title: { default: t('title'), template: `%s · ${t('titleTemplate', { product: brand().name })}` } };
}

export default async function AdminLayout({ children }: { children: ReactNode }) {
  return (
    <PortalShell area="admin" person={await currentAdmin()} signOut={signOutAction}>
      {/* What the area's client components say (its forms and their refusals, the kit's summary, copy and cancel). */}
      <ClientMessages
        namespaces={[
          'admin.clientForm',
          'admin.clientSections',
          'admin.quickstart',
          'admin.clientActions',
          'admin.connectionForm',
          'admin.registrationForm',
          'admin.scimTokenForm',
          'admin.webhookForm',
          'admin.userForm',
          'admin.keyRotation',
          'problems',
          'ui',
        ]}
      >
        {children}
      </ClientMessages>
    </PortalShell>
  );
}
