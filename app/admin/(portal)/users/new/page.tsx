// /admin/users/new: create a user; a generated password is shown once, in the answer to the form.
import type { Metadata } from 'next';
import { NewUserForm } from '@/components/admin/user-form';
import { FormPage } from '@/components/portal/detail';
import { requireAdmin } from '@/lib/services/portal/session';
import { newUserFormValues } from '@/lib/services/portal/user-form';
import { createUserAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Create a user' };

export default async function NewUserPage() {
  await requireAdmin('/admin/users/new');
  return (
    <FormPage title="Create a user" back={{ href: '/admin/users', label: 'Users' }} description="Someone who signs in to apps with Gatehouse.">
      <NewUserForm action={createUserAction} initial={newUserFormValues()} />
    </FormPage>
  );
}
