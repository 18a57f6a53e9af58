/**
 * Logs an unexpected error with the request id the client also received, so a
 * report can be matched to a log line. The error's type, message and stack are
 * logged (lib/ops/log.ts); request bodies, headers and parameters (which carry
 * codes, tokens and secrets) are not. An error that comes from Redis being lost
 * (lib/db/redis-health.ts) says so in the line's `store` field, so an operator
 * searching the log for the 500s of an outage finds them by name.
 */
import { isRedisUnavailable } from '../db/redis-health.ts';
import type { Log } from '../ops/log.ts';
import { oauthError } from './errors.ts';

export type ErrorLog = Pick<Log, 'error'>;

/** `fields`: what else names the request (a page's route, never its path: lib/ops/request-log.ts says why). */
export function logServerError(log: ErrorLog, requestId: string | undefined, error: unknown, fields: { route?: string } = {}): void {
  if (fromRedis(error)) log.error({ request_id: requestId, ...fields, store: 'redis', err: error }, 'server_error: Redis is unavailable');
  else log.error({ request_id: requestId, ...fields, err: error }, 'server_error');
}

/** Whether the error, or one it was caused by, is Redis being unavailable. */
function fromRedis(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (isRedisUnavailable(e)) return true;
  }
  return false;
}

/** The answer to an unexpected error: logged, and a server_error naming the request id. */
export function serverErrorResponse(log: ErrorLog, requestId: string, error: unknown): Response {
  logServerError(log, requestId, error);
  const response = oauthError(500, 'server_error', `an unexpected error occurred (request id ${requestId})`);
  response.headers.set('x-request-id', requestId);
  return response;
}
