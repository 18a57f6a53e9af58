/**
 * "Use another account": a one-button form (a POST, as every interaction form: it works without
 * JavaScript, and app/interaction/respond.ts checks its origin) drawn as a link. UI only.
 */
import type { ReactNode } from 'react';
import { focusRing } from '../ui/button';
import { RequestFields } from './request-fields';

export function AnotherAccountForm({
  action,
  client,
  label,
  lead,
  className = '',
}: {
  action: string;
  client: { id: string; redirectUri?: string };
  label: string;
  /** Text before the button, in the same line ("Signed in as … Not you?"). */
  lead?: ReactNode;
  className?: string;
}) {
  return (
    <form method="post" action={action} className={className}>
      <RequestFields client={client} />
      {lead ? <>{lead} </> : null}
      <button type="submit" className={`cursor-pointer rounded-sm font-medium text-accent-text underline-offset-2 hover:underline ${focusRing}`}>
        {label}
      </button>
    </form>
  );
}
