/**
 * The account forms' fields: a label, an optional hint, the input, and its
 * messages, tied together with aria-describedby and aria-invalid. UI only.
 */
import type { InputHTMLAttributes } from 'react';
import { focusRing } from '../admin/ui';

export function FieldErrors({ id, messages }: { id: string; messages?: string[] }) {
  if (!messages?.length) return null;
  return (
    <ul id={id} className="mt-1 space-y-0.5 text-sm text-red-700">
      {messages.map((m) => (
        <li key={m}>{m.charAt(0).toUpperCase() + m.slice(1)}</li>
      ))}
    </ul>
  );
}

export function TextField({ id, label, hint, errors, ...input }: { id: string; label: string; hint?: string; errors?: string[] } & InputHTMLAttributes<HTMLInputElement>) {
  const invalid = Boolean(errors?.length);
  const describedBy = [hint ? `${id}-hint` : '', invalid ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
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
      <input
        id={id}
        name={id}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className={`mt-1.5 block w-full rounded-lg border px-3 py-2 text-sm shadow-xs focus:border-indigo-500 ${invalid ? 'border-red-400' : 'border-slate-300'} ${focusRing}`}
        {...input}
      />
      <FieldErrors id={`${id}-error`} messages={errors} />
    </div>
  );
}
