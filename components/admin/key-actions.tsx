'use client';
/**
 * The System page's Rotate: a tick first (it works without JavaScript, unlike
 * a confirm() dialog), a second one for "at once" (a compromised key), and the
 * answer in place.
 */
import { useActionState, useId } from 'react';
import type { KeyRotation } from '@/lib/services/portal/system';
import { Button } from '../ui/button';
import { FormError, Notice } from '../ui/notice';
import { ConfirmCheck as Confirm } from '../portal/confirm';

export function RotateKeysForm({
  action,
  publishAheadHours,
}: {
  action: (state: KeyRotation, form: FormData) => Promise<KeyRotation>;
  publishAheadHours: number;
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  const id = useId();
  return (
    <form action={formAction} className="space-y-3">
      {state.status === 'done' ? (
        <Notice compact>
          {state.lines.map((line) => (
            <span key={line} className="block">
              {line}
            </span>
          ))}
        </Notice>
      ) : null}
      <Confirm id={`${id}-confirm`} invalid={state.status === 'refused'}>
        Rotate the signing keys: a new key of each algorithm is published now and signs once it has been published for {publishAheadHours} hours (at once if it
        already has). The key it replaces stays published until every token it signed has expired.
      </Confirm>
      <Confirm id={`${id}-now`} name="now" invalid={false}>
        At once: the new keys sign now. Only for a compromised key: apps that cached the key set refuse new tokens until they fetch it again.
      </Confirm>
      <FormError messages={state.status === 'refused' ? [state.message] : undefined} />
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? 'Rotating…' : 'Rotate signing keys'}
      </Button>
    </form>
  );
}
