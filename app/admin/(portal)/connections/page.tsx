// /admin/connections: the other identity providers people can sign in with (lib/federation), and which apps offer each.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
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
        actions={may(admin.role, 'connections.manage') ? <ButtonLink href="/admin/connections/new">{t('add')}</ButtonLink> : undefined}
      />
      <NoticeFor notices={{ deleted: { variant: 'success', text: t('deleted') } }} notice={notice} />
      {connections.length ? (
        <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-xs">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{t('caption')}</caption>
            <thead className="border-b border-slate-200 bg-slate-50 text-slate-700">
              <tr>
                <th scope="col" className={cell}>
                  {t('name')}
                </th>
                <th scope="col" className={cell}>
                  {t('kind')}
                </th>
                <th scope="col" className={cell}>
                  {t('offeredTo')}
                </th>
                <th scope="col" className={cell}>
                  {t('status')}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200">
              {connections.map((connection) => (
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
            </tbody>
          </table>
        </div>
      ) : (
        <p className="rounded-xl border border-slate-200 bg-white p-6 text-sm text-slate-600">{t('none')}</p>
      )}
    </>
  );
}
