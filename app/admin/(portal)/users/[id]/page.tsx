// /admin/users/:id: one user's profile, role and state (an invitation not accepted yet, with Send again; a lock after failed password checks, with Unlock), two-step verification (with Reset), password, sessions, connected apps and recent activity.
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { ActionBadge, Actor, Target } from '@/components/admin/audit';
import { SetPasswordForm } from '@/components/admin/user-actions';
import { ConfirmForm } from '@/components/portal/confirm';
import { SignedInFrom } from '@/components/portal/session-origin';
import { Button, ButtonLink, TextLink } from '@/components/ui/button';
import { DetailColumns, DetailHeader, detailRoute, Facts, ItemList } from '@/components/portal/detail';
import { Card } from '@/components/ui/card';
import { Badge, Notice, NoticeFor } from '@/components/ui/notice';
import { exactTimes } from '@/components/portal/when';
import { identitiesFor } from '@/lib/surfaces/portal/connections';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { userDetails } from '@/lib/surfaces/portal/users';
import {
  endSessionsAction,
  resendInvitationAction,
  resendVerificationAction,
  resetFactorsAction,
  revokeAppAction,
  setPasswordAction,
  deleteUserAction,
  disableUserAction,
  enableUserAction,
  unlockAction,
  setRoleAction,
  unlinkIdentityAction,
} from '../actions';
import { RoleForm } from '@/components/admin/role-form';
import { PersonAccess } from '@/components/admin/person-access';
import { AccessForm } from '@/components/admin/access-form';
import { ClaimsFields } from '@/components/claims/claims-fields';
import { claimsOf } from '@/lib/surfaces/portal/claims';
import { savePersonClaimsAction } from '../../access/attributes/actions';
import { may } from '@/lib/admin-roles/roles';
import { personAccess } from '@/lib/surfaces/portal/authorization';
import { giveRoleAction, joinGroupAction, leaveGroupAction, takeRoleAction } from '../../access/actions';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.user'))('title') };
}

/** What the page says after one of its actions (`?notice=`), each in the catalogs' admin.user.notices. */
const noticeVariants = {
  saved: 'success',
  saved_verification_sent: 'success',
  saved_verification_failed: 'error',
  enabled: 'success',
  disabled: 'success',
  role_changed: 'success',
  role_refused: 'error',
  delete_refused: 'error',
  self: 'error',
  unlocked: 'success',
  not_locked: 'success',
  factors_reset: 'success',
  no_factors: 'success',
  verification_sent: 'success',
  verification_failed: 'error',
  no_mail: 'error',
  nothing_to_verify: 'success',
  invitation_sent: 'success',
  invitation_failed: 'error',
  not_invited: 'success',
  app_revoked: 'success',
  app_gone: 'error',
  portal_app: 'error',
  identity_unlinked: 'success',
  identity_last: 'error',
  identity_gone: 'error',
  access_saved: 'success',
  claims_saved: 'success',
} as const;

const strong = (chunks: ReactNode) => <strong>{chunks}</strong>;

/** An invited user who has no password yet: whether the link is out, until when, and a new one. The link itself is never shown. */
async function InvitationNotice({ userId, expiresAt }: { userId: string; expiresAt: Date | null }) {
  const t = await getTranslations('admin.user');
  const exact = await exactTimes();
  const text =
    expiresAt === null
      ? t('invitationNotSent')
      : expiresAt.getTime() > Date.now()
        ? t('invitationPending', { date: exact(expiresAt) })
        : t('invitationExpired', { date: exact(expiresAt) });
  return (
    <Notice variant="warning">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p>{text}</p>
        <form action={resendInvitationAction.bind(null, userId)}>
          <Button type="submit" variant="secondary">
            {t('resendInvitation')}
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
  const admin = await requireAdmin('users.read', path);
  const details = await userDetails(admin, id);
  if (!details) notFound();
  const identities = await identitiesFor(admin, details.user.id);
  // Groups and roles (lib/authorization): read with access.read, changed with access.manage.
  const access = may(admin.role, 'access.read') ? await personAccess(details.user.id) : undefined;
  const manageAccess = may(admin.role, 'access.manage');
  // The profile claims and custom attributes apps get (lib/users/profile-claims.ts, lib/claims): changed with users.manage.
  const claims = await claimsOf(details.user.id);
  const claimLabels = await getTranslations('claims');
  const { user, lockedUntil, invitation, secondFactors, self, can, sessions, apps, activity } = details;
  const hasFactors = secondFactors.totp || secondFactors.pending || secondFactors.passkeys.length > 0 || secondFactors.recoveryCodesLeft > 0;
  const query = await searchParams;
  const endedCount = query.notice === 'sessions_ended' ? Number(query.count) || 0 : undefined;
  const t = await getTranslations('admin.user');
  const exact = await exactTimes();
  const maybeDate = (date: Date | null) => (date ? exact(date) : '—');
  const list = await getTranslations('admin.users');
  const notices = Object.fromEntries(
    Object.entries(noticeVariants).map(([notice, variant]) => [notice, { variant, text: t(`notices.${notice as keyof typeof noticeVariants}`) }]),
  );
  const none = <span className="text-slate-500">{t('none')}</span>;

  return (
    <>
      <DetailHeader
        title={user.username}
        back={{ href: '/admin/users', label: list('title') }}
        badges={
          <>
            {user.disabled ? <Badge variant="red">{list('disabled')}</Badge> : <Badge variant="green">{list('active')}</Badge>}
            {lockedUntil ? <Badge variant="amber">{t('locked')}</Badge> : null}
            {user.invited ? <Badge variant="amber">{list('invited')}</Badge> : null}
            {user.role === 'user' ? <Badge>{t('user')}</Badge> : <Badge variant="indigo">{t(`roles.${user.role}`)}</Badge>}
            {self ? <Badge variant="amber">{list('you')}</Badge> : null}
          </>
        }
        actions={
          <>
            {can.manage ? (
              <ButtonLink variant="secondary" href={`${path}/edit`}>
                {t('editProfile')}
              </ButtonLink>
            ) : null}
            {self || !can.manage || !user.disabled ? null : (
              <form action={enableUserAction.bind(null, user.id)}>
                <Button type="submit" variant="secondary">
                  {t('enable')}
                </Button>
              </form>
            )}
          </>
        }
      />
      <NoticeFor notices={notices} notice={query.notice} />
      {lockedUntil ? (
        <Notice variant="warning">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p>{t.rich('lockedUntil', { date: exact(lockedUntil), strong: (chunks) => <strong className="font-semibold">{chunks}</strong> })}</p>
            {can.unlock ? (
              <form action={unlockAction.bind(null, user.id)}>
                <Button type="submit" variant="secondary">
                  {t('unlock')}
                </Button>
              </form>
            ) : null}
          </div>
        </Notice>
      ) : null}
      {invitation !== undefined && can.invite ? <InvitationNotice userId={user.id} expiresAt={invitation} /> : null}
      {endedCount !== undefined ? <Notice>{t('sessionsEnded', { count: endedCount })}</Notice> : null}
      {self ? <Notice variant="warning">{t('selfNotice')}</Notice> : null}

      <DetailColumns
        main={
          <>
            <Card title={t('profile')}>
              <Facts
                rows={{
                  [t('username')]: user.username,
                  [t('name')]: user.name ?? none,
                  [t('email')]: user.email ? (
                    <>
                      {user.email} {user.emailVerified ? <Badge variant="green">{t('verified')}</Badge> : <Badge>{t('notVerified')}</Badge>}
                      {user.awaitingEmail ? (
                        <span className="mt-1 block">
                          <Badge variant="amber">{list('awaitingEmail')}</Badge> <span className="text-xs text-slate-500">{t('awaitingEmailHint')}</span>
                        </span>
                      ) : null}
                      {user.emailVerified || user.invited || !can.invite ? null : (
                        <form action={resendVerificationAction.bind(null, user.id)} className="mt-2">
                          <Button type="submit" variant="secondary">
                            {t('resendVerification')}
                          </Button>
                        </form>
                      )}
                    </>
                  ) : (
                    none
                  ),
                  [t('twoStep')]:
                    secondFactors.totp || secondFactors.passkeys.length ? (
                      <>
                        {secondFactors.totp ? t('authenticatorSince', { date: maybeDate(secondFactors.since) }) : null}
                        {t('recoveryCodesLeft', { count: secondFactors.recoveryCodesLeft })}
                        {secondFactors.passkeys.length ? (
                          <ul className="mt-1 list-disc pl-5" aria-label={t('passkeys')}>
                            {secondFactors.passkeys.map((passkey) => (
                              <li key={`${passkey.name}-${passkey.createdAt.getTime()}`}>
                                {t('passkey', {
                                  name: passkey.name,
                                  added: maybeDate(passkey.createdAt),
                                  used: passkey.lastUsedAt ? t('passkeyLastUsed', { date: exact(passkey.lastUsedAt) }) : t('passkeyUnused'),
                                })}
                              </li>
                            ))}
                          </ul>
                        ) : null}
                      </>
                    ) : (
                      <span className="text-slate-500">{secondFactors.pending ? t('twoStepPending') : t('twoStepOff')}</span>
                    ),
                  [t('subject')]: <code className="font-mono text-xs break-all">{user.id}</code>,
                  [t('created')]: exact(user.createdAt),
                  [t('lastChanged')]: exact(user.updatedAt),
                }}
              />
            </Card>

            <Card title={t('claims')} description={t('claimsDescription')}>
              {can.manage ? (
                <AccessForm action={savePersonClaimsAction.bind(null, user.id)} submit={t('saveClaims')} pendingLabel={t('savingClaims')}>
                  <ClaimsFields
                    idPrefix="claims"
                    admin
                    profile={claims.profile}
                    attributes={claims.attributes.map((a) => ({ key: a.key, name: a.name, type: a.type, value: claims.values[a.key] }))}
                  />
                </AccessForm>
              ) : (
                <Facts
                  rows={Object.fromEntries([
                    ...(['givenName', 'familyName', 'picture', 'locale', 'zoneinfo', 'phoneNumber'] as const).map((field) => [
                      claimLabels(field),
                      claims.profile[field] ?? none,
                    ]),
                    ...claims.attributes.map((a) => [a.name, claims.values[a.key] === undefined ? none : String(claims.values[a.key])]),
                  ])}
                />
              )}
            </Card>

            <Card title={t('apps')} description={t('appsDescription')}>
              <ItemList items={apps} empty={t('noApps')}>
                {(app) => (
                  <li key={app.clientId} className="flex flex-wrap items-start justify-between gap-3 py-3">
                    <div className="min-w-0 text-sm">
                      <p className="font-medium text-slate-900">
                        {app.name}{' '}
                        {app.portal ? (
                          <Badge variant="amber">{t('adminPortal')}</Badge>
                        ) : app.firstParty ? (
                          <Badge variant="indigo">{t('firstParty')}</Badge>
                        ) : null}
                      </p>
                      <p className="text-slate-600">
                        {t.rich('appScopes', {
                          scopes: app.scopes.join(' ') || t('noScopes'),
                          mono: (chunks) => <span className="font-mono text-xs">{chunks}</span>,
                        })}
                      </p>
                      <p className="text-xs text-slate-500">{t('appUse', { granted: maybeDate(app.grantedAt), used: maybeDate(app.lastUsedAt) })}</p>
                    </div>
                    {app.portal || !can.manage ? null : (
                      <ConfirmForm
                        action={revokeAppAction.bind(null, user.id, app.clientId)}
                        collapsed={
                          <>
                            {t('revokeOpen')}
                            <span className="sr-only"> {app.name}</span>
                          </>
                        }
                        statement={t.rich('revokeStatement', { app: app.name, strong })}
                        submit={
                          <>
                            {t('revokeSubmit')}
                            <span className="sr-only"> {app.name}</span>
                          </>
                        }
                        pendingLabel={t('revokePending')}
                      />
                    )}
                  </li>
                )}
              </ItemList>
            </Card>

            <Card
              title={t('activity')}
              description={t.rich('activityDescription', {
                link: (chunks) => <TextLink href={`/admin/audit?target=${encodeURIComponent(user.id)}`}>{chunks}</TextLink>,
              })}
            >
              <ItemList items={activity} empty={t('noActivity')}>
                {(event) => (
                  <li key={event.id} className="grid gap-2 py-3 text-sm sm:grid-cols-3">
                    <ActionBadge action={event.action} />
                    <div className="text-slate-700">
                      <span className="block text-xs text-slate-500">{t('by')}</span>
                      <Actor actor={event.actor} ip={event.ip} />
                    </div>
                    <div className="text-slate-700">
                      <Target target={event.target} />
                      <span className="block text-xs text-slate-500">
                        {exact(event.at)}
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
            {can.roles.length > 1 ? (
              <Card title={t('adminRole')}>
                <RoleForm
                  action={setRoleAction.bind(null, user.id)}
                  current={user.role}
                  roles={can.roles.map((role) => ({ value: role, label: role === 'user' ? t('noAdminRole') : t(`roles.${role}`) }))}
                  label={t('adminRole')}
                  statement={t.rich('roleStatement', { username: user.username, strong })}
                  submit={t('changeRole')}
                  pendingLabel={t('changeRolePending')}
                />
              </Card>
            ) : null}

            {access ? (
              <Card title={t('access')} description={t('accessDescription')}>
                <PersonAccess
                  {...access}
                  labels={{
                    groups: t('accessGroups'),
                    roles: t('accessRoles'),
                    none: t('none'),
                    remove: t('accessRemove'),
                    saving: t('accessSaving'),
                    join: t('accessJoin'),
                    give: t('accessGive'),
                    group: t('accessGroup'),
                    role: t('accessRole'),
                  }}
                  actions={
                    manageAccess
                      ? {
                          join: joinGroupAction.bind(null, user.id),
                          leave: (group) => leaveGroupAction.bind(null, user.id, group),
                          give: giveRoleAction.bind(null, user.id),
                          take: (role) => takeRoleAction.bind(null, user.id, role),
                        }
                      : undefined
                  }
                />
              </Card>
            ) : null}

            {can.manage ? (
              <Card title={t('password')} description={t('passwordDescription')}>
                <SetPasswordForm action={setPasswordAction.bind(null, user.id)} username={user.username} />
              </Card>
            ) : null}

            {hasFactors && can.resetFactors ? (
              <Card title={t('resetTitle')} description={t('resetDescription')}>
                <ConfirmForm
                  action={resetFactorsAction.bind(null, user.id)}
                  statement={t('resetStatement')}
                  submit={t('resetSubmit')}
                  pendingLabel={t('resetPending')}
                />
              </Card>
            ) : null}

            {identities.length ? (
              <Card title={t('identities')} description={t('identitiesDescription')}>
                <ItemList items={identities} empty="">
                  {(identity) => (
                    <li key={identity.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
                      <div className="min-w-0 text-sm">
                        <p className="font-medium text-slate-900">{identity.connectionName}</p>
                        {identity.email ? <p className="break-all text-slate-600">{identity.email}</p> : null}
                        <p className="text-xs text-slate-600">
                          {t('identityUse', { linked: exact(identity.createdAt), used: maybeDate(identity.lastUsedAt) })}
                        </p>
                      </div>
                      {can.manage ? (
                        <ConfirmForm
                          action={unlinkIdentityAction.bind(null, user.id, identity.id)}
                          collapsed={
                            <>
                              {t('unlinkOpen')}
                              <span className="sr-only"> {identity.connectionName}</span>
                            </>
                          }
                          statement={t.rich('unlinkStatement', { provider: identity.connectionName, strong })}
                          submit={
                            <>
                              {t('unlinkSubmit')}
                              <span className="sr-only"> {identity.connectionName}</span>
                            </>
                          }
                          pendingLabel={t('unlinkPending')}
                        />
                      ) : null}
                    </li>
                  )}
                </ItemList>
              </Card>
            ) : null}

            <Card title={t('sessions')} description={t('sessionsDescription')}>
              <ItemList items={sessions} empty={t('noSessions')} className="mb-4">
                {(session) => (
                  <li key={session.uid} className="py-3 text-sm">
                    <p className="font-medium text-slate-900">{session.browser ?? t('unknownBrowser')}</p>
                    <p className="text-slate-700">
                      <SignedInFrom when={maybeDate(session.signedInAt)} ip={session.ip} />
                    </p>
                    <p className="text-xs text-slate-500">
                      {t('sessionTimes', { active: maybeDate(session.lastActiveAt), ends: maybeDate(session.expiresAt) })}
                    </p>
                    {session.apps.length ? <p className="text-xs text-slate-600">{t('sessionApps', { apps: session.apps.join(', ') })}</p> : null}
                  </li>
                )}
              </ItemList>
              {sessions.length && can.manage ? (
                <ConfirmForm
                  action={endSessionsAction.bind(null, user.id)}
                  statement={t.rich('endStatement', { count: sessions.length, username: user.username, strong })}
                  submit={t('endSubmit')}
                  pendingLabel={t('endPending')}
                />
              ) : null}
            </Card>

            {self || user.disabled || !can.manage ? null : (
              <Card title={t('disableTitle')} variant="danger" description={t('disableDescription')}>
                <ConfirmForm
                  action={disableUserAction.bind(null, user.id)}
                  statement={t.rich('disableStatement', { username: user.username, strong })}
                  submit={t('disableSubmit')}
                  pendingLabel={t('disablePending')}
                />
              </Card>
            )}

            {self || !can.manage ? null : (
              <Card title={t('deleteTitle')} variant="danger" description={t('deleteDescription')}>
                <ConfirmForm
                  action={deleteUserAction.bind(null, user.id)}
                  statement={t.rich('deleteStatement', { username: user.username, strong })}
                  submit={t('deleteSubmit')}
                  pendingLabel={t('deletePending')}
                />
              </Card>
            )}
          </>
        }
      />
    </>
  );
}
