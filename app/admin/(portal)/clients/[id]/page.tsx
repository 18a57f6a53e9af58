// /admin/clients/:id: one client's registration, credentials and actions.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { DeleteClientForm, RotateSecretForm } from '@/components/admin/client-actions';
import { SecondFactorBadge } from '@/components/admin/client-badges';
import { ConfirmForm } from '@/components/portal/confirm';
import { DetailColumns, DetailHeader, detailRoute, Facts } from '@/components/portal/detail';
import { Button, ButtonLink } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { CopyField } from '@/components/ui/copy-field';
import { Badge, Notice, NoticeFor } from '@/components/ui/notice';
import { formatDate } from '@/components/ui/time';
import { env } from '@/lib/config/env';
import { clientDetails } from '@/lib/services/portal/clients';
import { requireAdmin } from '@/lib/services/portal/session';
import { deleteClientAction, disableClientAction, enableClientAction, rotateSecretAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Client' };

function List({ items, empty }: { items: string[]; empty: string }) {
  if (!items.length) return <span className="text-slate-500">{empty}</span>;
  return (
    <ul className="space-y-1 font-mono text-xs">
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </ul>
  );
}

const notices = {
  saved: { variant: 'success', text: 'Changes saved.' },
  enabled: { variant: 'success', text: 'The client is enabled: it can sign people in again.' },
  disabled: { variant: 'success', text: 'The client is disabled, and every token and grant it held is revoked.' },
  managed: { variant: 'error', text: 'Gatehouse manages this client itself: it cannot be changed here.' },
} as const;

export default async function ClientPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id, path } = await detailRoute('/admin/clients', params);
  const client = await clientDetails(await requireAdmin(path), id);
  if (!client) notFound();
  const { notice } = await searchParams;
  const issuer = env().ISSUER;

  return (
    <>
      <DetailHeader
        title={client.name}
        back={{ href: '/admin/clients', label: 'Clients' }}
        badges={
          <>
            <Badge>{client.confidential ? 'Confidential' : 'Public'}</Badge>
            {client.enabled ? <Badge variant="green">Enabled</Badge> : <Badge variant="red">Disabled</Badge>}
            {client.firstParty ? <Badge variant="indigo">First party</Badge> : null}
            {client.resourceServer ? <Badge variant="indigo">Resource server</Badge> : null}
            {client.adminApi ? <Badge variant="amber">Admin API</Badge> : null}
            <SecondFactorBadge required={client.requireSecondFactor} />
            {client.managed ? <Badge variant="amber">Managed by Gatehouse</Badge> : null}
          </>
        }
        actions={
          client.managed ? null : (
            <>
              <ButtonLink variant="secondary" href={`${path}/edit`}>
                Edit
              </ButtonLink>
              {client.enabled ? null : (
                <form action={enableClientAction.bind(null, client.id)}>
                  <Button type="submit" variant="secondary">
                    Enable
                  </Button>
                </form>
              )}
            </>
          )
        }
      />
      <NoticeFor notices={notices} notice={notice} />
      {client.policyProblems.length ? (
        <Notice variant="warning">
          <p className="font-semibold">Part of this registration is not honoured</p>
          <ul className="mt-1 list-inside list-disc">
            {client.policyProblems.map((problem) => (
              <li key={problem}>{problem.charAt(0).toUpperCase() + problem.slice(1)}.</li>
            ))}
          </ul>
        </Notice>
      ) : null}
      {client.managed ? (
        <Notice variant="warning">
          The admin portal signs in with this client. Gatehouse keeps its registration as the portal needs it, so it cannot be edited, disabled, rotated or
          deleted here.
        </Notice>
      ) : null}

      <DetailColumns
        main={
          <Card title="Registration">
            <Facts
              rows={{
                'Redirect URIs': <List items={client.redirectUris} empty="None" />,
                'Post-logout redirect URIs': <List items={client.postLogoutRedirectUris} empty="None" />,
                'Grant types': <List items={client.grantTypes} empty="None" />,
                'Allowed scopes': <List items={client.scope.split(' ').filter(Boolean)} empty="None" />,
                'Token endpoint authentication': <code className="font-mono text-xs">{client.tokenEndpointAuthMethod}</code>,
                'ID token signing algorithm': <code className="font-mono text-xs">{client.idTokenSignedResponseAlg}</code>,
                'Application type': client.applicationType,
                'Logo URI': client.logoUri ? <span className="font-mono text-xs">{client.logoUri}</span> : <span className="text-slate-500">None</span>,
                Registered: formatDate(client.createdAt),
                'Last changed': formatDate(client.updatedAt),
              }}
            />
          </Card>
        }
        side={
          <>
            <Card title="Connect your app" description="Configure your OpenID Connect library by discovery.">
              <div className="space-y-4">
                <CopyField id="client-id" label="Client ID" value={client.id} />
                <CopyField id="discovery" label="Discovery URL" value={`${issuer}/.well-known/openid-configuration`} />
              </div>
            </Card>

            {client.confidential && !client.managed ? (
              <Card title="Client secret" description="Stored only as a hash: it cannot be shown again. Rotate it to get a new one, shown once.">
                <RotateSecretForm action={rotateSecretAction.bind(null, client.id)} />
              </Card>
            ) : null}

            {client.managed || !client.enabled ? null : (
              <Card title="Disable client" variant="danger" description="It signs no one in until enabled again; its registration stays.">
                <ConfirmForm
                  action={disableClientAction.bind(null, client.id)}
                  statement={
                    <>
                      Disable <strong>{client.name}</strong>, and revoke every token and grant it holds: people signed in to it are signed out.
                    </>
                  }
                  submit="Disable client"
                  pendingLabel="Disabling…"
                />
              </Card>
            )}

            {client.managed ? null : (
              <Card title="Delete client" variant="danger">
                <DeleteClientForm action={deleteClientAction.bind(null, client.id)} name={client.name} />
              </Card>
            )}
          </>
        }
      />
    </>
  );
}
