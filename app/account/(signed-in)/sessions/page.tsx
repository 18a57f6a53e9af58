// /account/sessions: where the person is signed in to Gatehouse, with "sign out everywhere else".
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { ConfirmForm } from '@/components/portal/confirm';
import { SignedInFrom } from '@/components/portal/session-origin';
import { Card, PageHeader } from '@/components/ui/card';
import { Badge, Notice } from '@/components/ui/notice';
import { ExactTime, Time } from '@/components/ui/time';
import { activityOf, sessionsOf, trustedDevicesOf, type ActiveSession, type ActivityEntry, type TrustedDevice } from '@/lib/surfaces/account/pages';
import { summarizeUserAgent, type UserAgentSummary } from '@/lib/platform/user-agent';
import { Button } from '@/components/ui/button';
import { env } from '@/lib/config/env';
import { requireUser } from '@/lib/surfaces/portal/session';
import { endOtherSessionsAction, endSessionAction, forgetTrustedDeviceAction } from '../../actions';
import { brand } from '@/lib/config/brand';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('account.sessions'))('title') };
}

type T = Awaited<ReturnType<typeof getTranslations<'account.sessions'>>>;

function noticeFor(t: T, key: unknown, count: unknown): { variant: 'success' | 'error'; text: string } | undefined {
  if (key === 'others_ended') {
    const n = Number(count);
    if (!Number.isInteger(n) || n <= 0) return { variant: 'success', text: t('noOthers') };
    return { variant: 'success', text: t('othersEnded', { count: n }) };
  }
  if (key === 'ended') return { variant: 'success', text: t('ended') };
  if (key === 'current') return { variant: 'error', text: t('current') };
  if (key === 'not_found') return { variant: 'error', text: t('notFound') };
  if (key === 'untrusted') return { variant: 'success', text: t('untrusted') };
  return undefined;
}

/** "Chrome on Linux" in the page's language; an unknown user agent as it is. */
async function agentText(agent: UserAgentSummary | null): Promise<string | null> {
  if (!agent) return null;
  if ('other' in agent) return agent.other;
  return agent.system ? (await getTranslations('portal'))('agent', { browser: agent.browser, system: agent.system }) : agent.browser;
}

async function SessionItem({ session }: { session: ActiveSession }) {
  const t = await getTranslations('account.sessions');
  const started = session.signedInAt;
  const when = (date: Date) => () => <Time date={date} />;
  // Which session a button ends, for a screen reader's list of buttons.
  const which = <span className="sr-only">{started ? t.rich('signOutWhich', { when: () => <ExactTime date={started} /> }) : t('signOutUnknown')}</span>;
  return (
    <li className="flex flex-wrap items-start justify-between gap-4 py-4">
      <div className="min-w-0 space-y-1 text-sm">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
          <span>{(await agentText(session.agent)) ?? t('unknownBrowser')}</span>
          {session.current ? <Badge variant="green">{t('thisDevice')}</Badge> : null}
        </p>
        <p className="text-slate-600">
          <SignedInFrom when={session.signedInAt ? <Time date={session.signedInAt} /> : null} ip={session.ip} />
        </p>
        <p className="text-slate-600">
          {session.lastActiveAt ? t.rich('lastActive', { when: when(session.lastActiveAt) }) : null}
          {session.expiresAt ? (
            <>
              {session.lastActiveAt ? ' · ' : ''}
              {t.rich('ends', { when: when(session.expiresAt) })}
            </>
          ) : null}
        </p>
        <p className="text-slate-600">{session.apps.length ? t('apps', { apps: session.apps.join(', ') }) : t('noApps')}</p>
      </div>
      {session.current ? null : (
        <ConfirmForm
          action={endSessionAction.bind(null, session.uid)}
          collapsed={
            <>
              {t('signOutOpen')}
              {which}
            </>
          }
          statement={t('signOutStatement')}
          submit={
            <>
              {t('signOut')}
              {which}
            </>
          }
          pendingLabel={t('pending')}
        />
      )}
    </li>
  );
}

/** The browsers trusted to skip the second step (TRUSTED_DEVICE_DAYS), each with a button that ends the trust. */
async function TrustedDevices({ devices }: { devices: TrustedDevice[] }) {
  const t = await getTranslations('account.sessions');
  if (!devices.length) return <p className="text-sm text-slate-600">{t('trustedNone')}</p>;
  const items = await Promise.all(
    devices.map(async (device) => {
      const browser = (await agentText(summarizeUserAgent(device.userAgent))) ?? t('unknownBrowser');
      const when = (date: Date) => () => <Time date={date} />;
      return (
        <li key={device.id} className="flex flex-wrap items-start justify-between gap-4 py-4">
          <div className="min-w-0 space-y-1 text-sm">
            <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
              <span>{browser}</span>
              {device.current ? <Badge variant="green">{t('thisDevice')}</Badge> : null}
            </p>
            <p className="text-slate-600">{t.rich('trustedUntil', { when: when(device.expiresAt) })}</p>
            {device.lastUsedAt ? <p className="text-slate-600">{t.rich('trustedLastUsed', { when: when(device.lastUsedAt) })}</p> : null}
          </div>
          <form action={forgetTrustedDeviceAction.bind(null, device.id)}>
            <Button type="submit" variant="secondary">
              {t('forget')}
              <span className="sr-only">{t.rich('forgetWhich', { browser, when: () => <ExactTime date={device.createdAt} /> })}</span>
            </Button>
          </form>
        </li>
      );
    }),
  );
  return <ul className="-my-4 divide-y divide-slate-100">{items}</ul>;
}

async function Activity({ entries }: { entries: ActivityEntry[] }) {
  const t = await getTranslations('account.sessions');
  const actions = await getTranslations('auditActions');
  if (!entries.length) return <p className="text-sm text-slate-600">{t('nothing')}</p>;
  // Who did it; the brand's name for what the server did by itself.
  const actors: Record<ActivityEntry['by'], string> = { you: t('you'), administrator: t('administrator'), someone: t('someone'), gatehouse: brand().name };
  const items = await Promise.all(
    entries.map(async (entry) => {
      const browser = await agentText(entry.agent);
      return (
        <li key={entry.id} className="grid gap-1 py-3 text-sm sm:grid-cols-3 sm:gap-4">
          <p className="font-medium text-slate-900">
            {entry.action ? actions(entry.action) : entry.what}
            {entry.app ? <span className="font-normal text-slate-600"> · {entry.app}</span> : null}
          </p>
          <p className="text-slate-600">
            {actors[entry.by]}
            {browser ? <span className="block text-xs text-slate-500">{browser}</span> : null}
          </p>
          <p className="text-slate-600">
            <Time date={entry.at} />
            {entry.ip ? <span className="block font-mono text-xs text-slate-500">{entry.ip}</span> : null}
          </p>
        </li>
      );
    }),
  );
  return <ul className="-my-3 divide-y divide-slate-100">{items}</ul>;
}

export default async function SessionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser('/account/sessions');
  const [sessions, activity, trusted] = await Promise.all([sessionsOf(user), activityOf(user), trustedDevicesOf(user)]);
  const params = await searchParams;
  const t = await getTranslations('account.sessions');
  const notice = noticeFor(t, params.notice, params.count);
  const others = sessions.filter((s) => !s.current).length;
  const product = brand().name;
  return (
    <>
      <PageHeader title={t('title')} description={t('description', { product })} />
      {notice ? <Notice variant={notice.variant}>{notice.text}</Notice> : null}
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <Card title={t('active', { count: sessions.length })}>
            {sessions.length ? (
              <ul className="-my-4 divide-y divide-slate-100">
                {sessions.map((session) => (
                  <SessionItem key={session.uid} session={session} />
                ))}
              </ul>
            ) : (
              <p className="text-sm text-slate-600">{t('none', { product })}</p>
            )}
          </Card>
        </div>
        <Card title={t('everywhere')} description={t('everywhereDescription', { product })}>
          <ConfirmForm
            action={endOtherSessionsAction}
            statement={t('statement')}
            submit={t('everywhere')}
            pendingLabel={t('pending')}
            variant={others ? 'danger' : 'secondary'}
          />
        </Card>
      </div>
      {env().TRUSTED_DEVICE_DAYS > 0 || trusted.length ? (
        <div className="mt-6">
          <Card title={t('trusted')} description={t('trustedDescription')}>
            <TrustedDevices devices={trusted} />
          </Card>
        </div>
      ) : null}
      <div className="mt-6">
        <Card title={t('activity')} description={t('activityDescription')}>
          <Activity entries={activity} />
        </Card>
      </div>
    </>
  );
}
