// Where RP-initiated logout returns to (the portal client's post_logout_redirect_uri).
import type { Metadata } from 'next';
import { SignedOut } from '@/components/portal/signed-out';
import { brand } from '@/lib/config/brand';

export const metadata: Metadata = { title: 'Signed out' };

export default function SignedOutPage() {
  return <SignedOut home="/admin" subtitle={`You have left the admin portal and ended your ${brand().name} session.`} />;
}
