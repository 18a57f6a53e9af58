// /admin/users: every user, searchable by username, email or name, a page at a time.
import type { Metadata } from 'next';
import Link from 'next/link';
import { Badge, ButtonLink, PageHeader, focusRing, formatDate } from '@/components/admin/ui';
import { SearchForm } from '@/components/admin/search-form';
import { Pagination } from '@/components/admin/pagination';
import { requireAdmin } from '@/lib/services/portal/session';
import { usersPage } from '@/lib/services/portal/users';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Users' };

function pageHref(query: string, page: number): string {
  const params = new URLSearchParams();
  if (query) params.set('q', query);
  if (page > 1) params.set('page', String(page));
  const search = params.toString();
  return `/admin/users${search ? `?${search}` : ''}`;
}

export default async function UsersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const q = typeof params.q === 'string' ? params.q : undefined;
  const page = typeof params.page === 'string' ? params.page : undefined;
  const admin = await requireAdmin(pageHref(q ?? '', Number(page) || 1));
  const list = await usersPage(admin, { q, page });

  return (
    <>
      <PageHeader
        title="Users"
        description="The people who sign in with Gatehouse: their profiles, passwords, roles, sessions and connected apps."
        actions={<ButtonLink href="/admin/users/new">Create a user</ButtonLink>}
      />

      <SearchForm action="/admin/users" id="user-search" label="Search users by username, email or name" placeholder="Search by username, email or name" query={list.query} />

      <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-xs">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Users{list.query ? ` matching “${list.query}”` : ''}</caption>
          <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold tracking-wide text-slate-500 uppercase">
            <tr>
              <th scope="col" className="px-4 py-3">User</th>
              <th scope="col" className="hidden px-4 py-3 sm:table-cell">Email</th>
              <th scope="col" className="px-4 py-3">Status</th>
              <th scope="col" className="hidden px-4 py-3 md:table-cell">Created</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {list.users.map((user) => (
              <tr key={user.id} className="hover:bg-slate-50">
                <td className="px-4 py-3">
                  <Link href={`/admin/users/${encodeURIComponent(user.id)}`} className={`rounded-sm font-medium text-indigo-700 hover:underline ${focusRing}`}>
                    {user.username}
                  </Link>
                  {user.name ? <span className="block text-xs text-slate-500">{user.name}</span> : null}
                </td>
                <td className="hidden px-4 py-3 break-all text-slate-600 sm:table-cell">{user.email ?? <span className="text-slate-400">None</span>}</td>
                <td className="px-4 py-3">
                  <div className="flex flex-wrap gap-1">
                    {user.disabled ? <Badge tone="red">Disabled</Badge> : <Badge tone="green">Active</Badge>}
                    {user.role === 'admin' ? <Badge tone="indigo">Admin</Badge> : null}
                    {user.id === admin.id ? <Badge>You</Badge> : null}
                  </div>
                </td>
                <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 md:table-cell">{formatDate(user.createdAt)}</td>
              </tr>
            ))}
            {list.users.length === 0 ? (
              <tr>
                <td colSpan={4} className="px-4 py-10 text-center text-slate-600">
                  {list.query ? `No user matches “${list.query}”.` : 'No users yet.'}
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>

      <Pagination summary={list.total === 0 ? 'No users' : `Showing ${list.first}–${list.last} of ${list.total}`} page={list.page} pageCount={list.pageCount} href={(page) => pageHref(list.query, page)} />
    </>
  );
}
