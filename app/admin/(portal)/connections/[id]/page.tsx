// /admin/connections/:slug: one connection's settings (never its client secret: only whether one is stored) and its actions.
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { ConfirmForm } from '@/components/portal/confirm';
import { DetailColumns, DetailHeader, detailRoute, Facts } from '@/components/portal/detail';
import { exactTimes } from '@/components/portal/when';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Badge, NoticeFor } from '@/components/ui/notice';
import { connectionDetails, federationCallbackUrl } from '@/lib/surfaces/portal/connections';
import { may } from '@/lib/admin-roles/roles';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { deleteConnectionAction, disableConnectionAction, enableConnectionAction } from '../actions';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.connection'))('title') };
}

function List({ items, empty }: { items: string[]; empty: string }) {
  if (!items.length) return <span className="text-slate-600">{empty}</span>;
  return (
    <ul className="space-y-1 font-mono text-xs">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

const mono = (value: string | null, none: string) =>
  value ? <span className="font-mono text-xs break-all">{value}</span> : <span className="text-slate-600">{none}</span>;

export default async function ConnectionPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id, path } = await detailRoute('/admin/connections', params);
  const admin = await requireAdmin('system.read', path);
  const connection = await connectionDetails(admin, id);
  // A reader (the auditor) sees the settings only; the actions check connections.manage themselves.
  const manage = may(admin.role, 'connections.manage');
  if (!connection) notFound();
  const { notice } = await searchParams;
  const t = await getTranslations('admin.connection');
  const form = await getTranslations('admin.connectionForm');
  const list = await getTranslations('admin.connections');
  const exact = await exactTimes();
  const none = t('none');
  const yes = (on: boolean) => (on ? t('yes') : t('no'));
  const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;
  const notices = {
    created: { variant: 'success', text: t('notices.created') },
    saved: { variant: 'success', text: t('notices.saved') },
    enabled: { variant: 'success', text: t('notices.enabled') },
    disabled: { variant: 'success', text: t('notices.disabled') },
  } as const;
  const oauth2 = connection.kind === 'oauth2';

  return (
    <>
      <DetailHeader
        title={connection.displayName}
        back={{ href: '/admin/connections', label: list('title') }}
        badges={
          <>
            <Badge>{form(`kinds.${connection.kind}`)}</Badge>
            {connection.enabled ? <Badge variant="green">{list('enabled')}</Badge> : <Badge variant="red">{list('disabled')}</Badge>}
            {connection.trustedForMfa ? <Badge variant="indigo">{t('trustedForMfaBadge')}</Badge> : null}
          </>
        }
        actions={
          manage ? (
            <>
              <ButtonLink variant="secondary" href={`${path}/edit`}>
                {t('edit')}
              </ButtonLink>
              {connection.enabled ? null : (
                <form action={enableConnectionAction.bind(null, connection.slug)}>
                  <Button type="submit" variant="secondary">
                    {t('enable')}
                  </Button>
                </form>
              )}
            </>
          ) : null
        }
      />
      <NoticeFor notices={notices} notice={notice} />

      <DetailColumns
        main={
          <Card title={t('settings')}>
            <Facts
              rows={{
                [t('slug')]: mono(connection.slug, none),
                ...(oauth2
                  ? {
                      [form('fields.authorizationEndpoint')]: mono(connection.authorizationEndpoint, none),
                      [form('fields.tokenEndpoint')]: mono(connection.tokenEndpoint, none),
                      [form('fields.userinfoEndpoint')]: mono(connection.userinfoEndpoint, none),
                      [form('fields.emailsEndpoint')]: mono(connection.emailsEndpoint, none),
                    }
                  : { [form('fields.issuer')]: mono(connection.issuer, none) }),
                [t('callback')]: mono(federationCallbackUrl(), none),
                [form('fields.clientId')]: mono(connection.clientId, none),
                [form('fields.clientSecret')]: connection.hasClientSecret ? t('secretStored') : t('secretNone'),
                [form('fields.scopes')]: mono(connection.scopes, none),
                [form('fields.clientIds')]: <List items={connection.clientIds} empty={t('noApps')} />,
                [form('fields.emailDomains')]: <List items={connection.emailDomains} empty={none} />,
                [form('jitCreate')]: connection.jitCreate ? form(`jitStates.${connection.jitState}`) : t('no'),
                [form('trustedForMfa')]: yes(connection.trustedForMfa),
                [form('pkce')]: yes(connection.pkce),
                [form('keepTokens')]: yes(connection.keepTokens),
                [t('added')]: exact(connection.createdAt),
                [t('lastChanged')]: exact(connection.updatedAt),
              }}
            />
          </Card>
        }
        side={
          manage ? (
            <>
              {connection.enabled ? (
                <Card title={t('disableTitle')} variant="danger" description={t('disableDescription')}>
                  <ConfirmForm
                    action={disableConnectionAction.bind(null, connection.slug)}
                    statement={t.rich('disableStatement', { name: connection.displayName, strong })}
                    submit={t('disableSubmit')}
                    pendingLabel={t('disablePending')}
                  />
                </Card>
              ) : null}
              <Card title={t('deleteTitle')} variant="danger" description={t('deleteDescription')}>
                <ConfirmForm
                  action={deleteConnectionAction.bind(null, connection.slug)}
                  statement={t.rich('deleteStatement', { name: connection.displayName, strong })}
                  submit={t('deleteSubmit')}
                  pendingLabel={t('deletePending')}
                />
              </Card>
            </>
          ) : null
        }
      />
    </>
  );
}
