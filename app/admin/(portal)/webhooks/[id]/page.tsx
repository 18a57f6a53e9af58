// /admin/webhooks/<id>: one endpoint, enabling, disabling and deleting it, and its deliveries with their outcome
// (status, attempts, the last answer) and "send again".
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getFormatter, getTranslations } from 'next-intl/server';
import { ConfirmForm } from '@/components/portal/confirm';
import { DataTable } from '@/components/portal/list';
import { PageHeader } from '@/components/ui/card';
import { Button, TextLink } from '@/components/ui/button';
import { Badge, Notice, NoticeFor } from '@/components/ui/notice';
import { may } from '@/lib/admin-roles/roles';
import { webhookDeliveriesFor } from '@/lib/surfaces/portal/webhooks';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { deleteWebhookAction, disableWebhookAction, enableWebhookAction, resendWebhookDeliveryAction } from '../actions';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.webhooks'))('endpointTitle') };
}

const statusBadge = { delivered: 'green', pending: 'amber', failed: 'red' } as const;

export default async function WebhookPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id } = await params;
  const admin = await requireAdmin('system.read', `/admin/webhooks/${encodeURIComponent(id)}`);
  const query = await searchParams;
  const found = await webhookDeliveriesFor(admin, id, query);
  if (!found) notFound();
  const { endpoint, page, status } = found;
  const t = await getTranslations('admin.webhooks');
  const format = await getFormatter();
  const manage = may(admin.role, 'webhooks.manage');
  const cell = 'px-4 py-3 align-top';
  const when = (date: Date | null) => (date ? format.dateTime(date, { dateStyle: 'medium', timeStyle: 'medium' }) : '—');
  const here = (extra: Record<string, string | number | undefined>) => {
    const search = new URLSearchParams(Object.entries({ status, ...extra }).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])));
    return `/admin/webhooks/${encodeURIComponent(endpoint.id)}${search.size ? `?${search}` : ''}`;
  };

  return (
    <>
      <PageHeader title={endpoint.url} description={endpoint.description || t('endpointTitle')} />
      <NoticeFor
        notices={{
          enabled: { variant: 'success', text: t('enabledNotice') },
          disabled: { variant: 'success', text: t('disabledNotice') },
          resent: { variant: 'success', text: t('resent') },
          notResent: { variant: 'warning', text: t('notResent') },
        }}
        notice={query.notice}
      />
      {endpoint.disabledReason === 'failing' ? (
        <Notice variant="error">{t('failingEndpoint', { count: endpoint.consecutiveFailures, since: when(endpoint.failingSince) })}</Notice>
      ) : null}
      <dl className="mb-6 grid gap-3 rounded-xl border border-slate-200 bg-white p-6 text-sm shadow-xs sm:grid-cols-2">
        <div>
          <dt className="font-medium text-slate-700">{t('status')}</dt>
          <dd>
            {endpoint.enabled ? (
              <Badge variant="green">{t('enabledState')}</Badge>
            ) : (
              <Badge variant={endpoint.disabledReason ? 'red' : 'slate'}>{t(endpoint.disabledReason ? 'failingState' : 'disabledState')}</Badge>
            )}
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-700">{t('events')}</dt>
          <dd className="font-mono text-xs">{endpoint.events.join(', ')}</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-700">{t('failures')}</dt>
          <dd>{endpoint.consecutiveFailures}</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-700">{t('created')}</dt>
          <dd>{when(endpoint.createdAt)}</dd>
        </div>
      </dl>
      {manage ? (
        <div className="mb-8 grid gap-4 sm:grid-cols-2">
          {endpoint.enabled ? (
            <ConfirmForm
              action={disableWebhookAction.bind(null, endpoint.id)}
              statement={t('disableStatement')}
              submit={t('disable')}
              pendingLabel={t('working')}
              variant="secondary"
              collapsed={t('disable')}
            />
          ) : (
            <form action={enableWebhookAction.bind(null, endpoint.id)}>
              <Button type="submit" variant="secondary">
                {t('enable')}
              </Button>
            </form>
          )}
          <ConfirmForm
            action={deleteWebhookAction.bind(null, endpoint.id)}
            statement={t('deleteStatement')}
            submit={t('delete')}
            pendingLabel={t('working')}
            collapsed={t('delete')}
          />
        </div>
      ) : null}
      <h2 className="mb-2 text-base font-semibold text-slate-900">{t('deliveries')}</h2>
      <p className="mb-3 flex flex-wrap gap-3 text-sm">
        <TextLink href={here({ status: undefined })}>{t('all')}</TextLink>
        <TextLink href={here({ status: 'pending' })}>{t('pendingState')}</TextLink>
        <TextLink href={here({ status: 'delivered' })}>{t('deliveredState')}</TextLink>
        <TextLink href={here({ status: 'failed' })}>{t('failedState')}</TextLink>
      </p>
      <DataTable
        caption={t('deliveries')}
        columns={[{ label: t('event') }, { label: t('status') }, { label: t('lastAnswer') }, { label: t('actions'), hidden: true }]}
        empty={t('noDeliveries')}
        rows={page.deliveries.map((delivery) => (
          <tr key={delivery.id}>
            <td className={cell}>
              <span className="font-mono">{delivery.type}</span>
              <span className="block font-mono text-xs text-slate-600">{delivery.subject}</span>
              <span className="block text-xs text-slate-600">{when(delivery.createdAt)}</span>
            </td>
            <td className={cell}>
              <Badge variant={statusBadge[delivery.status]}>{t(`${delivery.status}State`)}</Badge>
              <span className="block text-xs text-slate-600">{t('attempts', { count: delivery.attempts })}</span>
              {delivery.nextAttemptAt && delivery.attempts > 0 ? (
                <span className="block text-xs text-slate-600">{t('nextAttempt', { when: when(delivery.nextAttemptAt) })}</span>
              ) : null}
            </td>
            <td className={`${cell} text-xs`}>
              {delivery.lastError ?? (delivery.lastStatus ? `HTTP ${delivery.lastStatus}` : '—')}
              {delivery.responseExcerpt ? <code className="mt-1 block max-w-md truncate font-mono text-slate-600">{delivery.responseExcerpt}</code> : null}
            </td>
            <td className={cell}>
              {manage && delivery.status !== 'pending' ? (
                <form action={resendWebhookDeliveryAction.bind(null, endpoint.id, delivery.id)}>
                  <Button type="submit" variant="secondary" aria-label={t('resendNamed', { type: delivery.type, id: delivery.id })}>
                    {t('resend')}
                  </Button>
                </form>
              ) : null}
            </td>
          </tr>
        ))}
      />
      {page.pageCount > 1 ? (
        <p className="mt-3 flex gap-4 text-sm">
          {page.page > 1 ? <TextLink href={here({ page: page.page - 1 })}>{t('previous')}</TextLink> : null}
          <span>{t('pageOf', { page: page.page, count: page.pageCount })}</span>
          {page.page < page.pageCount ? <TextLink href={here({ page: page.page + 1 })}>{t('next')}</TextLink> : null}
        </p>
      ) : null}
      <p className="mt-6 text-sm">
        <TextLink href="/admin/webhooks">{t('back')}</TextLink>
      </p>
    </>
  );
}
