/**
 * The portal's sign-in card, worded for the area the browser came from: next-auth's error (if any) in plain
 * words, then one button that posts next-auth's CSRF token to start the authorization code flow against Gatehouse.
 */
import { brand } from '@/lib/config/brand';
import { Button } from '../ui/button';
import { AuthCard } from '../ui/card';
import { Notice } from '../ui/notice';

/** next-auth's error codes (https://next-auth.js.org/configuration/pages#sign-in-page), in plain words. */
const messages = (product: string): Record<string, string> => ({
  OAuthSignin: `${product} could not start the sign-in. Try again.`,
  OAuthCallback: 'The sign-in did not complete. Try again.',
  Callback: 'The sign-in did not complete. Try again.',
  AccessDenied: 'The sign-in was cancelled.',
  SessionRequired: 'Sign in to continue.',
  Configuration: 'The admin portal is not configured correctly. See the server log.',
});

export function SignInCard({
  account,
  error,
  view,
}: {
  account: boolean;
  error: unknown;
  view: { kind: 'form'; csrfToken: string; callbackUrl: string } | { kind: 'cookies_blocked' };
}) {
  const product = brand().name;
  const message = typeof error === 'string' ? (messages(product)[error] ?? 'The sign-in did not complete. Try again.') : undefined;
  return (
    <AuthCard
      title={account ? `Your ${product} account` : `${product} admin`}
      subtitle={
        account
          ? 'Sign in to see and change your profile, password, connected apps and sessions.'
          : `Sign in with your ${product} account to manage applications and users.`
      }
    >
      {message ? (
        <Notice variant="error" compact>
          {message}
        </Notice>
      ) : null}
      {view.kind === 'cookies_blocked' ? (
        <Notice variant="error" compact>
          Your browser did not keep the sign-in cookie. Allow cookies for this site, then reload the page.
        </Notice>
      ) : (
        <form method="post" action="/api/auth/signin/gatehouse">
          <input type="hidden" name="csrfToken" value={view.csrfToken} />
          <input type="hidden" name="callbackUrl" value={view.callbackUrl} />
          <Button type="submit" block autoFocus>
            Sign in with {product}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}
