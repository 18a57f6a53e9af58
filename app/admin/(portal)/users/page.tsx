// /admin/users: every user, searchable by username, email or name, a page at a time.
import type { Metadata } from 'next';
import { ListPage, listHref, listQuery, sortParam } from '@/components/portal/list';
import { ButtonLink, TextLink } from '@/components/ui/button';
import { Badge } from '@/components/ui/notice';
import { formatDate } from '@/components/ui/time';
import { requireAdmin } from '@/lib/services/portal/session';
import { usersPage } from '@/lib/services/portal/users';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { q, page, sort, href } = await listQuery('/admin/users', searchParams);
  const admin = await requireAdmin(href);
  const list = await usersPage(admin, { q, page, sort });
  // In the links only when asked for: the default order keeps the URLs as they were.
  const order = sort ? sortParam(list.sort) : undefined;

  return (
    <ListPage
      title="Users"
      description="The people who sign in with Gatehouse: their profiles, passwords, roles, sessions and connected apps."
      actions={<ButtonLink href="/admin/users/new">Create a user</ButtonLink>}
      search={{
        action: '/admin/users',
        id: 'user-search',
        label: 'Search users by username, email or name',
        placeholder: 'Search by username, email or name',
        query: list.query,
        sort: order,
      }}
      table={{
        caption: `Users${list.query ? ` matching “${list.query}”` : ''}`,
        columns: [
          { label: 'User', sort: 'username' },
          { label: 'Email', className: 'hidden sm:table-cell', sort: 'email' },
          { label: 'Status', sort: 'status' },
          { label: 'Last sign-in', className: 'hidden lg:table-cell' },
          { label: 'Created', className: 'hidden md:table-cell', sort: 'createdAt' },
        ],
        sort: { current: list.sort, href: (sort) => listHref('/admin/users', { q: list.query, sort }, 1) },
        empty: list.query ? `No user matches “${list.query}”.` : 'No users yet.',
        rows: list.users.map((user) => (
          <tr key={user.id} className="hover:bg-slate-50">
            <td className="px-4 py-3">
              <TextLink href={`/admin/users/${encodeURIComponent(user.id)}`}>{user.username}</TextLink>
              {user.name ? <span className="block text-xs text-slate-500">{user.name}</span> : null}
            </td>
            <td className="hidden px-4 py-3 break-all text-slate-600 sm:table-cell">{user.email ?? <span className="text-slate-500">None</span>}</td>
            <td className="px-4 py-3">
              <div className="flex flex-wrap gap-1">
                {user.disabled ? (
                  <Badge variant="red">Disabled</Badge>
                ) : user.invited ? (
                  <Badge variant="amber">Invited</Badge>
                ) : (
                  <Badge variant="green">Active</Badge>
                )}
                {user.role === 'admin' ? <Badge variant="indigo">Admin</Badge> : null}
                {user.awaitingEmail ? <Badge variant="amber">Signed up, email not verified</Badge> : null}
                {user.id === admin.id ? <Badge>You</Badge> : null}
              </div>
            </td>
            <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 lg:table-cell">
              {user.lastSignInAt ? formatDate(user.lastSignInAt) : <span className="text-slate-500">None recorded</span>}
            </td>
            <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 md:table-cell">{formatDate(user.createdAt)}</td>
          </tr>
        )),
      }}
      paging={{ list, href: (page) => listHref('/admin/users', { q: list.query, sort: order }, page) }}
    />
  );
}
