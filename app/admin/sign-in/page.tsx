// The portal's sign-in page, for the admin area and /account alike (one client, one session): one button that
// starts next-auth's authorization code flow against Gatehouse.
import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { AuthCard } from '@/components/card';
import { Alert, Button } from '@/components/form';
import { isAccountPath } from '@/lib/services/portal/return-to';
import { currentAdmin, currentUser, signInView } from '@/lib/services/portal/session';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Admin sign-in' };

/** next-auth's error codes (https://next-auth.js.org/configuration/pages#sign-in-page), in plain words. */
const messages: Record<string, string> = {
  OAuthSignin: 'Gatehouse could not start the sign-in. Try again.',
  OAuthCallback: 'The sign-in did not complete. Try again.',
  Callback: 'The sign-in did not complete. Try again.',
  AccessDenied: 'The sign-in was cancelled.',
  SessionRequired: 'Sign in to continue.',
  Configuration: 'The admin portal is not configured correctly. See the server log.',
};

export default async function AdminSignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const view = await signInView({ callbackUrl: params.callbackUrl, via: params.via });
  if (view.kind === 'restart') redirect(view.location);
  const account = isAccountPath(view.callbackUrl);
  if (view.kind === 'form' && (account ? await currentUser() : await currentAdmin())) redirect(view.callbackUrl);
  const error = typeof params.error === 'string' ? (messages[params.error] ?? 'The sign-in did not complete. Try again.') : undefined;

  return (
    <AuthCard
      title={account ? 'Your Gatehouse account' : 'Gatehouse admin'}
      subtitle={
        account
          ? 'Sign in to see and change your profile, password, connected apps and sessions.'
          : 'Sign in with your Gatehouse account to manage applications and users.'
      }
    >
      {error ? <Alert>{error}</Alert> : null}
      {view.kind === 'cookies_blocked' ? (
        <Alert>Your browser did not keep the sign-in cookie. Allow cookies for this site, then reload the page.</Alert>
      ) : (
        <form method="post" action="/api/auth/signin/gatehouse">
          <input type="hidden" name="csrfToken" value={view.csrfToken} />
          <input type="hidden" name="callbackUrl" value={view.callbackUrl} />
          <Button type="submit" autoFocus>
            Sign in with Gatehouse
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
