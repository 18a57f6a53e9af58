'use client';
/**
 * The destructive client actions: rotate the secret, delete. Each asks for a
 * tick first (the portal's one confirmation, components/portal/confirm.tsx)
 * and shows its answer in place.
 */
import { useActionState, useId } from 'react';
import type { ClientChange, SecretRotation } from '@/lib/services/portal/clients';
import { SecretReveal } from './secret-reveal';
import { ConfirmCheck as Confirm } from '../portal/confirm';
import { Button } from '../ui/button';
import { FormError } from '../ui/notice';

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
