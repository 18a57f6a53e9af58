// /account/sessions: where the person is signed in to Gatehouse, with "sign out everywhere else".
import type { Metadata } from 'next';
import { Button } from '@/components/ui/button';
import { ConfirmForm } from '@/components/portal/confirm';
import { SignedInFrom } from '@/components/portal/session-origin';
import { Card, PageHeader } from '@/components/ui/card';
import { Badge, Notice } from '@/components/ui/notice';
import { formatDate, Time } from '@/components/ui/time';
import { activityOf, sessionsOf, type ActiveSession, type ActivityEntry } from '@/lib/services/account/pages';
import { requireUser } from '@/lib/services/portal/session';
import { endOtherSessionsAction, endSessionAction } from '../../actions';
import { brand } from '@/lib/config/brand';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Sessions' };

function noticeFor(key: unknown, count: unknown): { variant: 'success' | 'error'; text: string } | undefined {
  if (key === 'others_ended') {
    const n = Number(count);
    if (!Number.isInteger(n) || n <= 0) return { variant: 'success', text: 'You had no other sessions: nothing to sign out.' };
    return { variant: 'success', text: `Signed out of ${n === 1 ? 'one other session' : `${n} other sessions`}. You stay signed in here.` };
  }
  if (key === 'ended') return { variant: 'success', text: 'That session is signed out.' };
  if (key === 'current') return { variant: 'error', text: 'That is the session you are using. To end it, sign out.' };
  if (key === 'not_found') return { variant: 'error', text: 'That session had already ended.' };
  return undefined;
}

function SessionItem({ session }: { session: ActiveSession }) {
  const started = session.signedInAt ? formatDate(session.signedInAt) : 'an unknown time';
  return (
    <li className="flex flex-wrap items-start justify-between gap-4 py-4">
      <div className="min-w-0 space-y-1 text-sm">
        <p className="flex flex-wrap items-center gap-2 font-medium text-slate-900">
          <span>{session.browser ?? 'Unknown browser'}</span>
          {session.current ? <Badge variant="green">This device</Badge> : null}
        </p>
        <p className="text-slate-600">
          <SignedInFrom when={session.signedInAt ? <Time date={session.signedInAt} /> : 'at an unknown time'} ip={session.ip} />
        </p>
        <p className="text-slate-600">
          {session.lastActiveAt ? (
            <>
              Last active <Time date={session.lastActiveAt} />
            </>
          ) : null}
          {session.expiresAt ? (
            <>
              {session.lastActiveAt ? ' · ' : ''}Ends <Time date={session.expiresAt} /> unless used
            </>
          ) : null}
        </p>
        <p className="text-slate-600">{session.apps.length ? `Apps: ${session.apps.join(', ')}` : 'No app signed in through it yet'}</p>
      </div>
      {session.current ? null : (
        <form action={endSessionAction.bind(null, session.uid)}>
          <Button type="submit" variant="secondary">
            Sign out<span className="sr-only"> the session signed in at {started}</span>
          </Button>
        </form>
      )}
    </li>
  );
}

/** Who did it; `product`, the brand's name, for what the server did by itself. */
const actors = (product: string): Record<ActivityEntry['by'], string> => ({
  you: 'You',
  administrator: 'An administrator',
  someone: 'Someone not signed in',
  gatehouse: product,
});

function Activity({ entries }: { entries: ActivityEntry[] }) {
  if (!entries.length) return <p className="text-sm text-slate-600">Nothing recorded yet.</p>;
  return (
    <ul className="-my-3 divide-y divide-slate-100">
      {entries.map((entry) => (
        <li key={entry.id} className="grid gap-1 py-3 text-sm sm:grid-cols-3 sm:gap-4">
          <p className="font-medium text-slate-900">
            {entry.what}
            {entry.app ? <span className="font-normal text-slate-600"> · {entry.app}</span> : null}
          </p>
          <p className="text-slate-600">
            {actors(brand().name)[entry.by]}
            {entry.browser ? <span className="block text-xs text-slate-500">{entry.browser}</span> : null}
          </p>
          <p className="text-slate-600">
            <Time date={entry.at} />
            {entry.ip ? <span className="block font-mono text-xs text-slate-500">{entry.ip}</span> : null}
          </p>
        </li>
      ))}
    </ul>
  );
}

export default async function SessionsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser('/account/sessions');
  const [sessions, activity] = await Promise.all([sessionsOf(user), activityOf(user)]);
  const params = await searchParams;
  const notice = noticeFor(params.notice, params.count);
  const others = sessions.filter((s) => !s.current).length;
  return (
    <>
      <PageHeader title="Sessions" description={`The browsers and devices where you are signed in to ${brand().name}.`} />
      {notice ? <Notice variant={notice.variant}>{notice.text}</Notice> : null}
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <Card title={`Active sessions (${sessions.length})`}>
            {sessions.length ? (
              <ul className="-my-4 divide-y divide-slate-100">
                {sessions.map((session) => (
                  <SessionItem key={session.uid} session={session} />
                ))}
              </ul>
            ) : (
              <p className="text-sm text-slate-600">
                No active {brand().name} session: you are signed in to this page only, until it asks you to sign in again.
              </p>
            )}
          </Card>
        </div>
        <Card
          title="Sign out everywhere else"
          description={`Ends every ${brand().name} session of yours except this browser’s. Apps signed in through them without offline access lose it too; apps with offline access keep it until you revoke them under Connected apps.`}
        >
          <ConfirmForm
            action={endOtherSessionsAction}
            statement="Sign out every other browser and device where I am signed in."
            submit="Sign out everywhere else"
            pendingLabel="Signing out…"
            variant={others ? 'danger' : 'secondary'}
          />
        </Card>
      </div>
      <div className="mt-6">
        <Card
          title="Recent activity"
          description="Sign-ins and changes to your account, newest first. Something you do not recognise? Change your password, then sign out everywhere else."
        >
          <Activity entries={activity} />
        </Card>
      </div>
    </>
  );
}
