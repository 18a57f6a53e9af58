// /account: the person's profile (name, email), for every signed-in user whatever their role.
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import type { ReactNode } from 'react';
import { ProfileForm } from '@/components/account/profile-form';
import { Card, PageHeader } from '@/components/ui/card';
import { Badge } from '@/components/ui/notice';
import { brand } from '@/lib/config/brand';
import { ownAccess, profileFormValues } from '@/lib/surfaces/account/pages';
import { VERIFICATION_LINK_HOURS } from '@/lib/mail-links/email-verification';
import { requireUser } from '@/lib/surfaces/portal/session';
import { updateProfileAction } from '../actions';
import { saveOwnClaimsAction } from '../claims-actions';
import { AccessForm } from '@/components/admin/access-form';
import { ClaimsFields } from '@/components/claims/claims-fields';
import { NoticeFor } from '@/components/ui/notice';
import { ownClaims } from '@/lib/surfaces/account/claims';

export const dynamic = 'force-dynamic';

export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('account.profile'))('title') };
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="py-3">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="mt-1 text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

export default async function ProfilePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requireUser('/account');
  const t = await getTranslations('account.profile');
  const roleNames = await getTranslations('admin.user.roles');
  const product = brand().name;
  const access = await ownAccess(user);
  const claims = await ownClaims(user);
  const { notice } = await searchParams;
  const ui = await getTranslations('claims');
  return (
    <>
      <PageHeader title={t('title')} description={t('description', { product })} />
      <NoticeFor notices={{ claims_saved: { variant: 'success', text: t('notices.claims_saved') } }} notice={notice} />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title={t('details')}>
            <ProfileForm action={updateProfileAction} initial={profileFormValues(user)} product={product} linkHours={VERIFICATION_LINK_HOURS} />
          </Card>
          <Card title={t('claims')} description={t('claimsDescription')}>
            <AccessForm action={saveOwnClaimsAction} submit={ui('save')} pendingLabel={ui('saving')} variant="primary">
              <ClaimsFields
                idPrefix="own-claims"
                admin={false}
                profile={claims.profile}
                attributes={claims.attributes.map((a) => ({ key: a.key, name: a.name, type: a.type, value: a.value }))}
              />
            </AccessForm>
          </Card>
        </div>
        <Card title={t('signIn')}>
          <dl className="divide-y divide-slate-100">
            <Row label={t('username')}>
              <span className="font-mono">{user.username}</span>
              <span className="mt-1 block text-slate-500">{t('usernameNote')}</span>
            </Row>
            <Row label={t('role')}>{user.role === 'user' ? <Badge>{t('user')}</Badge> : <Badge variant="indigo">{roleNames(user.role)}</Badge>}</Row>
            {/* Shown once an admin has put the person in a group or given them a role; only an admin changes them. */}
            {access.groups.length ? (
              <Row label={t('groups')}>
                <span className="flex flex-wrap gap-1">
                  {access.groups.map((group) => (
                    <Badge key={group}>{group}</Badge>
                  ))}
                </span>
              </Row>
            ) : null}
            {access.roles.length ? (
              <Row label={t('roles')}>
                <span className="flex flex-wrap gap-1">
                  {access.roles.map((role) => (
                    <Badge key={role}>{role}</Badge>
                  ))}
                </span>
                <span className="mt-1 block text-slate-500">{t('accessNote')}</span>
              </Row>
            ) : null}
          </dl>
        </Card>
      </div>
    </>
  );
}
