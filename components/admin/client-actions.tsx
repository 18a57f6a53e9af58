'use client';
/**
 * The destructive client actions: rotate the secret, delete. Each asks for a
 * tick first (it works without JavaScript, unlike a confirm() dialog) and
 * shows its answer in place.
 */
import { useActionState, useId, type ReactNode } from 'react';
import type { ClientChange, SecretRotation } from '@/lib/services/portal/clients';
import { SecretReveal } from './secret-reveal';
import { Button, focusRing } from '../ui/button';
import { FormError } from '../ui/notice';

/** A tick the form's action asks for (`name`, "confirm" by default); the System page's key rotation uses it too. */
export function Confirm({ id, children, invalid, name = 'confirm' }: { id: string; children: ReactNode; invalid: boolean; name?: string }) {
  return (
    <label htmlFor={id} className="flex gap-3 text-sm text-slate-700">
      <input id={id} type="checkbox" name={name} aria-invalid={invalid || undefined} className={`mt-0.5 size-4 accent-red-600 ${focusRing}`} />
      <span>{children}</span>
    </label>
  );
}

export function RotateSecretForm({ action }: { action: (state: SecretRotation, form: FormData) => Promise<SecretRotation> }) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  const id = useId();
  if (state.status === 'rotated') {
    return <SecretReveal heading="The secret is rotated: the old one no longer works" clientSecret={state.clientSecret} />;
  }
  return (
    <form action={formAction} className="space-y-3">
      <Confirm id={id} invalid={state.status === 'refused'}>
        I understand that apps using the current secret stop working at once.
      </Confirm>
      <FormError messages={state.status === 'refused' ? [state.message] : undefined} />
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? 'Rotating…' : 'Rotate secret'}
      </Button>
    </form>
  );
}

export function DeleteClientForm({
  action,
  name,
}: {
  action: (state: ClientChange | undefined, form: FormData) => Promise<ClientChange | undefined>;
  name: string;
}) {
  const [state, formAction, pending] = useActionState(action, undefined);
  const id = useId();
  return (
    <form action={formAction} className="space-y-3">
      <Confirm id={id} invalid={state?.status === 'refused'}>
        Delete <strong>{name}</strong>, and revoke every token and grant it holds. This cannot be undone.
      </Confirm>
      <FormError messages={state?.status === 'refused' ? [state.message] : undefined} />
      <Button type="submit" variant="danger" disabled={pending}>
        {pending ? 'Deleting…' : 'Delete client'}
      </Button>
    </form>
  );
}
