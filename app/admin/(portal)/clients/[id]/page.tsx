// /admin/clients/:id: one client's registration, credentials and actions.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { DeleteClientForm, RotateSecretForm } from '@/components/admin/client-actions';
import { CopyField } from '@/components/admin/copy-button';
import { Badge, Button, ButtonLink, Card, Notice, PageHeader, formatDate } from '@/components/admin/ui';
import { env } from '@/lib/config/env';
import { clientDetails } from '@/lib/services/portal/clients';
import { requireAdmin } from '@/lib/services/portal/session';
import { deleteClientAction, rotateSecretAction, setClientEnabledAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Client' };

const notices: Record<string, { tone: 'success' | 'error'; text: string }> = {
  saved: { tone: 'success', text: 'Changes saved.' },
  enabled: { tone: 'success', text: 'The client is enabled: it can sign people in again.' },
  disabled: { tone: 'success', text: 'The client is disabled, and every token and grant it held is revoked.' },
  managed: { tone: 'error', text: 'Gatehouse manages this client itself: it cannot be changed here.' },
};

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="text-sm break-words text-slate-900 sm:col-span-2">{children}</dd>
    </div>
  );
}

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

export default async function ClientPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const path = `/admin/clients/${encodeURIComponent(id)}`;
  const admin = await requireAdmin(path);
  const client = await clientDetails(admin, id);
  if (!client) notFound();
  const { notice: noticeKey } = await searchParams;
  const notice = typeof noticeKey === 'string' ? notices[noticeKey] : undefined;
  const issuer = env().ISSUER;

  return (
    <>
      <PageHeader
        title={client.name}
        back={{ href: '/admin/clients', label: 'Clients' }}
        description={
          <span className="flex flex-wrap gap-1">
            <Badge>{client.confidential ? 'Confidential' : 'Public'}</Badge>
            {client.enabled ? <Badge tone="green">Enabled</Badge> : <Badge tone="red">Disabled</Badge>}
            {client.firstParty ? <Badge tone="indigo">First party</Badge> : null}
            {client.resourceServer ? <Badge tone="indigo">Resource server</Badge> : null}
            {client.adminApi ? <Badge tone="amber">Admin API</Badge> : null}
            {client.managed ? <Badge tone="amber">Managed by Gatehouse</Badge> : null}
          </span>
        }
        actions={
          client.managed ? null : (
            <>
              <ButtonLink look="secondary" href={`${path}/edit`}>
                Edit
              </ButtonLink>
              <form action={setClientEnabledAction.bind(null, client.id, !client.enabled)}>
                <Button type="submit" look="secondary">
                  {client.enabled ? 'Disable' : 'Enable'}
                </Button>
              </form>
            </>
          )
        }
      />
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      {client.managed ? (
        <Notice tone="warning">The admin portal signs in with this client. Gatehouse keeps its registration as the portal needs it, so it cannot be edited, disabled, rotated or deleted here.</Notice>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-5">
        <div className="space-y-6 lg:col-span-3">
          <Card title="Registration">
            <dl className="divide-y divide-slate-100">
              <Row label="Redirect URIs">
                <List items={client.redirectUris} empty="None" />
              </Row>
              <Row label="Post-logout redirect URIs">
                <List items={client.postLogoutRedirectUris} empty="None" />
              </Row>
              <Row label="Grant types">
                <List items={client.grantTypes} empty="None" />
              </Row>
              <Row label="Allowed scopes">
                <List items={client.scope.split(' ').filter(Boolean)} empty="None" />
              </Row>
              <Row label="Token endpoint authentication">
                <code className="font-mono text-xs">{client.tokenEndpointAuthMethod}</code>
              </Row>
              <Row label="ID token signing algorithm">
                <code className="font-mono text-xs">{client.idTokenSignedResponseAlg}</code>
              </Row>
              <Row label="Application type">{client.applicationType}</Row>
              <Row label="Logo URI">{client.logoUri ? <span className="font-mono text-xs">{client.logoUri}</span> : <span className="text-slate-500">None</span>}</Row>
              <Row label="Registered">{formatDate(client.createdAt)}</Row>
              <Row label="Last changed">{formatDate(client.updatedAt)}</Row>
            </dl>
          </Card>
        </div>

        <div className="space-y-6 lg:col-span-2">
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

          {client.managed ? null : (
            <Card title="Delete client" tone="danger">
              <DeleteClientForm action={deleteClientAction.bind(null, client.id)} name={client.name} />
            </Card>
          )}
        </div>
      </div>
    </>
  );
}
