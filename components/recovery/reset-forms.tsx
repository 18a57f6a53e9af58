'use client';
/**
 * The two forms of a password reset: asking for the link (username or email),
 * and choosing the new password on the link's page (an invitation's page too). Server actions: they work
 * without JavaScript. Nothing typed comes back. UI only.
 */
import { useActionState, type ReactNode } from 'react';
import type { ResetRequestState, ResetState } from '@/lib/services/password-reset';
import { Button, TextLink } from '../ui/button';
import { TextField } from '../ui/field';
import { FormError, Notice } from '../ui/notice';

const sentence = (messages?: string[]) => messages?.map((m) => m.charAt(0).toUpperCase() + m.slice(1));

export function RequestResetForm({
  action,
  validMinutes,
}: {
  action: (state: ResetRequestState, form: FormData) => Promise<ResetRequestState>;
  validMinutes: number;
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'sent') {
    return (
      <Notice compact>
        If an account has that username or email address, a link to choose a new password is on its way to the account’s email address. It works once, for{' '}
        {validMinutes} minutes. Nothing arrived? Check the spam folder, or ask again in a few minutes.
      </Notice>
    );
  }
  const errors = state.status === 'invalid' ? state.errors : {};
  const typed = state.status === 'invalid' || state.status === 'failed' ? state.identifier : undefined;
  return (
    <form action={formAction} noValidate className="space-y-4">
      {state.status === 'failed' ? (
        <Notice variant="error" compact>
          The email could not be sent just now. Nothing was changed: try again in a few minutes.
        </Notice>
      ) : null}
      <TextField
        compact
        id="identifier"
        key={`${state.status}-${typed ?? ''}`}
        defaultValue={typed}
        label="Username or email address"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        required
        autoFocus
        maxLength={320}
        errors={sentence(errors.identifier)}
      />
      <FormError messages={sentence(errors.form)} />
      <Button block type="submit" disabled={pending}>
        {pending ? 'Sending…' : 'Send me a link'}
      </Button>
    </form>
  );
}

/** What the link's page says around the form: a reset's by default; an invitation's page says its own (app/invitation). */
export interface NewPasswordWording {
  /** After the password is set. */
  done: ReactNode;
  /** After the link turned out not to work: where to get another. */
  another: ReactNode;
  submit: string;
}

const resetWording: NewPasswordWording = {
  done: (
    <>
      Your password is changed, and you are signed out everywhere. Go back to the app you were signing in to and sign in with the new password, or{' '}
      <TextLink href="/account">open your account</TextLink>.
    </>
  ),
  another: <TextLink href="/password-reset">Ask for a new one</TextLink>,
  submit: 'Set the new password',
};

export function NewPasswordForm({
  action,
  username,
  minLength,
  wording = resetWording,
}: {
  action: (state: ResetState, form: FormData) => Promise<ResetState>;
  username: string;
  minLength: number;
  wording?: NewPasswordWording;
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'done') {
    return <Notice compact>{wording.done}</Notice>;
  }
  if (state.status === 'link') {
    return (
      <Notice variant="error" compact>
        This link no longer works ({state.problem === 'expired' ? 'it expired' : state.problem === 'used' ? 'it was used already' : 'it is not known'}).{' '}
        {wording.another}.
      </Notice>
    );
  }
  const errors = state.status === 'invalid' ? state.errors : {};
  return (
    <form action={formAction} noValidate className="space-y-4">
      <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
      <TextField
        compact
        id="password"
        label="New password"
        hint={`At least ${minLength} characters.`}
        type="password"
        autoComplete="new-password"
        required
        autoFocus
        errors={sentence(errors.password)}
      />
      <TextField
        compact
        id="confirmPassword"
        label="New password again"
        type="password"
        autoComplete="new-password"
        required
        errors={sentence(errors.confirmPassword)}
      />
      <FormError messages={sentence(errors.form)} />
      <Button block type="submit" disabled={pending}>
        {pending ? 'Saving…' : wording.submit}
      </Button>
    </form>
  );
}
