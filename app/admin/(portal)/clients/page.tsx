// /admin/clients: every registered client, searchable by name or client_id, a page at a time.
import type { Metadata } from 'next';
import Link from 'next/link';
import { Badge, ButtonLink, Notice, PageHeader, focusRing, formatDate } from '@/components/admin/ui';
import { SearchForm } from '@/components/admin/search-form';
import { Pagination } from '@/components/admin/pagination';
import { clientsPage } from '@/lib/services/portal/clients';
import { requireAdmin } from '@/lib/services/portal/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Clients' };

const notices: Record<string, string> = { deleted: 'The client is deleted, and every token and grant it held is revoked.' };

function pageHref(query: string, page: number): string {
  const params = new URLSearchParams();
  if (query) params.set('q', query);
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  return `/admin/clients${search ? `?${search}` : ''}`;
}

export default async function ClientsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const q = typeof params.q === 'string' ? params.q : undefined;
  const page = typeof params.page === 'string' ? params.page : undefined;
  const admin = await requireAdmin(pageHref(q ?? '', Number(page) || 1));
  const list = await clientsPage(admin, { q, page });
  const notice = typeof params.notice === 'string' ? notices[params.notice] : undefined;

  return (
    <>
      <PageHeader
        title="Clients"
        description="Applications that sign people in with Gatehouse, and APIs that check its tokens."
        actions={<ButtonLink href="/admin/clients/new">Register a client</ButtonLink>}
      />
      {notice ? <Notice>{notice}</Notice> : null}

      <SearchForm action="/admin/clients" id="client-search" label="Search clients by name or client ID" placeholder="Search by name or client ID" query={list.query} />

      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-xs">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Registered clients{list.query ? ` matching “${list.query}”` : ''}</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">Name</th>
              <th scope="col" className="px-4 py-3">Type</th>
              <th scope="col" className="px-4 py-3">Status</th>
              <th scope="col" className="hidden px-4 py-3 md:table-cell">Registered</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {list.clients.map((client) => (
              <tr key={client.id} className="hover:bg-slate-50">
                <td className="px-4 py-3">
                  <Link href={`/admin/clients/${encodeURIComponent(client.id)}`} className={`rounded-sm font-medium text-indigo-700 hover:underline ${focusRing}`}>
                    {client.name}
                  </Link>
                  <span className="block font-mono text-xs break-all text-slate-500">{client.id}</span>
                </td>
                <td className="px-4 py-3">
                  <div className="flex flex-wrap gap-1">
                    <Badge>{client.confidential ? 'Confidential' : 'Public'}</Badge>
                    {client.firstParty ? <Badge tone="indigo">First party</Badge> : null}
                    {client.managed ? <Badge tone="amber">Managed</Badge> : null}
                  </div>
                </td>
                <td className="px-4 py-3">{client.enabled ? <Badge tone="green">Enabled</Badge> : <Badge tone="red">Disabled</Badge>}</td>
                <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 md:table-cell">{formatDate(client.createdAt)}</td>
              </tr>
            ))}
            {list.clients.length === 0 ? (
              <tr>
                <td colSpan={4} className="px-4 py-10 text-center text-slate-600">
                  {list.query ? `No client matches “${list.query}”.` : 'No clients yet. Register your first application.'}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>

      <Pagination summary={list.total === 0 ? 'No clients' : `Showing ${list.first}–${list.last} of ${list.total}`} page={list.page} pageCount={list.pageCount} href={(page) => pageHref(list.query, page)} />
    </>
  );
}
