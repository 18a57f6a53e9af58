// /admin/clients/:id/edit: change a client's registration (not its type, id or secret).
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ClientForm } from '@/components/admin/client-form';
import { Card, PageHeader } from '@/components/admin/ui';
import { clientFormFor } from '@/lib/services/portal/clients';
import { requireAdmin } from '@/lib/services/portal/session';
import { updateClientAction } from '../../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Edit client' };

export default async function EditClientPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const path = `/admin/clients/${encodeURIComponent(id)}`;
  const admin = await requireAdmin(`${path}/edit`);
  const editable = await clientFormFor(admin, id);
  if (!editable) notFound();
  return (
    <>
      <PageHeader title={`Edit ${editable.client.name}`} back={{ href: path, label: editable.client.name }} />
      <div className="max-w-3xl">
        <Card>
          <ClientForm action={updateClientAction.bind(null, id)} initial={editable.values} mode="edit" cancelHref={path} />
        </Card>
      </div>
    </>
  );
}
