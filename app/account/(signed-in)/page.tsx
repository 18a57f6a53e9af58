// /account: the person's profile (name, email), for every signed-in user whatever their role.
import { brand } from '@/lib/config/brand';
import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import { ProfileForm } from '@/components/account/profile-form';
import { Card, PageHeader } from '@/components/ui/card';
import { Badge } from '@/components/ui/notice';
import { profileFormValues } from '@/lib/services/account/pages';
import { requireUser } from '@/lib/services/portal/session';
import { updateProfileAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Profile' };

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="py-3">
      <dt className="text-sm font-medium text-slate-500">{label}</dt>
      <dd className="mt-1 text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

export default async function ProfilePage() {
  const user = await requireUser('/account');
  return (
    <>
      <PageHeader title="Profile" description={`Your name and email address, as the apps you sign in to with ${brand().name} see them.`} />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="lg:col-span-2">
          <Card title="Your details">
            <ProfileForm action={updateProfileAction} initial={profileFormValues(user)} />
          </Card>
        </div>
        <Card title="Sign-in">
          <dl className="divide-y divide-slate-100">
            <Row label="Username">
              <span className="font-mono">{user.username}</span>
              <span className="mt-1 block text-slate-500">You sign in with it; only an administrator can change it.</span>
            </Row>
            <Row label="Role">{user.role === 'admin' ? <Badge variant="indigo">Administrator</Badge> : <Badge>User</Badge>}</Row>
          </dl>
        </Card>
      </div>
    </>
  );
}
