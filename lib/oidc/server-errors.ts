/**
 * Logs an unexpected error with the request id the client also received, so a
 * report can be matched to a log line. The error's type, message and stack are
 * logged (lib/ops/log.ts); request bodies, headers and parameters (which carry
 * codes, tokens and secrets) are not.
 */
import type { Log } from '../ops/log.ts';
import { oauthError } from './errors.ts';

export type ErrorLog = Pick<Log, 'error'>;

export function logServerError(log: ErrorLog, requestId: string | undefined, error: unknown): void {
  log.error({ request_id: requestId, err: error }, 'server_error');
}

/**
 * What every server_error says, the provider's own included (extensions/error-conventions.ts, provider-pages.ts),
 * and the admin API's: nothing but the request id, which support matches to the logged error.
 */
export const serverErrorDescription = (requestId: string): string => `an unexpected error occurred (request id ${requestId})`;

/** The answer to an unexpected error: logged, and a server_error naming the request id. */
export function serverErrorResponse(log: ErrorLog, requestId: string, error: unknown): Response {
  logServerError(log, requestId, error);
  const response = oauthError(500, 'server_error', serverErrorDescription(requestId));
  response.headers.set('x-request-id', requestId);
  return response;
}
