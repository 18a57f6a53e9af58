// /admin/connections/:slug/edit: change a connection (not its slug); the client secret box starts empty and keeps the stored one.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { ConnectionForm } from '@/components/admin/connection-form';
import { detailRoute, FormPage } from '@/components/portal/detail';
import { connectionFormFor, federationCallbackUrl } from '@/lib/surfaces/portal/connections';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { updateConnectionAction } from '../../actions';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.connectionForm'))('editPageTitle') };
}

export default async function EditConnectionPage({ params }: { params: Promise<{ id: string }> }) {
  const { id, path } = await detailRoute('/admin/connections', params);
  const editable = await connectionFormFor(await requireAdmin('connections.manage', `${path}/edit`), id);
  if (!editable) notFound();
  return (
    <FormPage
      title={(await getTranslations('admin.connectionForm'))('editTitle', { name: editable.connection.displayName })}
      back={{ href: path, label: editable.connection.displayName }}
      wide
    >
      <ConnectionForm
        action={updateConnectionAction.bind(null, editable.connection.slug)}
        initial={editable.values}
        mode="edit"
        cancelHref={path}
        callbackUrl={federationCallbackUrl()}
      />
    </FormPage>
  );
}
