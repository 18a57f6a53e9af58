// /password-reset/{token}: the mailed link's page — choose the new password. Opening it spends nothing (mail scanners open links).
import type { Metadata } from 'next';
import { NewPasswordForm } from '@/components/recovery/reset-forms';
import { TextLink } from '@/components/ui/button';
import { AuthCard } from '@/components/ui/card';
import { serverContext } from '@/lib/context';
import { passwordPolicy } from '@/lib/services/passwords';
import { viewResetLink } from '@/lib/services/password-reset';
import { resetPasswordAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Choose a new password' };

const problems = {
  expired: 'It expired: a link works for 30 minutes.',
  used: 'It was used already: each link works once.',
  unknown: 'It is not a link we sent, or a newer one replaced it.',
} as const;

export default async function ResetLinkPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await viewResetLink(serverContext(), token);
  if (view.status !== 'valid') {
    return (
      <AuthCard title="This link no longer works">
        <p className="text-sm text-slate-700">{problems[view.status]}</p>
        <p className="mt-4 text-sm">
          <TextLink href="/password-reset">Ask for a new link</TextLink>
        </p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password" subtitle={<>for {view.username}</>}>
      <NewPasswordForm action={resetPasswordAction.bind(null, token)} username={view.username} minLength={passwordPolicy.minLength} />
    </AuthCard>
  );
}
