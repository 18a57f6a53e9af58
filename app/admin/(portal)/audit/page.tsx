// /admin/audit: the audit log, newest first, filtered by action, actor, target and date range (a GET form: works without JavaScript).
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { ActionBadge, Actor, Details, FailureReason, Target } from '@/components/admin/audit';
import { ListPage, listHref } from '@/components/portal/list';
import { Button, ButtonLink } from '@/components/ui/button';
import { border, inputLook } from '@/components/ui/field';
import { When, WhenStacked } from '@/components/portal/when';
import { Badge } from '@/components/ui/notice';
import { auditActionOptions, auditPage } from '@/lib/surfaces/portal/audit';
import { groupAuditEvents } from '@/lib/surfaces/portal/audit-groups';
import { requireAdmin } from '@/lib/surfaces/portal/session';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.audit'))('title') };
}

const filterLook = `${inputLook} ${border(false)} bg-white`;

function Filter({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="block text-xs font-medium text-slate-600">
        {label}
      </label>
      <div className="mt-1">{children}</div>
    </div>
  );
}

export default async function AuditLogPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const returnTo = `/admin/audit${Object.keys(params).length ? `?${new URLSearchParams(Object.entries(params).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])))}` : ''}`;
  const admin = await requireAdmin('audit.read', returnTo);
  const log = await auditPage(admin, params);
  const f = log.filters;
  const filtered = Boolean(f.action || f.actor || f.target || f.from || f.to);
  const t = await getTranslations('admin.audit');
  // The actions' words are the catalogs' (as on /account); their codes stay as they are, identifiers to filter and search by.
  const actions = await getTranslations('auditActions');
  const columns = (['when', 'action', 'actor', 'target', 'from', 'details'] as const).map((column) => ({ label: t(`columns.${column}`) }));

  return (
    <ListPage
      title={t('title')}
      description={t('description')}
      filters={
        <form
          method="get"
          action="/admin/audit"
          aria-label={t('filters')}
          className="mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-xs sm:grid-cols-2 lg:grid-cols-6"
        >
          <Filter id="audit-action" label={t('action')}>
            <select id="audit-action" name="action" defaultValue={f.action ?? ''} className={filterLook}>
              <option value="">{t('anyAction')}</option>
              {auditActionOptions.map((action) => (
                <option key={action} value={action}>
                  {actions(action)} ({action})
                </option>
              ))}
            </select>
          </Filter>
          <Filter id="audit-actor" label={t('actor')}>
            <input id="audit-actor" name="actor" type="search" maxLength={100} defaultValue={f.actor} className={filterLook} />
          </Filter>
          <Filter id="audit-target" label={t('target')}>
            <input id="audit-target" name="target" type="search" maxLength={200} defaultValue={f.target} className={filterLook} />
          </Filter>
          <Filter id="audit-from" label={t('from')}>
            <input id="audit-from" name="from" type="date" defaultValue={f.from} className={filterLook} />
          </Filter>
          <Filter id="audit-to" label={t('to')}>
            <input id="audit-to" name="to" type="date" defaultValue={f.to} className={filterLook} />
          </Filter>
          <div className="flex items-end gap-2">
            <Button type="submit" variant="secondary">
              {t('filter')}
            </Button>
            {filtered ? (
              <ButtonLink variant="secondary" href="/admin/audit">
                {t('clear')}
              </ButtonLink>
            ) : null}
          </div>
        </form>
      }
      table={{
        caption: filtered ? t('captionFiltered') : t('caption'),
        className: 'min-w-[60rem]',
        bodyClassName: 'align-top',
        columns,
        empty: filtered ? t('noMatch') : t('none'),
        rows: groupAuditEvents(log.events).map(({ event, count, since }) => (
          <tr key={event.id} className="hover:bg-slate-50">
            {/* The day over the time: one line took the width the names beside it need (they broke mid-word at 1280 px). */}
            <td className="px-4 py-3 text-slate-600">
              <WhenStacked date={event.at} />
              {since ? (
                <span className="mt-1 block text-xs whitespace-nowrap text-slate-500">
                  {t('groupSince')} <When date={since} />
                </span>
              ) : null}
            </td>
            <td className="px-4 py-3">
              <ActionBadge action={event.action} />
              {count > 1 ? (
                <span className="mt-1 block">
                  <Badge>{t('groupCount', { count })}</Badge>
                </span>
              ) : null}
              <FailureReason details={event.details} />
            </td>
            <td className="max-w-52 min-w-44 px-4 py-3 wrap-anywhere">
              <Actor actor={event.actor} ip={event.ip} />
            </td>
            <td className="max-w-52 min-w-44 px-4 py-3">
              <Target target={event.target} />
            </td>
            <td className="max-w-40 px-4 py-3 text-xs text-slate-600">
              <span className="block font-mono">{event.ip ?? t('unknownAddress')}</span>
              {event.userAgent ? (
                <span className="block truncate" title={event.userAgent}>
                  {event.userAgent}
                </span>
              ) : null}
            </td>
            <td className="min-w-48 px-4 py-3">
              <Details details={event.details} />
            </td>
          </tr>
        )),
      }}
      paging={{
        list: log,
        summary: log.events.length === 0 ? t('pastLast', { total: log.total }) : undefined,
        href: (page) => listHref('/admin/audit', f, page),
      }}
    />
  );
}
