'use client';
/** The verification link's page: one button that uses the link (a POST: mail scanners only open it). Works without JavaScript. UI only. */
import { useActionState } from 'react';
import type { VerificationOutcome } from '@/lib/services/email-verification';
import { Button, TextLink } from '../ui/button';
import { Notice } from '../ui/notice';

const problems = {
  expired: 'It expired: ask for a new one from your account, or ask your administrator.',
  used: 'It was used already.',
  unknown: 'It is not a link we sent, or a newer one replaced it.',
} as const;

/**
 * The address is confirmed: said by the form once its button worked, and by the page for a link used
 * already (`used`), which is what a browser without JavaScript shows after the button.
 */
export function EmailConfirmed({ email, used = false }: { email: string; used?: boolean }) {
  return (
    <Notice compact>
      {used ? 'This link was used: ' : null}
      <strong>{email}</strong> is confirmed: it is your account’s email address now. Signing up or in to an app? Go back to that page and continue.{' '}
      <TextLink href="/account">Open your account</TextLink>
    </Notice>
  );
}

export function VerifyEmailForm({ action, email }: { action: (state: VerificationOutcome, form: FormData) => Promise<VerificationOutcome>; email: string }) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'verified') return <EmailConfirmed email={state.email} />;
  return (
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
  );
}
