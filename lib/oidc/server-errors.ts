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

/** The answer to an unexpected error: logged, and a server_error naming the request id. */
export function serverErrorResponse(log: ErrorLog, requestId: string, error: unknown): Response {
  logServerError(log, requestId, error);
  const response = oauthError(500, 'server_error', `an unexpected error occurred (request id ${requestId})`);
  response.headers.set('x-request-id', requestId);
  return response;
}
