// /verify-email/{token}: the mailed verification link — one button confirms the address. Opening it changes nothing.
import type { Metadata } from 'next';
import { VerifyEmailCard } from '@/components/recovery/verify-email-form';
import { serverContext } from '@/lib/context';
import { viewVerificationLink } from '@/lib/services/email-verification';
import { confirmEmailAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Confirm your email address' };

export default async function VerifyEmailPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await viewVerificationLink(serverContext(), token);
  return <VerifyEmailCard action={confirmEmailAction.bind(null, token)} view={view} />;
}
