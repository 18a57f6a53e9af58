'use client';
/**
 * One form of /admin/access or of a person's groups and roles: its fields (children), a button, and the use case's
 * refusal under them. Done redirects (app/admin/(portal)/access/actions.ts), so only a refusal comes back. The
 * server checks everything again; `inline` lays the fields and the button out on one row.
 */
import { useActionState, type ReactNode } from 'react';
import type { AccessFormState } from '@/lib/surfaces/portal/access-form-state';
import { Button, type ButtonVariant } from '@/components/ui/button';
import { FormError } from '@/components/ui/notice';

export function AccessForm({
  action,
  submit,
  pendingLabel,
  children,
  variant = 'secondary',
  inline = false,
}: {
  action: (state: AccessFormState, form: FormData) => Promise<AccessFormState>;
  submit: ReactNode;
  pendingLabel: string;
  children?: ReactNode;
  variant?: ButtonVariant;
  inline?: boolean;
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  return (
    <form action={formAction} className={inline ? 'flex flex-wrap items-end gap-2' : 'space-y-3'}>
      {children}
      <Button type="submit" variant={variant} disabled={pending}>
        {pending ? pendingLabel : submit}
      </Button>
      {state.status === 'error' ? (
        <div className={inline ? 'basis-full' : undefined}>
          <FormError messages={[state.message]} />
        </div>
      ) : null}
    </form>
  );
}

/** A small button that removes one thing (a permission, a member, a role): `label` says what, for screen readers too. */
export function RemoveButton({
  action,
  label,
  pendingLabel,
}: {
  action: (state: AccessFormState, form: FormData) => Promise<AccessFormState>;
  label: ReactNode;
  pendingLabel: string;
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  return (
    <form action={formAction} className="inline">
      <button
        type="submit"
        disabled={pending}
        className="rounded-sm px-1 text-xs font-medium text-red-700 underline-offset-2 hover:underline focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-accent-ring"
      >
        {pending ? pendingLabel : label}
      </button>
      {state.status === 'error' ? <FormError messages={[state.message]} /> : null}
    </form>
  );
}
