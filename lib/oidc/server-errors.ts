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
import { escapeHtml } from './html.ts';

export type ErrorLog = Pick<Log, 'error'>;

/** `fields`: what else names the request (a page's route, never its path: lib/ops/request-observer.ts says why). */
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

/**
 * A server_error the provider sends back to the client (RFC 6749 §4.1.2.1) in the redirect's query or
 * fragment, with the request id for its error_description in place of the provider's "oops! something
 * went wrong"; undefined for any other address. The other parameters (state, iss) stay as they are.
 */
export function serverErrorRedirect(location: string, requestId: string): string | undefined {
  if (!location.includes('server_error')) return undefined; // every sign-in's redirect passes here
  let url: URL;
  try {
    url = new URL(location);
  } catch {
    return undefined;
  }
  if (url.searchParams.get('error') === 'server_error') {
    url.searchParams.set('error_description', serverErrorDescription(requestId));
    return url.toString();
  }
  const fragment = new URLSearchParams(url.hash.slice(1));
  if (fragment.get('error') !== 'server_error') return undefined;
  fragment.set('error_description', serverErrorDescription(requestId));
  url.hash = fragment.toString();
  return url.toString();
}

/** The provider's form_post page (response_mode=form_post) of a server_error, with the request id for its description. */
export function serverErrorFormPost(html: string, requestId: string): string | undefined {
  const description = /<input type="hidden" name="error_description" value="[^"]*"\/>/;
  if (!html.includes('<input type="hidden" name="error" value="server_error"/>') || !description.test(html)) return undefined;
  return html.replace(description, `<input type="hidden" name="error_description" value="${escapeHtml(serverErrorDescription(requestId))}"/>`);
}
