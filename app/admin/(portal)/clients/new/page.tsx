// /admin/clients/new: register a client; its secret is shown once, in the answer to the form.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ClientForm } from '@/components/admin/client-form';
import { FormPage } from '@/components/portal/detail';
import { clientFormValues } from '@/lib/surfaces/portal/client-fields';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { createClientAction } from '../actions';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.clientForm'))('createTitle') };
}

export default async function NewClientPage() {
  await requireAdmin('/admin/clients/new');
  const t = await getTranslations('admin.clientForm');
  return (
    <FormPage
      title={t('createTitle')}
      back={{ href: '/admin/clients', label: (await getTranslations('admin.clients'))('title') }}
      description={t('createDescription')}
      wide
    >
      <ClientForm action={createClientAction} initial={clientFormValues()} mode="create" cancelHref="/admin/clients" />
    </FormPage>
  );
}
