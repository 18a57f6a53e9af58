// /admin/webhooks: the endpoints that get signed events (lib/webhooks), those Gatehouse disabled after failures
// called out, and registering one (its signing secret shown once).
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { DataTable } from '@/components/portal/list';
import { FormPanel, PageHeader } from '@/components/ui/card';
import { TextLink } from '@/components/ui/button';
import { Badge, Notice, NoticeFor } from '@/components/ui/notice';
import { WebhookForm } from '@/components/admin/webhook-form';
import { may } from '@/lib/admin-roles/roles';
import { webhookEventTypes } from '@/lib/webhooks/events';
import { listWebhooksFor, NEW_WEBHOOK } from '@/lib/surfaces/portal/webhooks';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { createWebhookAction } from './actions';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.webhooks'))('title') };
}

export default async function WebhooksPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const admin = await requireAdmin('system.read', '/admin/webhooks');
  const endpoints = await listWebhooksFor(admin);
  const { notice } = await searchParams;
  const t = await getTranslations('admin.webhooks');
  const manage = may(admin.role, 'webhooks.manage');
  const failing = endpoints.filter((endpoint) => endpoint.disabledReason === 'failing');
  const cell = 'px-4 py-3 align-top';

  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <NoticeFor notices={{ deleted: { variant: 'success', text: t('deleted') }, notFound: { variant: 'warning', text: t('notFound') } }} notice={notice} />
      {failing.length ? <Notice variant="error">{t('failingNotice', { count: failing.length })}</Notice> : null}
      <DataTable
        caption={t('caption')}
        columns={[{ label: t('url') }, { label: t('events') }, { label: t('status') }]}
        empty={t('none')}
        rows={endpoints.map((endpoint) => (
          <tr key={endpoint.id}>
            <td className={cell}>
              <TextLink href={`/admin/webhooks/${encodeURIComponent(endpoint.id)}`}>
                <span className="font-mono break-all">{endpoint.url}</span>
              </TextLink>
              {endpoint.description ? <span className="block text-xs text-slate-600">{endpoint.description}</span> : null}
            </td>
            <td className={`${cell} font-mono text-xs text-slate-700`}>{endpoint.events.join(', ')}</td>
            <td className={cell}>
              {endpoint.enabled ? (
                <Badge variant="green">{t('enabledState')}</Badge>
              ) : endpoint.disabledReason === 'failing' ? (
                <Badge variant="red">{t('failingState')}</Badge>
              ) : (
                <Badge variant="slate">{t('disabledState')}</Badge>
              )}
            </td>
          </tr>
        ))}
      />
      {manage ? (
        <FormPanel id="create-heading" title={t('createHeading')}>
          <WebhookForm action={createWebhookAction} initial={NEW_WEBHOOK} eventTypes={webhookEventTypes} />
        </FormPanel>
      ) : null}
    </>
  );
}
