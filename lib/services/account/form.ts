/**
 * Form plumbing shared by the account pages' use cases: FormData fields as
 * bounded strings, and a zod error as messages per field (`form` for any that
 * belong to no one field).
 */
import type { z } from 'zod';

export type FieldErrors<F extends string> = Partial<Record<F | 'form', string[]>>;

/** A text field as typed, or '' when missing (or a file); cut at `max` so nothing unbounded reaches a parser or argon2. */
export function formText(form: FormData, name: string, max: number): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.slice(0, max) : '';
}

export function fieldErrorsOf<F extends string>(error: z.ZodError, fields: readonly F[]): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const issue of error.issues) {
    const head = issue.path[0];
    const key = (typeof head === 'string' && (fields as readonly string[]).includes(head) ? head : 'form') as F | 'form';
    const messages = (errors[key] ??= []);
    if (!messages.includes(issue.message)) messages.push(issue.message);
  }
  return errors;
}

export function addError<F extends string>(errors: FieldErrors<F>, field: F | 'form', message: string): FieldErrors<F> {
  return { ...errors, [field]: [...(errors[field] ?? []), message] };
}
