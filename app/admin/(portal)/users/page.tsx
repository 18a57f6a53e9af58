// /admin/users: every user, searchable by username, email or name, a page at a time; several at once disabled, enabled or deleted.
import { may } from '@/lib/admin-roles/roles';
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { BulkCheckbox } from '@/components/portal/bulk';
import { ListPage, listHref, listQuery, searchableList, sortParam } from '@/components/portal/list';
import { When } from '@/components/portal/when';
import { ButtonLink, TextLink } from '@/components/ui/button';
import { Badge, type BadgeVariant, NoticeFor } from '@/components/ui/notice';
import type { UserStatus } from '@/lib/surfaces/portal/users';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { usersPage } from '@/lib/surfaces/portal/users';
import { bulkNotices } from '../bulk-notices';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.users'))('title') };
}

const statusLooks: Record<UserStatus, BadgeVariant> = { disabled: 'red', locked: 'amber', invited: 'amber', active: 'green' };

export default async function UsersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { params, q, page, sort, href } = await listQuery('/admin/users', searchParams);
  const admin = await requireAdmin('users.read', href);
  const list = await usersPage(admin, { q, page, sort });
  // Hidden from a role that may only read them (the auditor); the pages and actions behind them refuse it anyway.
  const manage = may(admin.role, 'users.manage');
  const roleNames = await getTranslations('admin.user.roles');
  // In the links only when asked for: the default order keeps the URLs as they were.
  const order = sort ? sortParam(list.sort) : undefined;
  const t = await getTranslations('admin.users');
  const words = searchableList('/admin/users', 'user-search', t, list.query, order);
  const columns = await getTranslations('admin.listColumns');

  return (
    <ListPage
      title={t('title')}
      description={t('description')}
      actions={manage ? <ButtonLink href="/admin/users/new">{t('create')}</ButtonLink> : null}
      notice={
        <NoticeFor notices={{ ...(await bulkNotices('user', params.count)), deleted: { variant: 'success', text: t('deleted') } }} notice={params.notice} />
      }
      search={words.search}
      bulk={manage ? 'users' : undefined}
      table={{
        caption: words.caption,
        columns: [
          ...(manage ? [{ label: columns('select') }] : []),
          { label: t('user'), sort: 'username' },
          { label: t('email'), className: 'hidden sm:table-cell', sort: 'email' },
          { label: t('status'), sort: 'status' },
          { label: columns('twoStep') },
          { label: columns('verified'), className: 'hidden sm:table-cell' },
          { label: t('lastSignIn'), className: 'hidden lg:table-cell' },
          { label: t('created'), className: 'hidden md:table-cell', sort: 'createdAt' },
        ],
        sort: { current: list.sort, href: (sort) => listHref('/admin/users', { q: list.query, sort }, 1) },
        empty: words.empty,
        rows: list.rows.map((user) => (
          <tr key={user.id} className="hover:bg-slate-50">
            {manage ? <BulkCheckbox id={user.id} label={columns('selectOne', { name: user.username })} /> : null}
            <td className="px-4 py-3">
              <TextLink href={`/admin/users/${encodeURIComponent(user.id)}`}>{user.username}</TextLink>
              {user.name ? <span className="block text-xs text-slate-500">{user.name}</span> : null}
            </td>
            <td className="hidden px-4 py-3 break-all text-slate-600 sm:table-cell">{user.email ?? <span className="text-slate-500">{t('noEmail')}</span>}</td>
            <td className="px-4 py-3">
              <div className="flex flex-wrap gap-1">
                <Badge variant={statusLooks[user.status]}>{user.status === 'locked' ? columns('locked') : t(user.status)}</Badge>
                {user.role === 'user' ? null : <Badge variant="indigo">{roleNames(user.role)}</Badge>}
                {user.awaitingEmail ? <Badge variant="amber">{t('awaitingEmail')}</Badge> : null}
                {user.id === admin.id ? <Badge>{t('you')}</Badge> : null}
              </div>
            </td>
            <td className="px-4 py-3">
              {user.twoStep ? <Badge variant="green">{columns('on')}</Badge> : <span className="text-slate-600">{columns('off')}</span>}
            </td>
            <td className="hidden px-4 py-3 sm:table-cell">
              {!user.email ? (
                <span className="text-slate-500">{columns('noAddress')}</span>
              ) : user.emailVerified ? (
                <Badge variant="green">{columns('yes')}</Badge>
              ) : (
                <span className="text-slate-600">{columns('no')}</span>
              )}
            </td>
            <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 lg:table-cell">
              {user.lastSignInAt ? <When date={user.lastSignInAt} /> : <span className="text-slate-500">{t('noSignIn')}</span>}
            </td>
            <td className="hidden px-4 py-3 whitespace-nowrap text-slate-600 md:table-cell">
              <When date={user.createdAt} />
            </td>
          </tr>
        )),
      }}
      paging={{ list, href: (page) => listHref('/admin/users', { q: list.query, sort: order }, page) }}
    />
  );
}
