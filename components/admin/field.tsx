/** A labelled form field with its hint and errors wired to it (aria-describedby), for the portal's forms. UI only. */
import type { ReactNode } from 'react';
import { focusRing } from './ui';

export const inputLook = `block w-full rounded-lg border px-3 py-2 text-sm shadow-xs focus:border-indigo-500 ${focusRing}`;
export const border = (invalid: boolean) => (invalid ? 'border-red-400' : 'border-slate-300');

export function Errors({ id, messages }: { id: string; messages?: string[] }) {
  if (!messages?.length) return null;
  return (
    <ul id={id} className="mt-1 space-y-0.5 text-sm text-red-700">
      {messages.map((m) => (
        <li key={m}>{m}</li>
      ))}
    </ul>
  );
}

export function Field({ id, label, hint, errors, children }: { id: string; label: string; hint?: ReactNode; errors?: string[]; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="mt-0.5 text-sm text-slate-500">
          {hint}
        </p>
      ) : null}
      <div className="mt-1.5">{children}</div>
      <Errors id={`${id}-error`} messages={errors} />
    </div>
  );
}

export const describedBy = (id: string, hint: boolean, errors?: string[]) =>
  [hint ? `${id}-hint` : '', errors?.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
