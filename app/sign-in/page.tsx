// /sign-in: next-auth's pages.signIn and pages.error. With an error, a card in the words of the area the
// browser came from and a way to try again; without one, straight on to that area's sign-in route.
import type { Metadata } from 'next';
import { cookies } from 'next/headers';
import { getTranslations } from 'next-intl/server';
import { redirect } from 'next/navigation';
import { SignInCard } from '@/components/portal/sign-in';
import { env } from '@/lib/config/env';
import { portalCookieNames } from '@/lib/surfaces/portal/auth';
import { isAccountPath, safeReturnTo, signInPathFor } from '@/lib/surfaces/portal/return-to';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('portal.signIn'))('title') };
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  // next-auth's error redirect may leave out the callbackUrl: its own cookie still has it.
  const asked = params.callbackUrl ?? (await cookies()).get(portalCookieNames().callbackUrl)?.value;
  const callbackUrl = safeReturnTo(asked, env().ISSUER);
  if (typeof params.error !== 'string') redirect(signInPathFor(callbackUrl));
  return <SignInCard account={isAccountPath(callbackUrl)} error={params.error} retry={signInPathFor(callbackUrl)} />;
}
