// /admin/users: not built yet (issue 3); the CLI manages users meanwhile.
import type { Metadata } from 'next';
import { Card, PageHeader } from '@/components/admin/ui';
import { requireAdmin } from '@/lib/services/portal/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage() {
  await requireAdmin('/admin/users');
  return (
    <>
      <PageHeader title="Users" description="Create, edit and disable people, reset passwords, manage the admin role." />
      <Card title="Coming soon">
        <p className="text-sm text-slate-600">
          User management in the portal is not built yet. Meanwhile, use the CLI:{' '}
          <code className="rounded bg-slate-100 px-1 py-0.5">npm run gatehouse -- user --help</code>
        </p>
      </Card>
    </>
  );
}
