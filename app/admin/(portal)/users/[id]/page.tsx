// /admin/users/:id: one user's profile, role and state, password, sessions, connected apps and recent activity.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { ActionBadge, Actor, Target } from '@/components/admin/audit';
import { SetPasswordForm } from '@/components/admin/user-actions';
import { Badge, Button, ButtonLink, Card, Notice, PageHeader, TextLink, formatDate } from '@/components/admin/ui';
import { requireAdmin } from '@/lib/services/portal/session';
import { userDetails } from '@/lib/services/portal/users';
import { endSessionsAction, revokeAppAction, setPasswordAction, setRoleAction, setUserEnabledAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'User' };

const notices: Record<string, { tone: 'success' | 'error'; text: string }> = {
  saved: { tone: 'success', text: 'Changes saved.' },
  enabled: { tone: 'success', text: 'The user is enabled: they can sign in again.' },
  disabled: { tone: 'success', text: 'The user is disabled: their sessions ended and every token and grant they held is revoked.' },
  admin_granted: { tone: 'success', text: 'The user is now an administrator.' },
  admin_removed: { tone: 'success', text: 'The user is no longer an administrator.' },
  self: { tone: 'error', text: 'You cannot disable your own account or remove your own admin role. Ask another administrator.' },
  app_revoked: { tone: 'success', text: 'Access revoked: the app’s tokens for this user no longer work, and it must ask for consent again.' },
  app_gone: { tone: 'error', text: 'That app no longer holds anything for this user.' },
  portal_app: { tone: 'error', text: 'The admin portal is Gatehouse’s own app: end the user’s sessions, or disable them, instead.' },
};

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 sm:grid-cols-3 sm:gap-4">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="text-sm break-words text-slate-900 sm:col-span-2">{children}</dd>
    </div>
  );
}

const maybeDate = (date: Date | null) => (date ? formatDate(date) : '—');

export default async function UserPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { id } = await params;
  const path = `/admin/users/${encodeURIComponent(id)}`;
  const admin = await requireAdmin(path);
  const details = await userDetails(admin, id);
  if (!details) notFound();
  const { user, self, sessions, apps, activity } = details;
  const query = await searchParams;
  const notice = typeof query.notice === 'string' ? notices[query.notice] : undefined;
  const endedCount = query.notice === 'sessions_ended' ? Number(query.count) || 0 : undefined;

  return (
    <>
      <PageHeader
        title={user.username}
        back={{ href: '/admin/users', label: 'Users' }}
        description={
          <span className="flex flex-wrap gap-1">
            {user.disabled ? <Badge tone="red">Disabled</Badge> : <Badge tone="green">Active</Badge>}
            {user.role === 'admin' ? <Badge tone="indigo">Admin</Badge> : <Badge>User</Badge>}
            {self ? <Badge tone="amber">You</Badge> : null}
          </span>
        }
        actions={
          <>
            <ButtonLink look="secondary" href={`${path}/edit`}>
              Edit profile
            </ButtonLink>
            {self ? null : (
              <>
                <form action={setRoleAction.bind(null, user.id, user.role === 'admin' ? 'user' : 'admin')}>
                  <Button type="submit" look="secondary">
                    {user.role === 'admin' ? 'Remove admin role' : 'Make admin'}
                  </Button>
                </form>
                <form action={setUserEnabledAction.bind(null, user.id, user.disabled)}>
                  <Button type="submit" look={user.disabled ? 'secondary' : 'danger'}>
                    {user.disabled ? 'Enable' : 'Disable'}
                  </Button>
                </form>
              </>
            )}
          </>
        }
      />
      {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
      {endedCount !== undefined ? <Notice>{endedCount === 0 ? 'There was no session to end.' : `${endedCount === 1 ? 'One session' : `${endedCount} sessions`} ended: the user signs in again at their next visit.`}</Notice> : null}
      {self ? <Notice tone="warning">This is your own account: another administrator must disable it or remove its admin role.</Notice> : null}

      <div className="grid gap-6 lg:grid-cols-5">
        <div className="space-y-6 lg:col-span-3">
          <Card title="Profile">
            <dl className="divide-y divide-slate-100">
              <Row label="Username">{user.username}</Row>
              <Row label="Name">{user.name ?? <span className="text-slate-500">None</span>}</Row>
              <Row label="Email">
                {user.email ? (
                  <>
                    {user.email} {user.emailVerified ? <Badge tone="green">Verified</Badge> : <Badge>Not verified</Badge>}
                  </>
                ) : (
                  <span className="text-slate-500">None</span>
                )}
              </Row>
              <Row label="Subject (sub)">
                <code className="font-mono text-xs break-all">{user.id}</code>
              </Row>
              <Row label="Created">{formatDate(user.createdAt)}</Row>
              <Row label="Last changed">{formatDate(user.updatedAt)}</Row>
            </dl>
          </Card>

          <Card title="Connected apps" description="Apps this user has granted access to. Revoking one ends its tokens at once; it asks for consent again next time.">
            {apps.length === 0 ? (
              <p className="text-sm text-slate-600">No connected apps.</p>
            ) : (
              <ul className="divide-y divide-slate-100">
                {apps.map((app) => (
                  <li key={app.clientId} className="flex flex-wrap items-start justify-between gap-3 py-3">
                    <div className="min-w-0 text-sm">
                      <p className="font-medium text-slate-900">
                        {app.name} {app.portal ? <Badge tone="amber">Admin portal</Badge> : app.firstParty ? <Badge tone="indigo">First party</Badge> : null}
                      </p>
                      <p className="text-slate-600">
                        Scopes: <span className="font-mono text-xs">{app.scopes.join(' ') || 'none'}</span>
                      </p>
                      <p className="text-xs text-slate-500">
                        Granted {maybeDate(app.grantedAt)} · Last token {maybeDate(app.lastUsedAt)}
                      </p>
                    </div>
                    {app.portal ? null : (
                      <form action={revokeAppAction.bind(null, user.id, app.clientId)}>
                        <Button type="submit" look="secondary" aria-label={`Revoke ${app.name}`}>
                          Revoke
                        </Button>
                      </form>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </Card>

          <Card title="Recent activity" description={<>What this user did and what was done to them. <TextLink href={`/admin/audit?target=${encodeURIComponent(user.id)}`}>All entries about them</TextLink></>}>
            {activity.length === 0 ? (
              <p className="text-sm text-slate-600">Nothing recorded yet.</p>
            ) : (
              <ul className="divide-y divide-slate-100">
                {activity.map((event) => (
                  <li key={event.id} className="grid gap-2 py-3 text-sm sm:grid-cols-3">
                    <ActionBadge action={event.action} />
                    <div className="text-slate-700">
                      <span className="block text-xs text-slate-500">by</span>
                      <Actor actor={event.actor} ip={event.ip} />
                    </div>
                    <div className="text-slate-700">
                      <Target target={event.target} />
                      <span className="block text-xs text-slate-500">
                        {formatDate(event.at)}
                        {event.ip ? ` · ${event.ip}` : ''}
                      </span>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>

        <div className="space-y-6 lg:col-span-2">
          <Card title="Password" description="Set a new one or let Gatehouse generate one (shown once). The old password stops working at once.">
            <SetPasswordForm action={setPasswordAction.bind(null, user.id)} username={user.username} />
          </Card>

          <Card title="Sessions" description="Where this user is signed in to Gatehouse.">
            {sessions.length === 0 ? (
              <p className="text-sm text-slate-600">No active sessions.</p>
            ) : (
              <ul className="mb-4 divide-y divide-slate-100">
                {sessions.map((session) => (
                  <li key={session.uid} className="py-3 text-sm">
                    <p className="text-slate-900">Signed in {maybeDate(session.signedInAt)}</p>
                    <p className="text-xs text-slate-500">
                      Last active {maybeDate(session.lastActiveAt)} · ends {maybeDate(session.expiresAt)}
                    </p>
                    {session.apps.length ? <p className="text-xs text-slate-600">Apps: {session.apps.join(', ')}</p> : null}
                  </li>
                ))}
              </ul>
            )}
            <form action={endSessionsAction.bind(null, user.id)}>
              <Button type="submit" look="secondary" disabled={sessions.length === 0}>
                End all sessions
              </Button>
            </form>
          </Card>
        </div>
      </div>
    </>
  );
}
