// /admin/sign-in, where the portal's sign-in page was: bookmarks and old links go on to /sign-in with their query.
import { redirect } from 'next/navigation';

export const dynamic = 'force-dynamic';

export default async function OldSignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(await searchParams)) for (const one of [value ?? []].flat()) query.append(key, one);
  redirect(`/sign-in${query.size ? `?${query}` : ''}`);
}
