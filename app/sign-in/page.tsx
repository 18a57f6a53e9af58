// /sign-in: the portal's sign-in page, for the admin area and /account alike (one client, one session),
// next-auth's pages.signIn and pages.error. A signed-in visitor goes straight back to where they were going.
import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { SignInCard } from '@/components/portal/sign-in';
import { isAccountPath } from '@/lib/services/portal/return-to';
import { currentAdmin, currentUser, signInView } from '@/lib/services/portal/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Admin sign-in' };

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const view = await signInView({ callbackUrl: params.callbackUrl, via: params.via });
  if (view.kind === 'restart') redirect(view.location);
  const account = isAccountPath(view.callbackUrl);
  if (view.kind === 'form' && (account ? await currentUser() : await currentAdmin())) redirect(view.callbackUrl);
  return <SignInCard account={account} error={params.error} view={view} />;
}
