/**
 * The admin API's one error model: a code from a closed list, the status it
 * maps to, and whether its description is shown. Every error answer is
 * `{"error", "error_description"}` (the shape of RFC 6749 §5.2, which the
 * provider's own endpoints use too). Anything that is not an `ApiError` (or a
 * request that failed validation) becomes a generic `server_error` carrying only
 * the request id, which is also logged with the error itself.
 */
import { z } from 'zod';
import { logServerError } from '../../oidc/server-errors.ts';

export const API_ERRORS = {
  invalid_request: { status: 400, shown: true },
  unauthorized: { status: 401, shown: true },
  forbidden: { status: 403, shown: true },
  not_found: { status: 404, shown: true },
  conflict: { status: 409, shown: true },
  server_error: { status: 500, shown: false },
} as const;

export type ApiErrorCode = keyof typeof API_ERRORS;
export const apiErrorCodes = Object.keys(API_ERRORS) as [ApiErrorCode, ...ApiErrorCode[]];

export const errorBodySchema = z
  .strictObject({
    error: z.enum(apiErrorCodes),
    error_description: z.string(),
  })
  .meta({ id: 'Error', description: 'Every error the admin API answers. `server_error` says nothing but its request id.' });

export type ErrorBody = z.output<typeof errorBodySchema>;

/** An expected failure: its code, a description safe to show, and headers (WWW-Authenticate) to send with it. */
export class ApiError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    readonly description: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(description);
    this.name = 'ApiError';
  }
}

/** Headers every admin API answer carries: never cached (RFC 9111 §5.2.2.5), never sniffed. */
export function apiHeaders(requestId: string): Record<string, string> {
  return { 'cache-control': 'no-store', pragma: 'no-cache', 'x-content-type-options': 'nosniff', 'x-request-id': requestId };
}

/**
 * How a validation failure reads: each issue as `field: message`, with the
 * field named as on the wire (`rename` maps a use case's field names to the
 * wire's, e.g. `redirectUris` → `redirect_uris`).
 */
export function describeIssues(error: z.ZodError, rename: Record<string, string> = {}, where?: string): string {
  const parts = error.issues.slice(0, 10).map((issue) => {
    const [head, ...rest] = issue.path.map(String);
    const path = head === undefined ? '' : [rename[head] ?? head, ...rest].join('.');
    const field = [where, path].filter(Boolean).join('.');
    return field ? `${field}: ${issue.message}` : issue.message;
  });
  return [...new Set(parts)].join('; ') || 'the request is invalid';
}

export function invalidRequest(error: z.ZodError, rename?: Record<string, string>, where?: string): ApiError {
  return new ApiError('invalid_request', describeIssues(error, rename, where));
}

/** The answer for anything thrown while serving a request; logs what is not shown. */
export function errorResponse(error: unknown, requestId: string): Response {
  let code: ApiErrorCode = 'server_error';
  let description = `an unexpected error occurred (request id ${requestId})`;
  let headers: Record<string, string> = {};
  // Only failures raised as ApiError are shown. A ZodError getting here was not
  // a check of the request (those become ApiError where they happen) but of
  // something inside, such as a response failing its own schema: a bug.
  if (error instanceof ApiError && API_ERRORS[error.code].shown) {
    ({ code, description, headers } = error);
  } else {
    logServerError(requestId, error);
  }
  const body: ErrorBody = { error: code, error_description: description };
  return Response.json(body, { status: API_ERRORS[code].status, headers: { ...apiHeaders(requestId), ...headers } });
}
