/**
 * What the pages' forms read back from a use case: problems (codes the page words
 * in its language) by field, `form` for any that belong to no one field.
 * `formProblems` is the pages' one translation of a ServiceError (errors.ts);
 * what is not one, or not to be shown, is thrown on to the page's error boundary.
 */
import type { z } from 'zod';
import { InvalidRequest, issueMessages, namedIssues, ServiceError } from './errors.ts';

export type FieldErrors<F extends string> = Partial<Record<F | 'form', string[]>>;

/** A text field as typed, or '' when missing (or a file); cut at `max` so nothing unbounded reaches a parser or argon2. */
export function formText(form: FormData, name: string, max: number): string {
  const value = form.get(name);
  return typeof value === 'string' ? value.slice(0, max) : '';
}

/**
 * A validation failure's English messages (what the admin API and the CLI say) under the form's fields (a bad
 * redirect URI at index 2 belongs to the redirectUris box); `whole` takes those about the input as a whole.
 */
export function fieldErrors<F extends string>(error: z.ZodError, fields: readonly F[], whole?: F): FieldErrors<F> {
  const errors: FieldErrors<F> = {};
  for (const [path, message] of issueMessages(error)) {
    const head = path.split('.')[0];
    const field = (fields as readonly string[]).includes(head) ? (head as F) : (whole ?? 'form');
    if (!errors[field]?.includes(message)) errors[field] = [...(errors[field] ?? []), message];
  }
  return errors;
}

/**
 * A refusal in no language, for the forms of the pages (sign-up, the mailed links' pages, /account, the
 * admin portal): a code the page words in its language (lib/i18n/problems.ts, the catalogs' `problems`),
 * with its arguments. The admin API and the CLI read the use cases' English messages instead.
 */
export interface Problem {
  code: ProblemCode;
  values?: Record<string, string | number>;
}
export type FieldProblems<F extends string> = Partial<Record<F | 'form', Problem[]>>;

/** Every code a use case gives; each has a message under `problems` in every catalog (messages.test.ts checks). */
export const problemCodes = [
  // A schema's checks, whatever the field (issueProblem); the catalogs may word them per field (`problems.<field>.<code>`).
  'required',
  'too_short',
  'too_long',
  'invalid_email',
  'invalid_format',
  'invalid',
  // The ServiceError codes (errors.ts) a form can meet.
  'conflict',
  'forbidden',
  'not_found',
  'unauthorized',
  // Named refusals.
  'throttled',
  'mismatch',
  'same_password',
  'common_password',
  'email_domain',
  'invitation_needs_email',
  'wrong_password',
  'mail_failed',
  'mail_off',
  'code_missing',
  'code_letters',
  'code_length',
  'wrong_code',
  'enrolment_missing',
  'two_step_on',
  'two_step_off',
  'no_second_factor',
  'passkey_expired',
  'passkey_invalid',
  'passkey_failed',
  'passkey_registered',
  'passkey_removed',
  'passkey_exists',
  'passkey_cancelled',
  'passkey_security',
  'passkey_unsupported',
  'unconfirmed',
  // A client registration's rules (lib/clients/manage.ts), as the admin portal's client form shows them.
  'uri_not_absolute',
  'uri_fragment',
  'uri_credentials',
  'uri_not_https',
  'auth_method_public',
  'auth_method_confidential',
  'redirect_uri_needed',
  'refresh_needs_code',
  'credentials_need_secret',
  'public_resource_server',
  'introspect_without_resource_server',
  'introspect_with_user_grant',
  'admin_scope_without_admin_api',
  'admin_scope_with_user_grant',
  'managed_client',
] as const;
export type ProblemCode = (typeof problemCodes)[number];

const isProblemCode = (code: unknown): code is ProblemCode => typeof code === 'string' && (problemCodes as readonly string[]).includes(code);

/** "Too many attempts; try again in …": the wait in seconds, which the page words in minutes or hours. */
export const throttledProblem = ({ retryAfterSeconds }: { retryAfterSeconds: number }): Problem => ({
  code: 'throttled',
  values: { seconds: Math.max(1, Math.ceil(retryAfterSeconds)) },
});

/**
 * One zod issue as a Problem: its kind and bounds (a string of at least one character is `required`); a
 * refinement names its own code in `params.code` (`{ params: { code: 'mismatch' } }`), its other params
 * become the message's arguments.
 */
export function issueProblem(issue: z.core.$ZodIssue): Problem {
  switch (issue.code) {
    case 'too_small':
      return issue.origin === 'string' && Number(issue.minimum) <= 1 ? { code: 'required' } : { code: 'too_short', values: { minimum: Number(issue.minimum) } };
    case 'too_big':
      return { code: 'too_long', values: { maximum: Number(issue.maximum) } };
    case 'invalid_format':
      return { code: issue.format === 'email' ? 'invalid_email' : 'invalid_format' };
    case 'custom': {
      const { code, ...params } = issue.params ?? {};
      const values = Object.fromEntries(
        Object.entries(params).filter((entry): entry is [string, string | number] => ['string', 'number'].includes(typeof entry[1])),
      );
      return isProblemCode(code) ? { code, ...(Object.keys(values).length ? { values } : {}) } : { code: 'invalid' };
    }
    default:
      return { code: 'invalid' };
  }
}

export function addProblem<F extends string>(problems: FieldProblems<F>, field: F | 'form', problem: Problem): FieldProblems<F> {
  const known = problems[field] ?? [];
  if (known.some((p) => p.code === problem.code && JSON.stringify(p.values) === JSON.stringify(problem.values))) return problems;
  return { ...problems, [field]: [...known, problem] };
}

/** A validation failure's problems under the form's fields (as fieldErrors places messages); `whole` takes those about the input as a whole. */
export function fieldProblems<F extends string>(error: z.ZodError, fields: readonly F[], whole?: F): FieldProblems<F> {
  let problems: FieldProblems<F> = {};
  for (const { field: path, issue } of namedIssues(error)) {
    const head = path.split('.')[0];
    const field = (fields as readonly string[]).includes(head) ? (head as F) : (whole ?? 'form');
    problems = addProblem(problems, field, issueProblem(issue));
  }
  return problems;
}

/** A use case's expected failure as problems by field, as formErrors does with messages; anything else is thrown on. */
export function formProblems<F extends string>(error: unknown, fields: readonly F[]): FieldProblems<F> {
  if (!(error instanceof ServiceError) || !error.shown) throw error;
  const field = (fields as readonly string[]).includes(error.field ?? '') ? (error.field as F) : undefined;
  if (error instanceof InvalidRequest && error.validation) return fieldProblems(error.validation, fields, field);
  const code = isProblemCode(error.code) ? error.code : 'invalid';
  return { [field ?? 'form']: [{ code }] } as FieldProblems<F>;
}
