// /verify-email/{token}: the mailed verification link — one button confirms the address. Opening it changes nothing.
import type { Metadata } from 'next';
import { EmailConfirmed, VerifyEmailForm } from '@/components/recovery/verify-email-form';
import { AuthCard } from '@/components/ui/card';
import { serverContext } from '@/lib/context';
import { viewVerificationLink } from '@/lib/services/email-verification';
import { confirmEmailAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Confirm your email address' };

const problems = {
  expired:
    'It expired: a link works for 24 hours. Ask for a new one from your account (a new account: sign in, and the page offers to send it again), or ask your administrator.',
  used: 'It was used already: each link works once.',
  unknown: 'It is not a link we sent, or a newer one replaced it.',
} as const;

export default async function VerifyEmailPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await viewVerificationLink(serverContext(), token);
  if (view.status === 'confirmed') {
    return (
      <AuthCard title="Confirm your email address">
        <EmailConfirmed email={view.email} used />
      </AuthCard>
    );
  }
  if (view.status !== 'valid') {
    return (
      <AuthCard title="This link no longer works">
        <p className="text-sm text-slate-700">{problems[view.status]}</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Confirm your email address" subtitle={<>for the account {view.username}</>}>
      <VerifyEmailForm action={confirmEmailAction.bind(null, token)} email={view.email} />
    </AuthCard>
  );
}
