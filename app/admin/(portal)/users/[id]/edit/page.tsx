// /admin/users/:id/edit: change a user's name and email (not their username).
import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { ProfileForm } from '@/components/admin/user-form';
import { detailRoute, FormPage } from '@/components/portal/detail';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { profileFormValues } from '@/lib/surfaces/portal/user-fields';
import { userDetails } from '@/lib/surfaces/portal/users';
import { updateProfileAction } from '../../actions';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.userForm'))('editPageTitle') };
}

export default async function EditUserPage({ params }: { params: Promise<{ id: string }> }) {
  const { id, path } = await detailRoute('/admin/users', params);
  const admin = await requireAdmin('users.manage', `${path}/edit`, { userId: id });
  const details = await userDetails(admin, id);
  if (!details) notFound();
  const { username } = details.user;
  return (
    <FormPage title={(await getTranslations('admin.userForm'))('editTitle', { username })} back={{ href: path, label: username }}>
      <ProfileForm action={updateProfileAction.bind(null, id)} initial={profileFormValues(details.user)} cancelHref={path} />
    </FormPage>
  );
}
