// /admin/clients/:id/edit: change a client's registration (not its type, id or secret).
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { ClientForm } from '@/components/admin/client-form';
import { detailRoute, FormPage } from '@/components/portal/detail';
import { clientFormFor } from '@/lib/surfaces/portal/clients';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { updateClientAction } from '../../actions';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.clientForm'))('editPageTitle') };
}

export default async function EditClientPage({ params }: { params: Promise<{ id: string }> }) {
  const { id, path } = await detailRoute('/admin/clients', params);
  const editable = await clientFormFor(await requireAdmin('clients.manage', `${path}/edit`, { clientId: id }), id);
  if (!editable) notFound();
  return (
    <FormPage
      title={(await getTranslations('admin.clientForm'))('editTitle', { name: editable.client.name })}
      back={{ href: path, label: editable.client.name }}
      wide
    >
      <ClientForm action={updateClientAction.bind(null, id)} initial={editable.values} mode="edit" cancelHref={path} />
    </FormPage>
  );
}
