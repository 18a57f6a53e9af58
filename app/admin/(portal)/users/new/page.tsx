// /admin/users/new: create a user with a password (a generated one is shown once, in the answer to the form) or an invitation.
import type { Metadata } from 'next';
import { NewUserForm } from '@/components/admin/user-form';
import { FormPage } from '@/components/portal/detail';
import { INVITATION_LINK_DAYS } from '@/lib/services/invitations';
import { requireAdmin } from '@/lib/services/portal/session';
import { newUserFormValues } from '@/lib/services/portal/user-form';
import { canInvite } from '@/lib/services/portal/users';
import { createUserAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Create a user' };

export default async function NewUserPage() {
  await requireAdmin('/admin/users/new');
  return (
    <FormPage title="Create a user" back={{ href: '/admin/users', label: 'Users' }} description="Someone who signs in to apps with Gatehouse.">
      <NewUserForm action={createUserAction} initial={newUserFormValues()} invite={{ available: canInvite(), validDays: INVITATION_LINK_DAYS }} />
    </FormPage>
  );
}
