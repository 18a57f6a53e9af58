// /admin/clients/:id: one client's registration, credentials and actions.
import { mayActOnClient } from '@/lib/admin-roles/roles';
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { DeleteClientForm, RotateSecretForm } from '@/components/admin/client-actions';
import { SecondFactorBadge } from '@/components/admin/client-badges';
import { Quickstart } from '@/components/admin/quickstart';
import { ConfirmForm } from '@/components/portal/confirm';
import { DetailColumns, DetailHeader, detailRoute, Facts } from '@/components/portal/detail';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Badge, Notice, NoticeFor } from '@/components/ui/notice';
import { exactTimes } from '@/components/portal/when';
import { env } from '@/lib/config/env';
import { kindOf } from '@/lib/surfaces/portal/client-presets';
import { ValueList as List } from '@/components/admin/detail-values';
import { clientDetails } from '@/lib/surfaces/portal/clients';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { approveClientAction, deleteClientAction, disableClientAction, enableClientAction, rotateSecretAction } from '../actions';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.client'))('title') };
}

export default async function ClientPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id, path } = await detailRoute('/admin/clients', params);
  const admin = await requireAdmin('clients.read', path);
  const client = await clientDetails(admin, id);
  if (!client) notFound();
  // No changes offered to a role that may not make them (an auditor; a client acting as owner for an admin): the actions refuse them anyway.
  const readOnly = client.managed || !mayActOnClient(admin.role, client);
  const { notice } = await searchParams;
  const issuer = env().ISSUER;
  const t = await getTranslations('admin.client');
  const exact = await exactTimes();
  const list = await getTranslations('admin.clients');
  const roleNames = await getTranslations('admin.user.roles');
  const notices = {
    saved: { variant: 'success', text: t('notices.saved') },
    enabled: { variant: 'success', text: t('notices.enabled') },
    disabled: { variant: 'success', text: t('notices.disabled') },
    managed: { variant: 'error', text: t('notices.managed') },
    approved: { variant: 'success', text: t('notices.approved') },
    notPending: { variant: 'error', text: t('notices.notPending') },
  } as const;
  const none = t('none');
  const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;

  return (
    <>
      <DetailHeader
        title={client.name}
        back={{ href: '/admin/clients', label: list('title') }}
        badges={
          <>
            <Badge>{client.confidential ? list('confidential') : list('public')}</Badge>
            {client.enabled ? <Badge variant="green">{list('enabled')}</Badge> : <Badge variant="red">{list('disabled')}</Badge>}
            {client.firstParty ? <Badge variant="indigo">{list('firstParty')}</Badge> : null}
            {client.resourceServer ? <Badge variant="indigo">{t('resourceServer')}</Badge> : null}
            {client.adminApi ? <Badge variant="amber">{t('adminApi')}</Badge> : null}
            {client.adminApi ? <Badge variant="indigo">{roleNames(client.adminRole)}</Badge> : null}
            <SecondFactorBadge required={client.requireSecondFactor} />
            {client.managed ? <Badge variant="amber">{t('managedBadge')}</Badge> : null}
            {client.registeredDynamically ? <Badge>{t('dynamicBadge')}</Badge> : null}
            {client.approvalPending ? <Badge variant="amber">{t('pendingBadge')}</Badge> : null}
          </>
        }
        actions={
          readOnly ? null : (
            <>
              <ButtonLink variant="secondary" href={`${path}/edit`}>
                {t('edit')}
              </ButtonLink>
              {client.approvalPending ? (
                <form action={approveClientAction.bind(null, client.id)}>
                  <Button type="submit">{t('approve')}</Button>
                </form>
              ) : null}
              {client.enabled ? null : (
                <form action={enableClientAction.bind(null, client.id)}>
                  <Button type="submit" variant="secondary">
                    {t('enable')}
                  </Button>
                </form>
              )}
            </>
          )
        }
      />
      <NoticeFor notices={notices} notice={notice} />
      {client.policyViolations.length ? (
        <Notice variant="warning">
          <p className="font-semibold">{t('policy.title')}</p>
          <ul className="mt-1 list-inside list-disc">
            {client.policyViolations.map((violation) => (
              <li key={violation}>{t(`policy.${violation}`, { grants: client.grantTypes.filter((grant) => grant !== 'client_credentials').join(', ') })}</li>
            ))}
          </ul>
        </Notice>
      ) : null}
      {client.managed ? <Notice variant="warning">{t('managedNotice')}</Notice> : null}
      {client.approvalPending ? <Notice variant="warning">{t('pendingNotice')}</Notice> : null}

      <DetailColumns
        main={
          <>
            <Card title={t('registration')}>
              <Facts
                rows={{
                  [t('redirectUris')]: <List items={client.redirectUris} empty={none} />,
                  [t('postLogoutRedirectUris')]: <List items={client.postLogoutRedirectUris} empty={none} />,
                  [t('grantTypes')]: <List items={client.grantTypes} empty={none} />,
                  [t('scopes')]: <List items={client.scope.split(' ').filter(Boolean)} empty={none} />,
                  [t('tokenEndpointAuthMethod')]: <code className="font-mono text-xs">{client.tokenEndpointAuthMethod}</code>,
                  [t('idTokenSignedResponseAlg')]: <code className="font-mono text-xs">{client.idTokenSignedResponseAlg}</code>,
                  [t('applicationType')]: client.applicationType,
                  [t('logoUri')]: client.logoUri ? <span className="font-mono text-xs">{client.logoUri}</span> : <span className="text-slate-500">{none}</span>,
                  [t('backchannelLogoutUri')]: client.backchannelLogoutUri ? (
                    <span className="font-mono text-xs break-all">
                      {client.backchannelLogoutUri}
                      {client.backchannelLogoutSessionRequired ? ' (sid)' : ''}
                    </span>
                  ) : (
                    <span className="text-slate-500">{none}</span>
                  ),
                  [t('registered')]: exact(client.createdAt),
                  [t('lastChanged')]: exact(client.updatedAt),
                }}
              />
            </Card>
            <Card>
              <Quickstart kind={kindOf(client)} issuer={issuer} clientId={client.id} redirectUri={client.redirectUris[0]} />
            </Card>
          </>
        }
        side={
          <>
            {client.confidential && !readOnly ? (
              <Card title={t('secretTitle')} description={t('secretDescription')}>
                <RotateSecretForm action={rotateSecretAction.bind(null, client.id)} />
              </Card>
            ) : null}

            {readOnly || !client.enabled ? null : (
              <Card title={t('disableTitle')} variant="danger" description={t('disableDescription')}>
                <ConfirmForm
                  action={disableClientAction.bind(null, client.id)}
                  statement={t.rich('disableStatement', { name: client.name, strong })}
                  submit={t('disableSubmit')}
                  pendingLabel={t('disablePending')}
                />
              </Card>
            )}

            {readOnly ? null : (
              <Card title={t('deleteTitle')} variant="danger">
                <DeleteClientForm action={deleteClientAction.bind(null, client.id)} name={client.name} />
              </Card>
            )}
          </>
        }
      />
    </>
  );
}
