'use client';
/**
 * The passkey forms of /account/security. Adding one: its name and the current
 * password go to the server first (startAction), which answers with the options
 * for the browser's WebAuthn ceremony (@simplewebauthn/browser); the
 * authenticator's answer goes to finishAction. That needs JavaScript: without
 * it the button stays disabled and says so. Removing one is a plain server
 * action with the current password, with or without JavaScript. UI only.
 */
import { browserSupportsWebAuthn, startRegistration } from '@simplewebauthn/browser';
import { useRouter } from 'next/navigation';
import { type FormEvent, useActionState, useEffect, useState } from 'react';
import type { PasskeyAdded, PasskeyStart, PasswordProtectedState } from '@/lib/services/account/pages';
import { Button, TextLink } from '../ui/button';
import { FormError, Notice } from '../ui/notice';
import { CurrentPasswordField, TextField } from './fields';
import { PasswordProtectedFields, RecoveryCodes, sentence } from './two-step-forms';

type Support = 'checking' | 'yes' | 'no';

export function AddPasskeyForm({
  username,
  startAction,
  finishAction,
}: {
  username: string;
  startAction: (form: FormData) => Promise<PasskeyStart>;
  finishAction: (response: string) => Promise<PasskeyAdded>;
}) {
  const router = useRouter();
  const [support, setSupport] = useState<Support>('checking');
  const [errors, setErrors] = useState<Partial<Record<'name' | 'currentPassword' | 'form', string[]>>>({});
  const [pending, setPending] = useState(false);
  const [added, setAdded] = useState<Extract<PasskeyAdded, { status: 'added' }>>();
  useEffect(() => setSupport(browserSupportsWebAuthn() ? 'yes' : 'no'), []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setErrors({});
    try {
      const started = await startAction(form);
      if (started.status === 'invalid') return setErrors(started.errors);
      let response: unknown;
      try {
        response = await startRegistration({ optionsJSON: started.options });
      } catch (error) {
        const name = (error as { name?: string }).name;
        return setErrors({
          form: [
            name === 'InvalidStateError'
              ? 'this device already holds one of your passkeys: nothing was added'
              : 'no passkey was created: it was cancelled or timed out. Try again',
          ],
        });
      }
      const finished = await finishAction(JSON.stringify(response));
      if (finished.status === 'invalid') return setErrors(finished.errors);
      setAdded(finished);
      if (!finished.recoveryCodes) router.refresh();
    } finally {
      setPending(false);
    }
  };

  if (added?.recoveryCodes) return <RecoveryCodes codes={added.recoveryCodes} enrolled />;
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {added ? (
        <Notice variant="success" compact>
          Passkey “{added.name}” added. You can sign in with it.
        </Notice>
      ) : null}
      <input type="text" name="username" value={username} autoComplete="username" readOnly hidden />
      <TextField
        id="passkey-name"
        name="name"
        label="Name"
        hint="So you can tell your passkeys apart: for example the device or password manager it is in."
        maxLength={64}
        required
        errors={errors.name}
      />
      <CurrentPasswordField id="passkey-password" errors={errors.currentPassword} />
      <FormError messages={sentence(errors.form)} />
      <Button type="submit" disabled={support !== 'yes' || pending} aria-describedby="passkey-support">
        {pending ? 'Waiting for your passkey…' : 'Add a passkey'}
      </Button>
      <p id="passkey-support" className="text-xs text-slate-600">
        {support === 'no'
          ? 'This browser cannot create passkeys.'
          : support === 'checking'
            ? 'Adding a passkey needs JavaScript, which is off or still loading.'
            : ''}
      </p>
    </form>
  );
}

export function RemovePasskeyForm({
  id,
  name,
  username,
  action,
}: {
  id: string;
  name: string;
  username: string;
  action: (state: PasswordProtectedState, form: FormData) => Promise<PasswordProtectedState>;
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  if (state.status === 'removed') {
    return (
      <Notice compact>
        Passkey “{name}” removed. <TextLink href="/account/security">Back to two-step verification</TextLink>
      </Notice>
    );
  }
  return (
    <PasswordProtectedFields
      state={state}
      formAction={formAction}
      pending={pending}
      username={username}
      submit={`Remove “${name}”`}
      variant="danger"
      fieldId={`remove-${id}-currentPassword`}
      hidden={{ passkey: id }}
    />
  );
}
