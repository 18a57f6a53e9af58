/**
 * What is observed of every request, on both mounts (the custom server's,
 * lib/oidc/mounts/node.ts, and Next's route handlers, lib/oidc/mounts/next-route.ts),
 * in one place: its duration, its count in the metrics (lib/ops/metrics.ts), its
 * server span when tracing is on (lib/ops/tracing.ts; none for the probes), and
 * one log line.
 *
 * The log line, when its answer is complete: its request id (the
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
import { type RequestSpan, tracing } from './tracing.ts';

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

/** How a request is named as it arrives: what its observation records. */
export interface ObservedRequest {
  requestId: string;
  method: string | undefined;
  /** Its bounded name in the log line (and its span's, unless `spanRoute` says otherwise). */
  route: string;
  /** Its name as the span's http.route (the provider's endpoints by their path pattern). */
  spanRoute?: string;
  traceparent?: string | null;
  tracestate?: string | null;
  /** Counts and times it in the metrics once its status is known (Metrics.providerRequest or serverRequest). */
  count?: (status: number) => void;
}

export interface RequestObservation {
  /** Its server span's ids when it is traced. */
  readonly span?: { traceId: string; spanId: string };
  /** Serves it within its span, when it has one. */
  run<T>(serve: () => T): T;
  /** Once its answer is complete: the span ends, the count and the log line are written. The request id answered wins. */
  end(status: number, answered?: { requestId?: string; clientId?: string }): void;
}

/** Starts observing a request as it arrives (see above). */
export function observeRequest(log: Pick<Log, 'info' | 'debug'>, request: ObservedRequest): RequestObservation {
  const started = performance.now();
  const span: RequestSpan | undefined = isProbeRoute(request.route)
    ? undefined
    : tracing()?.requestSpan({
        method: request.method,
        route: request.spanRoute ?? request.route,
        traceparent: request.traceparent,
        tracestate: request.tracestate,
      });
  return {
    span,
    run: (serve) => (span ? span.run(serve) : serve()),
    end(status, answered = {}) {
      const requestId = answered.requestId ?? request.requestId;
      span?.end({ status, requestId, clientId: answered.clientId });
      request.count?.(status);
      logRequest(log, {
        requestId,
        method: request.method,
        route: request.route,
        status,
        durationMs: performance.now() - started,
        clientId: answered.clientId,
        span,
      });
    },
  };
}
