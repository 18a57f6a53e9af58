// /admin/connections: the other identity providers people can sign in with (lib/federation), and which apps offer each.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { DataTable } from '@/components/portal/list';
import { PageHeader } from '@/components/ui/card';
import { ButtonLink, TextLink } from '@/components/ui/button';
import { Badge, NoticeFor } from '@/components/ui/notice';
import { listConnectionsFor } from '@/lib/surfaces/portal/connections';
import { may } from '@/lib/admin-roles/roles';
import { requireAdmin } from '@/lib/surfaces/portal/session';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.connections'))('title') };
}

export default async function ConnectionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const admin = await requireAdmin('system.read', '/admin/connections');
  const connections = await listConnectionsFor(admin);
  const { notice } = await searchParams;
  const t = await getTranslations('admin.connections');
  const kinds = await getTranslations('admin.connectionForm.kinds');
  const cell = 'px-4 py-3';

  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <>
            <ButtonLink href="/admin/connections/sign-in-pages" variant="secondary">
              {t('signInPages')}
            </ButtonLink>
            {may(admin.role, 'connections.manage') ? <ButtonLink href="/admin/connections/new">{t('add')}</ButtonLink> : null}
          </>
        }
      />
      <NoticeFor notices={{ deleted: { variant: 'success', text: t('deleted') } }} notice={notice} />
      <DataTable
        caption={t('caption')}
        columns={[{ label: t('name') }, { label: t('kind') }, { label: t('offeredTo') }, { label: t('status') }]}
        empty={t('none')}
        rows={connections.map((connection) => (
          <tr key={connection.id} className="hover:bg-slate-50">
            <td className={cell}>
              <TextLink href={`/admin/connections/${encodeURIComponent(connection.slug)}`}>{connection.displayName}</TextLink>
              <span className="block font-mono text-xs text-slate-600">{connection.slug}</span>
            </td>
            <td className={cell}>{kinds(connection.kind)}</td>
            <td className={cell}>{connection.clientIds.length ? t('apps', { count: connection.clientIds.length }) : t('noApps')}</td>
            <td className={cell}>{connection.enabled ? <Badge variant="green">{t('enabled')}</Badge> : <Badge variant="red">{t('disabled')}</Badge>}</td>
          </tr>
        ))}
      />
    </>
  );
}
