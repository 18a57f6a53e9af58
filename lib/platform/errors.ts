/**
 * The one error of the use cases: a code from a closed list, the status it
 * maps to, and whether its message may be shown. Classes are named after their
 * codes, as oidc-provider names its errors after the spec's (its
 * lib/helpers/errors.js). Each surface translates it once: the admin API's JSON
 * (admin-api/errors.ts), the pages' form state (forms.ts), the CLI's exit status
 * (cli/gatehouse.ts). Anything else thrown is unexpected: a server_error whose
 * message is logged, never shown.
 */
import type { z } from 'zod';

export const ERRORS = {
  invalid_request: { status: 400, shown: true },
  unauthorized: { status: 401, shown: true },
  forbidden: { status: 403, shown: true },
  not_found: { status: 404, shown: true },
  conflict: { status: 409, shown: true },
  method_not_allowed: { status: 405, shown: true },
  server_error: { status: 500, shown: false },
} as const;

export type ErrorCode = keyof typeof ERRORS;
export const errorCodes = Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]];

export interface ServiceErrorOptions {
  /** The input field the failure is about, in the use case's names: a form shows the message there. */
  field?: string;
  /** Headers to answer with over HTTP (WWW-Authenticate). */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class ServiceError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly shown: boolean;
  readonly field?: string;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: ServiceErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.name = new.target.name;
    ({ status: this.status, shown: this.shown } = ERRORS[code]);
    this.field = options.field;
    this.headers = options.headers ?? {};
  }
}

/** Input that breaks the rules; `validation` holds zod's issues when a schema found it, for each surface to name the fields its own way. */
export class InvalidRequest extends ServiceError {
  readonly validation?: z.ZodError;
  constructor(message: string, options: ServiceErrorOptions & { validation?: z.ZodError } = {}) {
    super('invalid_request', message, { cause: options.validation, ...options });
    this.validation = options.validation;
  }
}

/** A ServiceError class for one code, as oidc-provider makes its own from a list. */
const withCode = (code: ErrorCode) =>
  class extends ServiceError {
    constructor(message: string, options?: ServiceErrorOptions) {
      super(code, message, options);
    }
  };

export class Unauthorized extends withCode('unauthorized') {}
export class Forbidden extends withCode('forbidden') {}
export class NotFound extends withCode('not_found') {}
/** The change conflicts with what exists: a taken name, a type that cannot change. */
export class Conflict extends withCode('conflict') {}
/** The path exists, not with this method: carries the Allow header (RFC 9110 §15.5.6). */
export class MethodNotAllowed extends withCode('method_not_allowed') {}

/** One issue of a validation failure, as every surface reads it. */
export interface NamedIssue {
  /** The issue's path joined with dots ('' for the input as a whole), its first segment renamed. */
  field: string;
  message: string;
  /** zod's own, for a reader that words it otherwise (the pages' problem codes, the audit log's field names). */
  issue: z.core.$ZodIssue;
}

/**
 * The one reading of zod's issues, which every surface words from: in zod's
 * order, each field and message once. `rename` maps a field's first segment
 * (the admin API's wire names, e.g. `redirectUris` → `redirect_uris`).
 */
export function namedIssues(error: z.ZodError, rename: Record<string, string> = {}): NamedIssue[] {
  const seen = new Set<string>();
  const named: NamedIssue[] = [];
  for (const issue of error.issues) {
    const [head, ...rest] = issue.path.map(String);
    const field = head === undefined ? '' : [Object.hasOwn(rename, head) ? rename[head] : head, ...rest].join('.');
    const key = JSON.stringify([field, issue.message]);
    if (!seen.has(key)) named.push({ field, message: issue.message, issue });
    seen.add(key);
  }
  return named;
}

/** What a validation failure says: `[field, message]` per issue (namedIssues). */
export function issueMessages(error: z.ZodError, rename: Record<string, string> = {}): Array<[field: string, message: string]> {
  return namedIssues(error, rename).map(({ field, message }) => [field, message]);
}

/** "where.field: message; ..." for the first ten issues, as one line. */
export function describeIssues(error: z.ZodError, rename: Record<string, string> = {}, where?: string): string {
  const parts = issueMessages(error, rename)
    .slice(0, 10)
    .map(([path, message]) => {
      const field = [where, path].filter(Boolean).join('.');
      return field ? `${field}: ${message}` : message;
    });
  return parts.join('; ') || 'the request is invalid';
}

/**
 * The schema's output, or an InvalidRequest with its issues. `field` names the
 * input when the schema checks one bare value (a password), so a form can show
 * the messages beside it.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, field?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidRequest(describeIssues(result.error), { validation: result.error, field });
  return result.data;
}
