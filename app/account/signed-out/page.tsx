// Where RP-initiated logout returns to after signing out from /account (a post_logout_redirect_uri of the portal client).
import type { Metadata } from 'next';
import Link from 'next/link';
import { AuthCard } from '@/components/card';

export const metadata: Metadata = { title: 'Signed out' };

export default function AccountSignedOutPage() {
  return (
    <AuthCard title="You are signed out" subtitle="You have left your account page and ended your Gatehouse session in this browser.">
      <Link
        href="/account"
        className="block w-full rounded-lg border border-indigo-600 bg-indigo-600 px-4 py-2 text-center text-sm font-semibold text-white hover:bg-indigo-500 focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-indigo-300"
      >
        Sign in again
      </Link>
    </AuthCard>
  );
}
