/**
 * Form fields of the one UI kit: a labelled control with its hint and errors wired to it
 * (aria-describedby), and a choice drawn as a card. UI only.
 */
import type { InputHTMLAttributes, ReactNode } from 'react';
import { focusRing } from './button';

export const inputLook = `block w-full rounded-lg border px-3 py-2 text-sm shadow-xs focus:border-accent-ring ${focusRing}`;
/**
 * `control`: 3:1 or more against the card in both schemes (WCAG 1.4.11; slate-300 was 1.5:1). An invalid
 * field's red-600 is 4.8:1 on the light card and 3.7:1 on the dark one (red-400 was 2.9:1 on white).
 */
export const border = (invalid: boolean) => (invalid ? 'border-red-600' : 'border-control');

export const describedBy = (id: string, hint: boolean, errors?: string[]) =>
  [hint ? `${id}-hint` : '', errors?.length ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

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

/** `compact`: label and control closer together, as on the sign-in cards and beside a copy button. */
export function Field({
  id,
  label,
  hint,
  errors,
  compact = false,
  children,
}: {
  id: string;
  label: string;
  hint?: ReactNode;
  errors?: string[];
  compact?: boolean;
  children: ReactNode;
}) {
  return (
    <div className={compact ? 'space-y-1' : undefined}>
      <label htmlFor={id} className={`block text-sm font-medium ${compact ? 'text-slate-700' : 'text-slate-800'}`}>
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="mt-0.5 text-sm text-slate-500">
          {hint}
        </p>
      ) : null}
      <div className={compact ? undefined : 'mt-1.5'}>{children}</div>
      <Errors id={`${id}-error`} messages={errors} />
    </div>
  );
}

/** A text input inside its Field, wired to the hint and errors; `name` defaults to the id. */
export function TextField({
  id,
  label,
  hint,
  errors,
  compact,
  ...input
}: { id: string; label: string; hint?: string; errors?: string[]; compact?: boolean } & InputHTMLAttributes<HTMLInputElement>) {
  const invalid = Boolean(errors?.length);
  return (
    <Field id={id} label={label} hint={hint} errors={errors} compact={compact}>
      <input
        id={id}
        name={id}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy(id, Boolean(hint), errors)}
        className={`${inputLook} ${border(invalid)}`}
        {...input}
      />
    </Field>
  );
}

/** A radio button or checkbox drawn as a card with its label and hint (the card is highlighted while checked). */
export function ChoiceCard({ label, hint, ...input }: { label: ReactNode; hint: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label
      htmlFor={input.id}
      className="flex gap-3 rounded-lg border border-slate-200 p-3 text-sm hover:bg-slate-50 has-[:checked]:border-accent-ring has-[:checked]:bg-accent-soft/60"
    >
      <input className={`mt-0.5 size-4 accent-accent ${focusRing}`} {...input} />
      <span>
        <span className="font-medium text-slate-900">{label}</span>
        {/* slate-600: slate-500 fell to 4.3:1 on the checked card's accent tint. */}
        <span className="block text-slate-600">{hint}</span>
      </span>
    </label>
  );
}
