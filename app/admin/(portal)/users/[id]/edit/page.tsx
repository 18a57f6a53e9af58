// /admin/users/:id/edit: change a user's name and email (not their username).
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { Card, PageHeader } from '@/components/admin/ui';
import { ProfileForm } from '@/components/admin/user-form';
import { requireAdmin } from '@/lib/services/portal/session';
import { profileFormValues } from '@/lib/services/portal/user-form';
import { userDetails } from '@/lib/services/portal/users';
import { updateProfileAction } from '../../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Edit user' };

export default async function EditUserPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const path = `/admin/users/${encodeURIComponent(id)}`;
  const admin = await requireAdmin(`${path}/edit`);
  const details = await userDetails(admin, id);
  if (!details) notFound();
  return (
    <>
      <PageHeader title={`Edit ${details.user.username}`} back={{ href: path, label: details.user.username }} />
      <div className="max-w-2xl">
        <Card>
          <ProfileForm action={updateProfileAction.bind(null, id)} initial={profileFormValues(details.user)} cancelHref={path} />
        </Card>
      </div>
    </>
  );
}
