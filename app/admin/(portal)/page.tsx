// /admin: the portal's front door; clients are where an admin starts.
import { redirect } from 'next/navigation';
import { requireAdmin } from '@/lib/surfaces/portal/session';

export const dynamic = 'force-dynamic';

export default async function AdminHome() {
  await requireAdmin('/admin');
  redirect('/admin/clients');
}
