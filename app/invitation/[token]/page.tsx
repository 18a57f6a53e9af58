// /invitation/{token}: the mailed invitation — the person chooses their password. Opening it spends nothing (mail scanners open links).
import type { Metadata } from 'next';
import { NewPasswordForm } from '@/components/recovery/reset-forms';
import { TextLink } from '@/components/ui/button';
import { AuthCard } from '@/components/ui/card';
import { serverContext } from '@/lib/context';
import { INVITATION_LINK_DAYS, viewInvitation } from '@/lib/services/invitations';
import { passwordPolicy } from '@/lib/services/passwords';
import { acceptInvitationAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Choose your password' };

const problems = {
  expired: `It expired: an invitation works for ${INVITATION_LINK_DAYS} days.`,
  used: 'It was used already: your password is chosen, and you can sign in with it.',
  unknown: 'It is not a link we sent, or a newer invitation replaced it.',
} as const;

const ASK = 'Ask your administrator to send the invitation again';

export default async function InvitationPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const view = await viewInvitation(serverContext(), token);
  if (view.status !== 'valid') {
    return (
      <AuthCard title="This link no longer works">
        <p className="text-sm text-slate-700">{problems[view.status]}</p>
        <p className="mt-4 text-sm">{view.status === 'used' ? <TextLink href="/account">Open your account</TextLink> : `${ASK}.`}</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose your password" subtitle={<>for {view.username}</>}>
      <p className="mb-4 text-sm text-slate-700">Welcome. Choose the password you will sign in with; this also confirms {view.email} as your email address.</p>
      <NewPasswordForm
        action={acceptInvitationAction.bind(null, token)}
        username={view.username}
        minLength={passwordPolicy.minLength}
        wording={{
          done: (
            <>
              Your password is set and {view.email} is confirmed: you can sign in now. <TextLink href="/account">Open your account</TextLink>, or go back to the
              app that sent you here.
            </>
          ),
          another: ASK,
          submit: 'Set my password',
        }}
      />
    </AuthCard>
  );
}
