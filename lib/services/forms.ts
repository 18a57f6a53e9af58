/**
 * What the pages' forms read back from a use case: messages by field, `form`
 * for any that belong to no one field. `formErrors` is the pages' one
 * translation of a ServiceError (errors.ts); what is not one, or not to be
 * shown, is thrown on to the page's error boundary.
 */
import type { z } from 'zod';
import { InvalidRequest, issueMessages, ServiceError } from './errors.ts';

export type FieldErrors<F extends string> = Partial<Record<F | 'form', string[]>>;

/** A text field as typed, or '' when missing (or a file); cut at `max` so nothing unbounded reaches a parser or argon2. */
export function formText(form: FormData, name: string, max: number): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.slice(0, max) : '';
}

/** A validation failure's messages under the form's fields (a bad redirect URI at index 2 belongs to the redirectUris box); `whole` takes those about the input as a whole. */
export function fieldErrors<F extends string>(error: z.ZodError, fields: readonly F[], whole?: F): FieldErrors<F> {
  let errors: FieldErrors<F> = {};
  for (const [path, message] of issueMessages(error)) {
    const head = path.split('.')[0];
    const field = (fields as readonly string[]).includes(head) ? (head as F) : (whole ?? 'form');
    if (!errors[field]?.includes(message)) errors = addError(errors, field, message);
  }
  return errors;
}

/**
 * A use case's expected failure as the form shows it: a validation failure's
 * messages by field, any other shown error's message under its field (or
 * `form`). `wording` is what this form says instead of the use case's message
 * about a field (a taken username: "this username is taken").
 */
export function formErrors<F extends string>(error: unknown, fields: readonly F[], wording: Partial<Record<F, string>> = {}): FieldErrors<F> {
  if (!(error instanceof ServiceError) || !error.shown) throw error;
  const field = (fields as readonly string[]).includes(error.field ?? '') ? (error.field as F) : undefined;
  if (error instanceof InvalidRequest && error.validation) return fieldErrors(error.validation, fields, field);
  return { [field ?? 'form']: [(field && wording[field]) || error.message] } as FieldErrors<F>;
}

export function addError<F extends string>(errors: FieldErrors<F>, field: F | 'form', message: string): FieldErrors<F> {
  return { ...errors, [field]: [...(errors[field] ?? []), message] };
}
