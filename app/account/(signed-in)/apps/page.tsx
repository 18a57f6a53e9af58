// /account/apps: the apps the person has connected (their grants), with a revoke button for each.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ClientLogo } from '@/components/interaction/client-logo';
import { ScopeList } from '@/components/scope-list';
import { ConfirmForm } from '@/components/portal/confirm';
import { Card, PageHeader } from '@/components/ui/card';
import { Badge, NoticeFor } from '@/components/ui/notice';
import { Time } from '@/components/ui/time';
import { appsOf, type ConnectedApp } from '@/lib/surfaces/account/pages';
import { requireUser } from '@/lib/surfaces/portal/session';
import { revokeAppAction } from '../../actions';
import { brand } from '@/lib/config/brand';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('account.apps'))('title') };
}

async function AppCard({ app }: { app: ConnectedApp }) {
  const t = await getTranslations('account.apps');
  const forApp = <span className="sr-only">{t('forApp', { app: app.name })}</span>;
  const headingId = `app-${app.clientId}`;
  return (
    <li aria-labelledby={headingId} className="rounded-xl border border-slate-200 bg-white p-5 shadow-xs sm:p-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 items-center gap-3">
          <ClientLogo name={app.name} logoUri={app.logoUri ?? undefined} alt={t('logoAlt', { app: app.name })} />
          <div className="min-w-0">
            <h2 id={headingId} className="text-base font-semibold break-words text-slate-900">
              {app.name}
            </h2>
            <p className="mt-0.5 flex flex-wrap gap-1">
              {app.portal ? <Badge variant="indigo">{t('thisPortal')}</Badge> : app.firstParty ? <Badge variant="indigo">{t('firstParty')}</Badge> : null}
            </p>
          </div>
        </div>
        {app.portal ? null : (
          <ConfirmForm
            action={revokeAppAction.bind(null, app.clientId)}
            collapsed={
              <>
                {t('revoke')}
                {forApp}
              </>
            }
            statement={t.rich('statement', { app: app.name, strong: (chunks) => <strong>{chunks}</strong> })}
            submit={
              <>
                {t('submit')}
                {forApp}
              </>
            }
            pendingLabel={t('pending')}
          />
        )}
      </div>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <div>
          <h3 className="text-sm font-medium text-slate-500">{t('mayDo')}</h3>
          <div className="mt-2">
            <ScopeList scopes={app.scopes} claims={[]} product={brand().name} />
          </div>
        </div>
        <dl className="space-y-2 text-sm">
          <div>
            <dt className="font-medium text-slate-500">{t('connected')}</dt>
            <dd className="text-slate-900">{app.grantedAt ? <Time date={app.grantedAt} /> : t('unknown')}</dd>
          </div>
          <div>
            <dt className="font-medium text-slate-500">{t('lastUsed')}</dt>
            <dd className="text-slate-900">{app.lastUsedAt ? <Time date={app.lastUsedAt} /> : t('noToken')}</dd>
          </div>
        </dl>
      </div>
      {app.portal ? (
        <p className="mt-4 text-sm text-slate-600">{t('portalNote')}</p>
      ) : app.firstParty ? (
        <p className="mt-4 text-sm text-slate-600">{t('firstPartyNote')}</p>
      ) : null}
    </li>
  );
}

export default async function AppsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser('/account/apps');
  const apps = await appsOf(user);
  const { notice } = await searchParams;
  const t = await getTranslations('account.apps');
  const notices: Record<string, { variant: 'success' | 'error'; text: string }> = {
    revoked: { variant: 'success', text: t('revoked') },
    refused: { variant: 'error', text: t('refused') },
    not_found: { variant: 'error', text: t('notFound') },
  };
  return (
    <>
      <PageHeader title={t('title')} description={t('description')} />
      <NoticeFor notices={notices} notice={notice} />
      {apps.length ? (
        <ul className="space-y-4">
          {apps.map((app) => (
            <AppCard key={app.clientId} app={app} />
          ))}
        </ul>
      ) : (
        <Card>
          <p className="text-sm text-slate-600">{t('none')}</p>
        </Card>
      )}
    </>
  );
}
