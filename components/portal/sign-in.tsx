/**
 * The portal's sign-in trouble card, worded for the area the browser came from: next-auth's error in plain
 * words and a link that starts the sign-in again. Sign-in itself goes straight to Gatehouse's own page.
 */
import { brand } from '@/lib/config/brand';
import { buttonLook } from '../ui/button';
import { AuthCard } from '../ui/card';
import { Notice } from '../ui/notice';

/** next-auth's error codes (https://next-auth.js.org/configuration/pages#sign-in-page), in plain words. */
const messages = (product: string, area: string): Record<string, string> => ({
  OAuthSignin: `${product} could not start the sign-in. Try again.`,
  OAuthCallback: 'The sign-in did not complete. Try again, and check that your browser allows cookies for this site.',
  Callback: 'The sign-in did not complete. Try again.',
  AccessDenied: 'The sign-in was cancelled.',
  SessionRequired: 'Sign in to continue.',
  Configuration: `${area} is not configured correctly. See the server log.`,
});

export function SignInCard({ account, error, retry }: { account: boolean; error: string; retry: string }) {
  const product = brand().name;
  const area = account ? `Your ${product} account` : `${product} admin`;
  return (
    <AuthCard title={area} subtitle={account ? 'Your profile, password, connected apps and sessions.' : `Manage the applications and users of ${product}.`}>
      <Notice variant="error" compact>
        {messages(product, area)[error] ?? 'The sign-in did not complete. Try again.'}
      </Notice>
      {/* A plain link, not next/link: a prefetch would start a sign-in. */}
      <a href={retry} className={`block ${buttonLook('primary', true)}`}>
        Try again
      </a>
    </AuthCard>
  );
}
