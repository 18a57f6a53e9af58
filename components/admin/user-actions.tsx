'use client';
/**
 * Setting a user's password from their page: typed twice or generated; a
 * generated one is shown once, in place, with how many of their sessions
 * ended. Works without JavaScript.
 */
import { useActionState } from 'react';
import type { PasswordState } from '@/lib/services/portal/users';
import { PasswordFields } from './password-fields';
import { PasswordReveal } from './password-reveal';
import { Button } from '../ui/button';
import { Notice } from '../ui/notice';

function endedText(count: number): string {
  if (count === 0) return 'They had no session to end.';
  return `${count === 1 ? 'Their one session' : `All ${count} of their sessions`} ended: they sign in again with the new password.`;
}

export function SetPasswordForm({ action, username }: { action: (state: PasswordState, form: FormData) => Promise<PasswordState>; username: string }) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'set') {
    const ended = <Notice>{endedText(state.endedSessions)}</Notice>;
    return state.password ? (
      <>
        <PasswordReveal heading={`${username} has a new password: the old one no longer works`} username={username} password={state.password} />
        {ended}
      </>
    ) : (
      <>
        <Notice>The password is changed: the old one no longer works.</Notice>
        {ended}
      </>
    );
  }
  const errors = state.status === 'invalid' ? state.errors : {};
  return (
    <form action={formAction} noValidate className="space-y-4">
      <PasswordFields idPrefix="set-password" choice={state.status === 'invalid' ? 'type' : 'generate'} errors={errors} hideLegend />
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? 'Saving…' : 'Set password'}
      </Button>
    </form>
  );
}
