// /admin: the portal's front door; clients are where an admin starts, users where a user manager does.
import { redirect } from 'next/navigation';
import { may } from '@/lib/admin-roles/roles';
import { requireAdmin } from '@/lib/surfaces/portal/session';

export const dynamic = 'force-dynamic';

export default async function AdminHome() {
  const admin = await requireAdmin('users.read', '/admin');
  redirect(may(admin.role, 'clients.read') ? '/admin/clients' : '/admin/users');
}
