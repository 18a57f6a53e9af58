// Where RP-initiated logout returns to after signing out from /account (a post_logout_redirect_uri of the portal client).
import type { Metadata } from 'next';
import { SignedOut } from '@/components/portal/signed-out';
import { brand } from '@/lib/config/brand';

export const metadata: Metadata = { title: 'Signed out' };

export default function AccountSignedOutPage() {
  return <SignedOut home="/account" subtitle={`You have left your account page and ended your ${brand().name} session in this browser.`} />;
}
