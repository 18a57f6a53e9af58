'use client';
/**
 * The forms of /account/security: confirm TOTP with a first code, get new
 * recovery codes, turn two-step verification off (both with the current
 * password). Recovery codes appear once, in the answer that made them; nothing
 * typed is sent back. Server actions: they work without JavaScript too. UI only.
 */
import { useActionState } from 'react';
import type { ConfirmState, PasswordProtectedState } from '@/lib/services/account/pages';
import { Button, TextLink } from '../ui/button';
import { FormError, Notice } from '../ui/notice';
import { TextField } from './fields';

const sentence = (messages?: string[]) => messages?.map((m) => m.charAt(0).toUpperCase() + m.slice(1));

function RecoveryCodes({ codes, enrolled }: { codes: string[]; enrolled: boolean }) {
  return (
    <Notice>
      <p className="font-semibold">{enrolled ? 'Two-step verification is on.' : 'Your new recovery codes.'}</p>
      <p className="mt-1">
        Save these recovery codes somewhere safe, away from your phone. Each works once, if you lose your authenticator app. They are shown only now
        {enrolled ? '' : '; your earlier codes no longer work'}.
      </p>
      <ul aria-label="Recovery codes" className="mt-3 grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <p className="mt-3">
        <TextLink href="/account/security">I have saved them</TextLink>
      </p>
    </Notice>
  );
}

export function ConfirmTotpForm({ action }: { action: (state: ConfirmState, form: FormData) => Promise<ConfirmState> }) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'codes') return <RecoveryCodes codes={state.recoveryCodes} enrolled={state.enrolled} />;
  const errors = state.status === 'invalid' ? state.errors : {};
  return (
    <form action={formAction} noValidate className="space-y-4">
      <TextField id="code" label="Code from the app" inputMode="numeric" autoComplete="one-time-code" maxLength={64} required errors={errors.code} />
      <FormError messages={sentence(errors.form)} />
      <Button type="submit" disabled={pending}>
        {pending ? 'Checking…' : 'Turn on'}
      </Button>
    </form>
  );
}

export function PasswordProtectedForm({
  action,
  username,
  submit,
  variant = 'primary',
}: {
  action: (state: PasswordProtectedState, form: FormData) => Promise<PasswordProtectedState>;
  username: string;
  submit: string;
  variant?: 'primary' | 'danger';
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'codes') return <RecoveryCodes codes={state.recoveryCodes} enrolled={state.enrolled} />;
  if (state.status === 'removed') {
    return (
      <Notice>
        Two-step verification is off. <TextLink href="/account/security">Back to two-step verification</TextLink>
      </Notice>
    );
  }
  const errors = state.status === 'invalid' ? state.errors : {};
  return (
    <form action={formAction} noValidate className="space-y-4">
      <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
      <TextField id="currentPassword" label="Current password" type="password" autoComplete="current-password" required errors={errors.currentPassword} />
      <FormError messages={sentence(errors.form)} />
      <Button type="submit" variant={variant} disabled={pending}>
        {submit}
      </Button>
    </form>
  );
}
