// /admin/users/:id: one user's profile, role and state (an invitation not accepted yet, with Send again; a lock after failed password checks, with Unlock), two-step verification (with Reset), password, sessions, connected apps and recent activity.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ActionBadge, Actor, Target } from '@/components/admin/audit';
import { SetPasswordForm } from '@/components/admin/user-actions';
import { ConfirmForm } from '@/components/portal/confirm';
import { SignedInFrom } from '@/components/portal/session-origin';
import { Button, ButtonLink, TextLink } from '@/components/ui/button';
import { DetailColumns, DetailHeader, detailRoute, Facts, ItemList } from '@/components/portal/detail';
import { Card } from '@/components/ui/card';
import { Badge, Notice, NoticeFor } from '@/components/ui/notice';
import { formatDate } from '@/components/ui/time';
import { requireAdmin } from '@/lib/services/portal/session';
import { userDetails } from '@/lib/services/portal/users';
import {
  endSessionsAction,
  resendInvitationAction,
  resendVerificationAction,
  resetFactorsAction,
  revokeAppAction,
  setPasswordAction,
  setRoleAction,
  disableUserAction,
  enableUserAction,
  unlockAction,
} from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'User' };

const notices = {
  saved: { variant: 'success', text: 'Changes saved.' },
  saved_verification_sent: { variant: 'success', text: 'Changes saved. A verification link is on its way to the new email address.' },
  saved_verification_failed: {
    variant: 'error',
    text: 'Changes saved, but the mail server refused the verification mail for the new address: send the link again later.',
  },
  enabled: { variant: 'success', text: 'The user is enabled: they can sign in again.' },
  disabled: { variant: 'success', text: 'The user is disabled: their sessions ended and every token and grant they held is revoked.' },
  admin_granted: { variant: 'success', text: 'The user is now an administrator.' },
  admin_removed: { variant: 'success', text: 'The user is no longer an administrator.' },
  self: { variant: 'error', text: 'You cannot disable your own account or remove your own admin role. Ask another administrator.' },
  unlocked: { variant: 'success', text: 'The user is unlocked: they can sign in again at once.' },
  not_locked: { variant: 'success', text: 'The user was not locked (the lock had run out): nothing to lift.' },
  factors_reset: {
    variant: 'success',
    text: 'Two-step verification is reset: the user signs in with their password alone and can set it up again from their account.',
  },
  no_factors: { variant: 'success', text: 'The user had no two-step verification: nothing to reset.' },
  verification_sent: { variant: 'success', text: 'A new verification link is on its way to the user’s email address.' },
  verification_failed: { variant: 'error', text: 'The mail server refused the verification mail. Nothing was changed: try again later.' },
  no_mail: { variant: 'error', text: 'This server sends no mail (SMTP_URL is not set), or the user has no email address, so no link can be sent.' },
  nothing_to_verify: { variant: 'success', text: 'The user’s email address is verified already, or there is none.' },
  invitation_sent: { variant: 'success', text: 'A new invitation is on its way to the user’s email address; the earlier link no longer works.' },
  invitation_failed: { variant: 'error', text: 'The mail server refused the invitation. Nothing was changed (an earlier link still works): try again later.' },
  not_invited: { variant: 'success', text: 'The user has chosen a password already: there is no invitation to send.' },
  app_revoked: { variant: 'success', text: 'Access revoked: the app’s tokens for this user no longer work, and it must ask for consent again.' },
  app_gone: { variant: 'error', text: 'That app no longer holds anything for this user.' },
  portal_app: { variant: 'error', text: 'The admin portal is Gatehouse’s own app: end the user’s sessions, or disable them, instead.' },
} as const;

const maybeDate = (date: Date | null) => (date ? formatDate(date) : '—');

/** An invited user who has no password yet: whether the link is out, until when, and a new one. The link itself is never shown. */
function InvitationNotice({ userId, expiresAt }: { userId: string; expiresAt: Date | null }) {
  const text =
    expiresAt === null
      ? 'Invitation not sent: the mail server refused it. They have no password and cannot sign in until they get one.'
      : expiresAt.getTime() > Date.now()
        ? `Invitation sent, not accepted yet (expires ${formatDate(expiresAt)}).`
        : `The invitation expired ${formatDate(expiresAt)} without being accepted.`;
  return (
    <Notice variant="warning">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p>{text}</p>
        <form action={resendInvitationAction.bind(null, userId)}>
          <Button type="submit" variant="secondary">
            Send the invitation again
          </Button>
        </form>
      </div>
    </Notice>
  );
}

export default async function UserPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { id, path } = await detailRoute('/admin/users', params);
  const details = await userDetails(await requireAdmin(path), id);
  if (!details) notFound();
  const { user, lockedUntil, invitation, secondFactors, self, sessions, apps, activity } = details;
  const hasFactors = secondFactors.totp || secondFactors.pending || secondFactors.passkeys.length > 0 || secondFactors.recoveryCodesLeft > 0;
  const query = await searchParams;
  const endedCount = query.notice === 'sessions_ended' ? Number(query.count) || 0 : undefined;

  return (
    <>
      <DetailHeader
        title={user.username}
        back={{ href: '/admin/users', label: 'Users' }}
        badges={
          <>
            {user.disabled ? <Badge variant="red">Disabled</Badge> : <Badge variant="green">Active</Badge>}
            {lockedUntil ? <Badge variant="amber">Locked</Badge> : null}
            {user.invited ? <Badge variant="amber">Invited</Badge> : null}
            {user.role === 'admin' ? <Badge variant="indigo">Admin</Badge> : <Badge>User</Badge>}
            {self ? <Badge variant="amber">You</Badge> : null}
          </>
        }
        actions={
          <>
            <ButtonLink variant="secondary" href={`${path}/edit`}>
              Edit profile
            </ButtonLink>
            {self ? null : (
              <>
                <form action={setRoleAction.bind(null, user.id, user.role === 'admin' ? 'user' : 'admin')}>
                  <Button type="submit" variant="secondary">
                    {user.role === 'admin' ? 'Remove admin role' : 'Make admin'}
                  </Button>
                </form>
                {user.disabled ? (
                  <form action={enableUserAction.bind(null, user.id)}>
                    <Button type="submit" variant="secondary">
                      Enable
                    </Button>
                  </form>
                ) : null}
              </>
            )}
          </>
        }
      />
      <NoticeFor notices={notices} notice={query.notice} />
      {lockedUntil ? (
        <Notice variant="warning">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p>
              <strong className="font-semibold">Locked until {formatDate(lockedUntil)}</strong> after too many wrong passwords: until then every sign-in is
              refused, the right password too.
            </p>
            <form action={unlockAction.bind(null, user.id)}>
              <Button type="submit" variant="secondary">
                Unlock
              </Button>
            </form>
          </div>
        </Notice>
      ) : null}
      {invitation !== undefined ? <InvitationNotice userId={user.id} expiresAt={invitation} /> : null}
      {endedCount !== undefined ? (
        <Notice>
          {endedCount === 0
            ? 'There was no session to end.'
            : `${endedCount === 1 ? 'One session' : `${endedCount} sessions`} ended: the user signs in again at their next visit.`}
        </Notice>
      ) : null}
      {self ? <Notice variant="warning">This is your own account: another administrator must disable it or remove its admin role.</Notice> : null}

      <DetailColumns
        main={
          <>
            <Card title="Profile">
              <Facts
                rows={{
                  Username: user.username,
                  Name: user.name ?? <span className="text-slate-500">None</span>,
                  Email: user.email ? (
                    <>
                      {user.email} {user.emailVerified ? <Badge variant="green">Verified</Badge> : <Badge>Not verified</Badge>}
                      {user.awaitingEmail ? (
                        <span className="mt-1 block">
                          <Badge variant="amber">Signed up, email not verified</Badge>{' '}
                          <span className="text-xs text-slate-500">cannot sign in until the link is used</span>
                        </span>
                      ) : null}
                      {user.emailVerified || user.invited ? null : (
                        <form action={resendVerificationAction.bind(null, user.id)} className="mt-2">
                          <Button type="submit" variant="secondary">
                            Send the verification link again
                          </Button>
                        </form>
                      )}
                    </>
                  ) : (
                    <span className="text-slate-500">None</span>
                  ),
                  'Two-step verification':
                    secondFactors.totp || secondFactors.passkeys.length ? (
                      <>
                        {secondFactors.totp ? <>Authenticator app since {maybeDate(secondFactors.since)} · </> : null}
                        {secondFactors.recoveryCodesLeft === 1 ? '1 recovery code left' : `${secondFactors.recoveryCodesLeft} recovery codes left`}
                        {secondFactors.passkeys.length ? (
                          <ul className="mt-1 list-disc pl-5" aria-label="Passkeys">
                            {secondFactors.passkeys.map((passkey) => (
                              <li key={`${passkey.name}-${passkey.createdAt.getTime()}`}>
                                Passkey “{passkey.name}”, added {maybeDate(passkey.createdAt)},{' '}
                                {passkey.lastUsedAt ? `last used ${formatDate(passkey.lastUsedAt)}` : 'not used yet'}
                              </li>
                            ))}
                          </ul>
                        ) : null}
                      </>
                    ) : (
                      <span className="text-slate-500">Off{secondFactors.pending ? ' (set-up started, not confirmed)' : ''}</span>
                    ),
                  'Subject (sub)': <code className="font-mono text-xs break-all">{user.id}</code>,
                  Created: formatDate(user.createdAt),
                  'Last changed': formatDate(user.updatedAt),
                }}
              />
            </Card>

            <Card
              title="Connected apps"
              description="Apps this user has granted access to. Revoking one ends its tokens at once; it asks for consent again next time."
            >
              <ItemList items={apps} empty="No connected apps.">
                {(app) => (
                  <li key={app.clientId} className="flex flex-wrap items-start justify-between gap-3 py-3">
                    <div className="min-w-0 text-sm">
                      <p className="font-medium text-slate-900">
                        {app.name}{' '}
                        {app.portal ? <Badge variant="amber">Admin portal</Badge> : app.firstParty ? <Badge variant="indigo">First party</Badge> : null}
                      </p>
                      <p className="text-slate-600">
                        Scopes: <span className="font-mono text-xs">{app.scopes.join(' ') || 'none'}</span>
                      </p>
                      <p className="text-xs text-slate-500">
                        Granted {maybeDate(app.grantedAt)} · Last token {maybeDate(app.lastUsedAt)}
                      </p>
                    </div>
                    {app.portal ? null : (
                      <ConfirmForm
                        action={revokeAppAction.bind(null, user.id, app.clientId)}
                        collapsed={
                          <>
                            Revoke…<span className="sr-only"> {app.name}</span>
                          </>
                        }
                        statement={
                          <>
                            Revoke what <strong>{app.name}</strong> holds for this user: its tokens stop working at once.
                          </>
                        }
                        submit={
                          <>
                            Revoke<span className="sr-only"> {app.name}</span>
                          </>
                        }
                        pendingLabel="Revoking…"
                      />
                    )}
                  </li>
                )}
              </ItemList>
            </Card>

            <Card
              title="Recent activity"
              description={
                <>
                  What this user did and what was done to them.{' '}
                  <TextLink href={`/admin/audit?target=${encodeURIComponent(user.id)}`}>All entries about them</TextLink>
                </>
              }
            >
              <ItemList items={activity} empty="Nothing recorded yet.">
                {(event) => (
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
                )}
              </ItemList>
            </Card>
          </>
        }
        side={
          <>
            <Card
              title="Password"
              description="Set a new one or let Gatehouse generate one (shown once). The old password stops working at once and every session of theirs ends."
            >
              <SetPasswordForm action={setPasswordAction.bind(null, user.id)} username={user.username} />
            </Card>

            {hasFactors ? (
              <Card
                title="Two-step verification"
                description="For a user who lost their authenticator app and recovery codes: removes the app and every recovery code, and nothing else. They sign in with their password alone until they set it up again."
              >
                <ConfirmForm
                  action={resetFactorsAction.bind(null, user.id)}
                  statement="Remove their authenticator app, passkeys and recovery codes."
                  submit="Reset two-step verification"
                  pendingLabel="Resetting…"
                />
              </Card>
            ) : null}

            <Card title="Sessions" description="Where this user is signed in to Gatehouse.">
              <ItemList items={sessions} empty="No active sessions." className="mb-4">
                {(session) => (
                  <li key={session.uid} className="py-3 text-sm">
                    <p className="font-medium text-slate-900">{session.browser ?? 'Unknown browser'}</p>
                    <p className="text-slate-700">
                      <SignedInFrom when={maybeDate(session.signedInAt)} ip={session.ip} />
                    </p>
                    <p className="text-xs text-slate-500">
                      Last active {maybeDate(session.lastActiveAt)} · ends {maybeDate(session.expiresAt)}
                    </p>
                    {session.apps.length ? <p className="text-xs text-slate-600">Apps: {session.apps.join(', ')}</p> : null}
                  </li>
                )}
              </ItemList>
              {sessions.length ? (
                <ConfirmForm
                  action={endSessionsAction.bind(null, user.id)}
                  statement={
                    <>
                      End all {sessions.length === 1 ? 'one session' : `${sessions.length} sessions`} of <strong>{user.username}</strong>: they sign in again at
                      their next visit.
                    </>
                  }
                  submit="End all sessions"
                  pendingLabel="Ending…"
                />
              ) : null}
            </Card>

            {self || user.disabled ? null : (
              <Card title="Disable user" variant="danger" description="They cannot sign in until enabled again; their account stays.">
                <ConfirmForm
                  action={disableUserAction.bind(null, user.id)}
                  statement={
                    <>
                      Disable <strong>{user.username}</strong>: their sessions end and every token and grant they hold is revoked.
                    </>
                  }
                  submit="Disable user"
                  pendingLabel="Disabling…"
                />
              </Card>
            )}
          </>
        }
      />
    </>
  );
}
