'use client';
/**
 * The portal's one confirmation pattern for an action that revokes, disables or
 * ends something: an "I understand" box to tick, then the button. It works
 * without JavaScript, unlike a confirm() dialog; the server checks the box
 * (lib/surfaces/portal/confirmation.ts) and an unticked post comes back with the
 * reason under it. `collapsed` puts it behind a disclosure, for a row in a list.
 */
import { useActionState, useId, type ReactNode } from 'react';
import type { Confirmation } from '@/lib/surfaces/portal/confirmation';
import { Button, buttonLook, focusRing, type ButtonVariant } from '../ui/button';
import { FormError } from '../ui/notice';

/** The box (`name`, "confirm" by default: the System page's key rotation has a second one). */
export function ConfirmCheck({ id, children, invalid, name = 'confirm' }: { id: string; children: ReactNode; invalid: boolean; name?: string }) {
  return (
    <label htmlFor={id} className="flex gap-3 text-sm text-slate-700">
      <input id={id} type="checkbox" name={name} aria-invalid={invalid || undefined} className={`mt-0.5 size-4 shrink-0 accent-red-600 ${focusRing}`} />
      <span>{children}</span>
    </label>
  );
}

export function ConfirmForm({
  action,
  statement,
  submit,
  pendingLabel,
  variant = 'danger',
  collapsed,
}: {
  action: (state: Confirmation, form: FormData) => Promise<Confirmation>;
  /** What the box says the person understands. */
  statement: ReactNode;
  submit: ReactNode;
  pendingLabel: string;
  variant?: ButtonVariant;
  /** The disclosure's label (a row's "Revoke…"); without it the form is shown as it is. */
  collapsed?: ReactNode;
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  const id = useId();
  const unconfirmed = state.status === 'unconfirmed';
  const form = (
    <form action={formAction} className="space-y-3">
      <ConfirmCheck id={id} invalid={unconfirmed}>
        {statement}
      </ConfirmCheck>
      <FormError messages={unconfirmed ? [state.message] : undefined} />
      <Button type="submit" variant={variant} disabled={pending}>
        {pending ? pendingLabel : submit}
      </Button>
    </form>
  );
  if (!collapsed) return form;
  return (
    // Open again after an unticked post, so the reason is seen next to the box.
    <details className="group w-full max-w-sm sm:w-auto" open={unconfirmed || undefined}>
      <summary className={`${buttonLook('secondary', false)} cursor-pointer list-none [&::-webkit-details-marker]:hidden`}>{collapsed}</summary>
      <div className="mt-3 rounded-lg border border-slate-200 bg-white p-3">{form}</div>
    </details>
  );
}
