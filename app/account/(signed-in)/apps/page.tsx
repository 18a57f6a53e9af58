// /account/apps: the apps the person has connected (their grants), with a revoke button for each.
import type { Metadata } from 'next';
import { ScopeList } from '@/components/scope-list';
import { ConfirmForm } from '@/components/portal/confirm';
import { Card, PageHeader } from '@/components/ui/card';
import { Badge, NoticeFor } from '@/components/ui/notice';
import { Time } from '@/components/ui/time';
import { appsOf, type ConnectedApp } from '@/lib/services/account/pages';
import { requireUser } from '@/lib/services/portal/session';
import { revokeAppAction } from '../../actions';
import { brand } from '@/lib/config/brand';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Connected apps' };

const notices: Record<string, { variant: 'success' | 'error'; text: string }> = {
  revoked: { variant: 'success', text: 'Access revoked. The app’s tokens no longer work; if you use it again, it asks for your permission again.' },
  refused: { variant: 'error', text: 'This is the account portal you are using now. To end its access, sign out.' },
  not_found: { variant: 'error', text: 'That app had no access left to revoke.' },
};

function AppCard({ app }: { app: ConnectedApp }) {
  const headingId = `app-${app.clientId}`;
  return (
    <li aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 items-center gap-3">
          <span aria-hidden className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-lg font-semibold text-indigo-700">
            {app.name.charAt(0).toUpperCase()}
          </span>
          <div className="min-w-0">
            <h2 id={headingId} className="text-base font-semibold break-words text-slate-900">
              {app.name}
            </h2>
            <p className="mt-0.5 flex flex-wrap gap-1">
              {app.portal ? <Badge variant="indigo">This portal</Badge> : app.firstParty ? <Badge variant="indigo">First party</Badge> : null}
            </p>
          </div>
        </div>
        {app.portal ? null : (
          <ConfirmForm
            action={revokeAppAction.bind(null, app.clientId)}
            collapsed={
              <>
                Revoke access…<span className="sr-only"> for {app.name}</span>
              </>
            }
            statement={
              <>
                End <strong>{app.name}</strong>’s access: its tokens stop working, and it asks for your permission again next time.
              </>
            }
            submit={
              <>
                Revoke access<span className="sr-only"> for {app.name}</span>
              </>
            }
            pendingLabel="Revoking…"
          />
        )}
      </div>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <div>
          <h3 className="text-sm font-medium text-slate-500">It may</h3>
          <div className="mt-2">
            <ScopeList scopes={app.scopes} claims={[]} product={brand().name} />
          </div>
        </div>
        <dl className="space-y-2 text-sm">
          <div>
            <dt className="font-medium text-slate-500">Connected</dt>
            <dd className="text-slate-900">{app.grantedAt ? <Time date={app.grantedAt} /> : 'Unknown'}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-500">Last used</dt>
            <dd className="text-slate-900">{app.lastUsedAt ? <Time date={app.lastUsedAt} /> : 'No token in use'}</dd>
          </div>
        </dl>
      </div>
      {app.portal ? (
        <p className="mt-4 text-sm text-slate-600">
          The account portal, where you are now. It cannot be revoked from here: it would sign you straight back in. Sign out to end its access.
        </p>
      ) : app.firstParty ? (
        <p className="mt-4 text-sm text-slate-600">
          Your organisation’s own app: it does not ask for permission, so revoking signs it out until you use it again.
        </p>
      ) : null}
    </li>
  );
}

export default async function AppsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser('/account/apps');
  const apps = await appsOf(user);
  const { notice } = await searchParams;
  return (
    <>
      <PageHeader
        title="Connected apps"
        description="Apps you allowed to sign you in and see your details. Revoking one ends its access at once: its tokens stop working."
      />
      <NoticeFor notices={notices} notice={notice} />
      {apps.length ? (
        <ul className="space-y-4">
          {apps.map((app) => (
            <AppCard key={app.clientId} app={app} />
          ))}
        </ul>
      ) : (
        <Card>
          <p className="text-sm text-slate-600">No app has access to your account.</p>
        </Card>
      )}
    </>
  );
}
