/**
 * One log line per request, when its answer is complete: its request id (the
 * X-Request-Id the client got), method, route, status, duration and, for the
 * provider's endpoints, the client it was for; with tracing on, the ids of its
 * server span (lib/ops/tracing.ts). At info; the health probes' and metrics
 * scrapes' requests at debug, so a probe every few seconds does not drown the log.
 *
 * The route is a bounded name, never the request's path or query as sent:
 * the query carries codes and state, and paths carry tokens (a reset link's
 * /password-reset/{token}) and ids.
 */
import type { Log } from './log.ts';

export interface RequestLine {
  requestId: string;
  method: string | undefined;
  route: string;
  status: number;
  /** Since the request arrived, in milliseconds. */
  durationMs: number;
  clientId?: string;
  /** The request's server span (lib/ops/tracing.ts), when it is traced. */
  span?: { traceId: string; spanId: string };
}

/** Asked every few seconds by a prober or a scraper: logged at debug, never traced. */
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

export const isProbeRoute = (route: string): boolean => PROBES.has(route);

export function logRequest(log: Pick<Log, 'info' | 'debug'>, { requestId, method, route, status, durationMs, clientId, span }: RequestLine): void {
  const line = {
    request_id: requestId,
    method,
    route,
    status,
    duration_ms: Math.round(durationMs * 10) / 10,
    client_id: clientId,
    trace_id: span?.traceId,
    span_id: span?.spanId,
  };
  if (PROBES.has(route)) log.debug(line, 'request');
  else log.info(line, 'request');
}

/** The longest route logged: a path can be as long as a client likes. */
const MAX_ROUTE = 200;

/**
 * A page's path as a route: every segment that could be an id or a token (a
 * digit in it, or 16 characters and more: uids, reset tokens, Next's hashed
 * asset names) becomes `:id`. Route names in app/ have neither.
 */
export function pathRoute(pathname: string): string {
  const route = pathname
    .split('/')
    .map((segment) => (segment.length >= 16 || /\d/.test(segment) ? ':id' : segment))
    .join('/');
  return route.length > MAX_ROUTE ? `${route.slice(0, MAX_ROUTE)}...` : route;
}
