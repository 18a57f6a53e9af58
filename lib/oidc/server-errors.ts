/**
 * Logs an unexpected error with the request id the client also received, so a
 * report can be matched to a log line. The message and stack are logged; request
 * bodies, headers and parameters (which carry codes, tokens and secrets) are not.
 */
import { oauthError } from './errors.ts';

export function logServerError(requestId: string | undefined, error: unknown): void {
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  console.error(`[gatehouse] server_error request_id=${requestId ?? '-'} ${detail}`);
}

/** The answer to an unexpected error: logged, and a server_error naming the request id. */
export function serverErrorResponse(requestId: string, error: unknown): Response {
  logServerError(requestId, error);
  const response = oauthError(500, 'server_error', `an unexpected error occurred (request id ${requestId})`);
  response.headers.set('x-request-id', requestId);
  return response;
}
