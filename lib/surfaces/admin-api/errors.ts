/**
 * The admin API's translation of the use cases' one error (lib/platform/errors.ts):
 * every error answer is `{"error", "error_description"}` (the shape of RFC 6749
 * §5.2, which the provider's own endpoints use too), with the code's status.
 * Anything that is not a shown ServiceError becomes a generic `server_error`
 * carrying only the request id, which is also logged with the error itself.
 */
import { z } from 'zod';
import { logServerError, serverErrorDescription, type ErrorLog } from '../../oidc/server-errors.ts';
import { describeIssues, errorCodes, InvalidRequest, ServiceError } from '../../platform/errors.ts';

export const errorBodySchema = z
  .strictObject({
    error: z.enum(errorCodes),
    error_description: z.string(),
  })
  .meta({ id: 'Error', description: 'Every error the admin API answers. `server_error` says nothing but its request id.' });

export type ErrorBody = z.output<typeof errorBodySchema>;

/** Headers every admin API answer carries: never cached (RFC 9111 §5.2.2.5), never sniffed. */
export function apiHeaders(requestId: string): Record<string, string> {
  return { 'cache-control': 'no-store', pragma: 'no-cache', 'x-content-type-options': 'nosniff', 'x-request-id': requestId };
}

/** A request that failed its schema, its fields named as on the wire (`rename`) and by where they were (`body`, `query`, `path`). */
export function invalidRequest(error: z.ZodError, rename?: Record<string, string>, where?: string): InvalidRequest {
  return new InvalidRequest(describeIssues(error, rename, where), { validation: error });
}

/** The answer for anything thrown while serving a request; logs what is not shown. */
export function errorResponse(error: unknown, requestId: string, log: ErrorLog): Response {
  // A ZodError getting here was not a check of the request (those become
  // InvalidRequest where they happen) but of something inside, such as a
  // response failing its own schema: a bug, like anything else not a ServiceError.
  const shown = error instanceof ServiceError && error.shown ? error : undefined;
  if (!shown) logServerError(log, requestId, error);
  const body: ErrorBody = shown
    ? { error: shown.code, error_description: shown.message }
    : { error: 'server_error', error_description: serverErrorDescription(requestId) };
  return Response.json(body, { status: shown?.status ?? 500, headers: { ...apiHeaders(requestId), ...shown?.headers } });
}
