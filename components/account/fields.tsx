/**
 * A text input for the account forms, inside the portal's labelled Field (its
 * hint and messages wired with aria-describedby, aria-invalid when wrong).
 * Messages start with a capital here: each stands alone under its field. UI only.
 */
import type { InputHTMLAttributes } from 'react';
import { Field, border, describedBy, inputLook } from '../admin/field';

const sentence = (message: string) => message.charAt(0).toUpperCase() + message.slice(1);

export function TextField({ id, label, hint, errors, ...input }: { id: string; label: string; hint?: string; errors?: string[] } & InputHTMLAttributes<HTMLInputElement>) {
  const invalid = Boolean(errors?.length);
  return (
    <Field id={id} label={label} hint={hint} errors={errors?.map(sentence)}>
      <input id={id} name={id} aria-invalid={invalid || undefined} aria-describedby={describedBy(id, Boolean(hint), errors)} className={`${inputLook} ${border(invalid)}`} {...input} />
    </Field>
  );
}
