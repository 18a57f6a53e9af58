'use client';
/**
 * The verification link's page: one button that uses the link (a POST: mail scanners only open it). Works without
 * JavaScript: the card is rendered for every state of the link, so the re-render after a plain form post (when the
 * link is already spent) still shows what the button did. UI only.
 */
import { useActionState } from 'react';
import type { VerificationLinkView, VerificationOutcome } from '@/lib/services/email-verification';
import { Button, TextLink } from '../ui/button';
import { AuthCard } from '../ui/card';
import { Notice } from '../ui/notice';

const problems = {
  expired:
    'It expired: a link works for 24 hours. Ask for a new one from your account (a new account: sign in, and the page offers to send it again), or ask your administrator.',
  used: 'It was used already: each link works once.',
  unknown: 'It is not a link we sent, or a newer one replaced it.',
} as const;

export function VerifyEmailCard({
  action,
  view,
}: {
  action: (state: VerificationOutcome, form: FormData) => Promise<VerificationOutcome>;
  /** The link as it was when the page was drawn. */
  view: VerificationLinkView;
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'verified') {
    return (
      <AuthCard title="Confirm your email address">
        <Notice compact>
          <strong>{state.email}</strong> is confirmed: it is your account’s email address now. Signing up or in to an app? Go back to that page and continue.{' '}
          <TextLink href="/account">Open your account</TextLink>
        </Notice>
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
  const { email } = view;
  return (
    <AuthCard title="Confirm your email address" subtitle={<>for the account {view.username}</>}>
      <form action={formAction} className="space-y-4">
        {state.status === 'link' ? (
          <Notice variant="error" compact>
            This link no longer works. {problems[state.problem]}
          </Notice>
        ) : null}
        {state.status === 'taken' ? (
          <Notice variant="error" compact>
            Another account uses {email} now, so it cannot be yours. Nothing was changed.
          </Notice>
        ) : null}
        {state.status === 'throttled' ? (
          <Notice variant="error" compact>
            {state.message}
          </Notice>
        ) : null}
        <Button block type="submit" disabled={pending}>
          {pending ? 'Confirming…' : `Confirm ${email}`}
        </Button>
      </form>
    </AuthCard>
  );
}
