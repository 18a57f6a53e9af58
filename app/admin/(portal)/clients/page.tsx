// /admin/clients: every registered client, searchable by name or client_id, a page at a time.
import type { Metadata } from 'next';
import { SecondFactorBadge } from '@/components/admin/client-badges';
import { ListPage, listHref, listQuery, sortParam } from '@/components/portal/list';
import { ButtonLink, TextLink } from '@/components/ui/button';
import { Badge, NoticeFor } from '@/components/ui/notice';
import { formatDate } from '@/components/ui/time';
import { clientsPage } from '@/lib/services/portal/clients';
import { requireAdmin } from '@/lib/services/portal/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Clients' };

const notices = { deleted: { variant: 'success', text: 'The client is deleted, and every token and grant it held is revoked.' } } as const;

export default async function ClientsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { params, q, page, sort, href } = await listQuery('/admin/clients', searchParams);
  const list = await clientsPage(await requireAdmin(href), { q, page, sort });
  // In the links only when asked for: the default order keeps the URLs as they were.
  const order = sort ? sortParam(list.sort) : undefined;

  return (
    <ListPage
      title="Clients"
      description="Applications that sign people in with Gatehouse, and APIs that check its tokens."
      actions={<ButtonLink href="/admin/clients/new">Register a client</ButtonLink>}
      notice={<NoticeFor notices={notices} notice={params.notice} />}
      search={{
        action: '/admin/clients',
        id: 'client-search',
        label: 'Search clients by name or client ID',
        placeholder: 'Search by name or client ID',
        query: list.query,
        sort: order,
      }}
      table={{
        caption: `Registered clients${list.query ? ` matching “${list.query}”` : ''}`,
        columns: [
          { label: 'Name', sort: 'name' },
          { label: 'Type', sort: 'type' },
          { label: 'Status', sort: 'status' },
          { label: 'Registered', className: 'hidden md:table-cell', sort: 'createdAt' },
        ],
        sort: { current: list.sort, href: (sort) => listHref('/admin/clients', { q: list.query, sort }, 1) },
        empty: list.query ? `No client matches “${list.query}”.` : 'No clients yet. Register your first application.',
        rows: list.clients.map((client) => (
          <tr key={client.id} className="hover:bg-slate-50">
            <td className="px-4 py-3">
              <TextLink href={`/admin/clients/${encodeURIComponent(client.id)}`}>{client.name}</TextLink>
              <span className="block font-mono text-xs break-all text-slate-500">{client.id}</span>
            </td>
            <td className="px-4 py-3">
              <div className="flex flex-wrap gap-1">
                <Badge>{client.confidential ? 'Confidential' : 'Public'}</Badge>
                {client.firstParty ? <Badge variant="indigo">First party</Badge> : null}
                <SecondFactorBadge required={client.requireSecondFactor} />
                {client.managed ? <Badge variant="amber">Managed</Badge> : null}
              </div>
            </td>
            <td className="px-4 py-3">{client.enabled ? <Badge variant="green">Enabled</Badge> : <Badge variant="red">Disabled</Badge>}</td>
            <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 md:table-cell">{formatDate(client.createdAt)}</td>
          </tr>
        )),
      }}
      paging={{ list, href: (page) => listHref('/admin/clients', { q: list.query, sort: order }, page) }}
    />
  );
}
