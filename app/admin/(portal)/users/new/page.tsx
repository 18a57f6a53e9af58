// /admin/users/new: create a user with a password (a generated one is shown once, in the answer to the form) or an invitation.
import { may } from '@/lib/admin-roles/roles';
import type { Metadata } from 'next';
import { getTranslations } from 'next-intl/server';
import { NewUserForm } from '@/components/admin/user-form';
import { FormPage } from '@/components/portal/detail';
import { INVITATION_LINK_DAYS } from '@/lib/users/invitations';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { newUserFormValues } from '@/lib/surfaces/portal/user-fields';
import { canInvite } from '@/lib/surfaces/portal/users';
import { createUserAction } from '../actions';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.users'))('create') };
}

export default async function NewUserPage() {
  const admin = await requireAdmin('users.manage', '/admin/users/new');
  const list = await getTranslations('admin.users');
  return (
    <FormPage
      title={list('create')}
      back={{ href: '/admin/users', label: list('title') }}
      description={(await getTranslations('admin.userForm'))('createDescription')}
    >
      <NewUserForm
        action={createUserAction}
        initial={newUserFormValues()}
        invite={{ available: canInvite(), validDays: INVITATION_LINK_DAYS }}
        canGiveAdmin={may(admin.role, 'users.assign_role')}
      />
    </FormPage>
  );
}
