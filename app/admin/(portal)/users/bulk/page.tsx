// /admin/users/bulk: confirm a bulk action chosen on the list (a GET: reading it changes nothing).
import type { Metadata } from 'next';
import { BulkPage, bulkTitle } from '../../bulk-page';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: await bulkTitle('users') };
}

export default function Page({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  return <BulkPage area="users" searchParams={searchParams} />;
}
