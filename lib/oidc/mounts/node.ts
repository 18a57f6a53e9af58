/**
 * The provider's mount under `npm start`: the custom server (scripts/server.mjs)
 * hands /oauth/* and /.well-known/* to it ahead of Next's router, and everything
 * else to Next. Next's route handlers (./next-route.ts) stay the mount for
 * `next dev` and plain `next start`; the protocol tests run against both.
 *
 * Why: a request through a Next route handler costs more than the provider's
 * own answer to a token or introspection request (bench/results/notes-2026-11-22.md).
 *
 * A transport only, as ./next-route.ts: host and scheme pinned to the issuer
 * (lib/oidc/issuer-headers.ts), a request id, then the provider's own chain,
 * where every extension lives (lib/oidc/extensions/). Discovery and the JWKS are
 * replayed from the provider's first answer (./node-documents.ts says why here);
 * a provider rebuilt on new signing keys replaces the old one here, and its
 * answers replace the kept ones from its first request on.
 * Each request is counted and timed (lib/ops/metrics.ts) until its response is
 * sent, replays included. GET /healthz and /readyz are answered here too
 * (lib/ops/health.ts), so a probe never waits behind Next's router.
 *
 * Every request the custom server gets passes here first, Next's included: each
 * is counted and timed (pages, the admin API, assets and probes under routes of
 * their own: `serverRoute`), gets a request id (X-Request-Id) and one log line (lib/ops/request-log.ts)
 * when its response is sent, and, with tracing on (lib/ops/tracing.ts), a server
 * span in which it is served, Next's pages too.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { isProviderPath } from '../../http/paths.ts';
import type { Log } from '../../ops/log.ts';
import { type Metrics, serverRoute } from '../../ops/metrics.ts';
import { isProbeRoute, logRequest, pathRoute } from '../../ops/request-log.ts';
import { tracing } from '../../ops/tracing.ts';
import { pinToIssuer } from '../issuer-headers.ts';
import { requestFacts } from '../request-facts.ts';
import { metricRoute, providerHttpRoute } from './metric-routes.ts';
import { StaticDocuments } from './node-documents.ts';

/** Answers a request, or returns false when it is not the provider's to answer (Next serves it). */
export type ProviderMount = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Serves a request: answers it here, or calls `next` (Next's handler) within the request's span. */
export type ServerMount = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * What scripts/server.mjs gets: every request goes to `handle`; `log` is the process's (lib/context.ts);
 * `close` is called once the server has stopped serving (SIGTERM, SIGINT), before the process exits.
 */
export interface ServerHandover {
  handle: ServerMount;
  log: Log;
  close(): Promise<void>;
}

/**
 * Where scripts/server.mjs waits for the mount: it puts { resolve, reject } here
 * before Next runs instrumentation.ts, which hands over the mount or the error
 * that stopped start-up. (Next resolves prepare() before register() finishes
 * when it is embedded in a custom server.)
 */
const MOUNT = Symbol.for('gatehouse.providerMount');
interface MountWaiter {
  resolve(handover: ServerHandover): void;
  reject(error: unknown): void;
}
const globalForMount = globalThis as typeof globalThis & { [MOUNT]?: MountWaiter };

/** Answers a provider request under the given request id, or returns false (not the provider's). */
type IdentifiedMount = (req: IncomingMessage, res: ServerResponse, requestId: string) => boolean;

/** The mount, and how to make it serve another provider (one rebuilt on new signing keys) from the next request on. */
export function createProviderMount(
  provider: Provider,
  issuerOrigin: string,
  metrics: Pick<Metrics, 'providerRequest'>,
): { mount: IdentifiedMount; serve(provider: Provider): void } {
  const issuer = new URL(issuerOrigin);
  // Swapped together: the replayed documents are the served provider's own answers.
  let served = { callback: provider.callback(), documents: new StaticDocuments() };

  const mount: IdentifiedMount = (req, res, requestId) => {
    const { callback, documents } = served;
    const { pathname, hasQuery } = splitUrl(req.url);
    if (!isProviderPath(pathname)) return false;
    const done = metrics.providerRequest(metricRoute(pathname));
    // 'close' comes once per response, sent or cut off, where 'finish' misses the latter.
    res.once('close', () => done(res.statusCode));
    if (documents.replay(req, res, pathname, hasQuery, requestId)) return true;
    pinToIssuer(req.headers, issuer, requestId);
    callback(req, res);
    return true;
  };
  return {
    mount,
    serve(next) {
      if (next !== provider) served = { callback: next.callback(), documents: new StaticDocuments() };
      provider = next;
    },
  };
}

function splitUrl(url = '/'): { pathname: string; hasQuery: boolean } {
  const query = url.indexOf('?');
  return { pathname: query === -1 ? url : url.slice(0, query), hasQuery: query !== -1 };
}

/**
 * Every request of the custom server: a request id, a log line once answered,
 * then `ahead` (the health probes, /metrics), the provider, or Next (`next`),
 * whose answer carries the request id too (the admin API sets its own). With
 * tracing on, all of it runs in the request's server span (no span for probes).
 */
export function createServerMount(mount: IdentifiedMount, log: Log, ahead?: ProviderMount, metrics?: Pick<Metrics, 'serverRequest'>): ServerMount {
  return (req, res, next) => {
    const started = performance.now();
    // The id the peer stamp gave the request as it arrived (lib/platform/request-context.ts), so
    // the pages' and server actions' own log lines name the same one; a fresh one without the stamp.
    const stampedId = req.headers['x-request-id'];
    const requestId = typeof stampedId === 'string' && stampedId ? stampedId : randomUUID();
    const { pathname } = splitUrl(req.url);
    const provider = isProviderPath(pathname);
    const route = provider ? metricRoute(pathname) : pathRoute(pathname);
    // The provider's own requests are counted by its mount, under their endpoint.
    const counted = provider ? undefined : metrics?.serverRequest(serverRoute(pathname));
    const span = isProbeRoute(route)
      ? undefined
      : tracing()?.requestSpan({
          method: req.method,
          route: provider ? providerHttpRoute(pathname) : route,
          traceparent: header(req, 'traceparent'),
          tracestate: header(req, 'tracestate'),
        });
    res.once('close', () => {
      const answeredId = res.getHeader('x-request-id');
      const clientId = requestFacts(req).clientId;
      const id = typeof answeredId === 'string' ? answeredId : requestId;
      span?.end({ status: res.statusCode, requestId: id, clientId });
      counted?.(res.statusCode);
      logRequest(log, { requestId: id, method: req.method, route, status: res.statusCode, durationMs: performance.now() - started, clientId, span });
    });
    const serve = () => {
      if (ahead?.(req, res) || mount(req, res, requestId)) return;
      res.setHeader('X-Request-Id', requestId);
      next();
    };
    if (span) span.run(serve);
    else serve();
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Called once per process (instrumentation.ts): hands the mount, the log and what
 * closes the process's resources to the custom server, if one is waiting, behind `ahead` (the health probes),
 * which answers first or returns false. Returns what makes it serve a rebuilt provider.
 */
export function registerProviderMount(
  provider: Provider,
  issuer: string,
  metrics: Pick<Metrics, 'providerRequest' | 'serverRequest'>,
  log: Log,
  close: () => Promise<void>,
  ahead?: ProviderMount,
): (provider: Provider) => void {
  const { mount, serve } = createProviderMount(provider, issuer, metrics);
  globalForMount[MOUNT]?.resolve({ handle: createServerMount(mount, log, ahead, metrics), log, close });
  return serve;
}

/** Whether scripts/server.mjs (`npm start`) waits for the mount; false under plain `next start` and `next dev`. */
export function underCustomServer(): boolean {
  return globalForMount[MOUNT] !== undefined;
}

/** Tells a waiting custom server that start-up failed, so it exits instead of serving half an app. */
export function reportStartupFailure(error: unknown): void {
  globalForMount[MOUNT]?.reject(error);
}
