'use client';
/**
 * Setting a user's password from their page: typed twice or generated; a
 * generated one is shown once, in place. Works without JavaScript.
 */
import { useActionState } from 'react';
import type { PasswordState } from '@/lib/services/portal/users';
import { PasswordFields } from './password-fields';
import { PasswordReveal } from './password-reveal';
import { Button, Notice } from './ui';

export function SetPasswordForm({ action, username }: { action: (state: PasswordState, form: FormData) => Promise<PasswordState>; username: string }) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'set') {
    return state.password ? (
      <PasswordReveal heading={`${username} has a new password: the old one no longer works`} username={username} password={state.password} />
    ) : (
      <Notice>The password is changed: the old one no longer works.</Notice>
    );
  }
  const errors = state.status === 'invalid' ? state.errors : {};
  return (
    <form action={formAction} noValidate className="space-y-4">
      <PasswordFields idPrefix="set-password" choice={state.status === 'invalid' ? 'type' : 'generate'} errors={errors} hideLegend />
      <Button type="submit" look="secondary" disabled={pending}>
        {pending ? 'Saving…' : 'Set password'}
      </Button>
    </form>
  );
}
