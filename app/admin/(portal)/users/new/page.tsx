// /admin/users/new: create a user; a generated password is shown once, in the answer to the form.
import type { Metadata } from 'next';
import { Card, PageHeader } from '@/components/admin/ui';
import { NewUserForm } from '@/components/admin/user-form';
import { requireAdmin } from '@/lib/services/portal/session';
import { newUserFormValues } from '@/lib/services/portal/user-form';
import { createUserAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Create a user' };

export default async function NewUserPage() {
  await requireAdmin('/admin/users/new');
  return (
    <>
      <PageHeader title="Create a user" back={{ href: '/admin/users', label: 'Users' }} description="Someone who signs in to apps with Gatehouse." />
      <div className="max-w-2xl">
        <Card>
          <NewUserForm action={createUserAction} initial={newUserFormValues()} />
        </Card>
      </div>
    </>
  );
}
