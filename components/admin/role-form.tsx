'use client';
// A person's admin role on their page: the roles the admin looking may give (lib/surfaces/portal/users.ts assignableRoles),
// one select, the portal's "I understand" box (a change can take the admin area away from them) and a button. The server
// action checks everything again (requireAdmin, the tick, setRole); this only leaves out what would be refused.
import { useActionState, useId, type ReactNode } from 'react';
import type { Confirmation } from '@/lib/surfaces/portal/confirmation';
import { ConfirmCheck } from '@/components/portal/confirm';
import { Button } from '@/components/ui/button';
import { border, inputLook } from '@/components/ui/field';
import { FormError } from '@/components/ui/notice';

export function RoleForm({
  action,
  current,
  roles,
  label,
  statement,
  submit,
  pendingLabel,
}: {
  action: (state: Confirmation, form: FormData) => Promise<Confirmation>;
  current: string;
  roles: { value: string; label: string }[];
  label: string;
  statement: ReactNode;
  submit: string;
  pendingLabel: string;
}) {
  const [state, formAction, pending] = useActionState(action, { status: 'idle' });
  const selectId = useId();
  const checkId = useId();
  const unconfirmed = state.status === 'unconfirmed';
  return (
    <form action={formAction} className="space-y-3">
      <div className="grid max-w-xs gap-1">
        <label htmlFor={selectId} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        <select id={selectId} name="role" defaultValue={current} className={`${inputLook} bg-white ${border(false)}`}>
          {roles.map((role) => (
            <option key={role.value} value={role.value}>
              {role.label}
            </option>
          ))}
        </select>
      </div>
      <ConfirmCheck id={checkId} invalid={unconfirmed}>
        {statement}
      </ConfirmCheck>
      <FormError messages={unconfirmed ? [state.message] : undefined} />
      <Button type="submit" variant="secondary" disabled={pending}>
        {pending ? pendingLabel : submit}
      </Button>
    </form>
  );
}
