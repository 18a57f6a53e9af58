'use client';
/**
 * The change-password form: the current password, then the new one twice.
 * Nothing typed is ever sent back: after each answer every field starts empty
 * (React resets a form once its action completes) and only the messages
 * remain. A hidden username field lets password managers file the new
 * password under the right account.
 */
import { useActionState, useEffect, useRef } from 'react';
import type { PasswordChangeState } from '@/lib/services/account/pages';
import { Button, TextLink } from '../ui/button';
import { FormError, Notice } from '../ui/notice';
import { TextField } from './fields';

export function PasswordForm({
  action,
  username,
  minLength,
}: {
  action: (state: PasswordChangeState, form: FormData) => Promise<PasswordChangeState>;
  username: string;
  minLength: number;
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  const form = useRef<HTMLFormElement>(null);
  const errors = state.status === 'invalid' ? state.errors : {};
  useEffect(() => {
    form.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus();
  }, [state]);

  return (
    <form ref={form} action={formAction} noValidate className="space-y-5">
      {state.status === 'changed' ? (
        <Notice>
          <p className="font-semibold">Your password is changed.</p>
          <p className="mt-1">
            {state.endedSessions === 0
              ? 'You had no other sessions to sign out.'
              : `${state.endedSessions === 1 ? 'Your one other session was' : `Your ${state.endedSessions} other sessions were`} signed out; you stay signed in here.`}{' '}
            Apps you connected keep their access: remove any you do not recognise under <TextLink href="/account/apps">Connected apps</TextLink>.
          </p>
        </Notice>
      ) : null}
      <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
      <TextField id="currentPassword" label="Current password" type="password" autoComplete="current-password" required errors={errors.currentPassword} />
      <TextField
        id="newPassword"
        label="New password"
        hint={`At least ${minLength} characters. A long passphrase is easier to remember and harder to guess.`}
        type="password"
        autoComplete="new-password"
        required
        minLength={minLength}
        errors={errors.newPassword}
      />
      <TextField id="confirmPassword" label="New password, again" type="password" autoComplete="new-password" required errors={errors.confirmPassword} />
      <FormError messages={errors.form} />
      <Button type="submit" disabled={pending}>
        {pending ? 'Changing…' : 'Change password'}
      </Button>
    </form>
  );
}
