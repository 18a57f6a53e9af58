// /admin/clients: every registered client, searchable by name or client_id, a page at a time.
import { may } from '@/lib/admin-roles/roles';
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { SecondFactorBadge } from '@/components/admin/client-badges';
import { ListPage, listHref, listQuery, searchableList, sortParam } from '@/components/portal/list';
import { ButtonLink, TextLink } from '@/components/ui/button';
import { Badge, NoticeFor } from '@/components/ui/notice';
import { BulkCheckbox } from '@/components/portal/bulk';
import { When } from '@/components/portal/when';
import { clientsPage } from '@/lib/surfaces/portal/clients';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { bulkNotices } from '../bulk-notices';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.clients'))('title') };
}

export default async function ClientsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { params, q, page, sort, href } = await listQuery('/admin/clients', searchParams);
  const admin = await requireAdmin('clients.read', href);
  const list = await clientsPage(admin, { q, page, sort });
  // Hidden from a role that may only read them (the auditor); the pages and actions behind them refuse it anyway.
  const manage = may(admin.role, 'clients.manage');
  // In the links only when asked for: the default order keeps the URLs as they were.
  const order = sort ? sortParam(list.sort) : undefined;
  const t = await getTranslations('admin.clients');
  const words = searchableList('/admin/clients', 'client-search', t, list.query, order);
  const select = await getTranslations('admin.listColumns');
  const notices = { deleted: { variant: 'success' as const, text: t('deleted') }, ...(await bulkNotices('client', params.count)) };

  return (
    <ListPage
      title={t('title')}
      description={t('description')}
      actions={manage ? <ButtonLink href="/admin/clients/new">{t('register')}</ButtonLink> : null}
      notice={<NoticeFor notices={notices} notice={params.notice} />}
      search={words.search}
      bulk={manage ? 'clients' : undefined}
      table={{
        caption: words.caption,
        columns: [
          ...(manage ? [{ label: select('select') }] : []),
          { label: t('name'), sort: 'name' },
          { label: t('type'), sort: 'type' },
          { label: t('status'), sort: 'status' },
          { label: t('registered'), className: 'hidden md:table-cell', sort: 'createdAt' },
        ],
        sort: { current: list.sort, href: (sort) => listHref('/admin/clients', { q: list.query, sort }, 1) },
        empty: words.empty,
        rows: list.rows.map((client) => (
          <tr key={client.id} className="hover:bg-slate-50">
            {manage ? <BulkCheckbox id={client.id} label={select('selectOne', { name: client.name })} /> : null}
            <td className="px-4 py-3">
              <TextLink href={`/admin/clients/${encodeURIComponent(client.id)}`}>{client.name}</TextLink>
              <span className="block font-mono text-xs break-all text-slate-500">{client.id}</span>
            </td>
            <td className="px-4 py-3">
              <div className="flex flex-wrap gap-1">
                <Badge>{client.confidential ? t('confidential') : t('public')}</Badge>
                {client.firstParty ? <Badge variant="indigo">{t('firstParty')}</Badge> : null}
                <SecondFactorBadge required={client.requireSecondFactor} />
                {client.managed ? <Badge variant="amber">{t('managed')}</Badge> : null}
                {client.approvalPending ? <Badge variant="amber">{t('pending')}</Badge> : null}
              </div>
            </td>
            <td className="px-4 py-3">{client.enabled ? <Badge variant="green">{t('enabled')}</Badge> : <Badge variant="red">{t('disabled')}</Badge>}</td>
            <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 md:table-cell">
              <When date={client.createdAt} />
            </td>
          </tr>
        )),
      }}
      paging={{ list, href: (page) => listHref('/admin/clients', { q: list.query, sort: order }, page) }}
    />
  );
}
