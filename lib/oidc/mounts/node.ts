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
 * answers replace the kept ones from its first request on. GET /healthz and
 * /readyz are answered here too (lib/ops/health.ts), so a probe never waits
 * behind Next's router.
 *
 * Every request the custom server gets passes here first, Next's included: each
 * gets a request id (X-Request-Id) and is observed as on the other mount
 * (lib/ops/request-observer.ts: counted and timed, the provider's by endpoint and
 * the pages, the admin API, assets and probes under routes of their own, one log
 * line, and a server span with tracing on), replays included.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { isProviderPath } from '../../http/paths.ts';
import type { Log } from '../../ops/log.ts';
import { type Metrics, serverRoute } from '../../ops/metrics.ts';
import { observeRequest, pathRoute } from '../../ops/request-observer.ts';
import { pinToIssuer } from '../issuer-headers.ts';
import { requestFacts } from '../request-facts.ts';
import { metricRoute, providerHttpRoute } from './metric-routes.ts';
import { StaticDocuments } from './node-documents.ts';

/** Answers a request, or returns false when it is not the provider's to answer (Next serves it). */
export type ProviderMount = (req: IncomingMessage, res: ServerResponse) => boolean;

/** Serves a request: answers it here, or calls `next` (Next's handler) within the request's span. */
export type ServerMount = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** Answers a provider request under the given request id, or returns false (not the provider's). */
type IdentifiedMount = (req: IncomingMessage, res: ServerResponse, requestId: string) => boolean;

/** The mount, and how to make it serve another provider (one rebuilt on new signing keys) from the next request on. */
export function createProviderMount(provider: Provider, issuerOrigin: string): { mount: IdentifiedMount; serve(provider: Provider): void } {
  const issuer = new URL(issuerOrigin);
  // Swapped together: the replayed documents are the served provider's own answers.
  let served = { callback: provider.callback(), documents: new StaticDocuments() };

  const mount: IdentifiedMount = (req, res, requestId) => {
    const { callback, documents } = served;
    const { pathname, hasQuery } = splitUrl(req.url);
    if (!isProviderPath(pathname)) return false;
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
 * Every request of the custom server: a request id, then `ahead` (the health
 * probes, /metrics), the provider, or Next (`next`), whose answer carries the
 * request id too (the admin API sets its own); observed (lib/ops/request-observer.ts:
 * counted, timed, logged, and with tracing on served within its span) until its
 * response is sent or cut off.
 */
export function createServerMount(
  mount: IdentifiedMount,
  log: Log,
  ahead?: ProviderMount,
  metrics?: Pick<Metrics, 'providerRequest' | 'serverRequest'>,
): ServerMount {
  return (req, res, next) => {
    // The id the peer stamp gave the request as it arrived (lib/platform/request-context.ts), so
    // the pages' and server actions' own log lines name the same one; a fresh one without the stamp.
    const stampedId = req.headers['x-request-id'];
    const requestId = typeof stampedId === 'string' && stampedId ? stampedId : randomUUID();
    const { pathname } = splitUrl(req.url);
    const provider = isProviderPath(pathname);
    const endpoint = provider ? metricRoute(pathname) : undefined;
    const observed = observeRequest(log, {
      requestId,
      method: req.method,
      route: endpoint ?? pathRoute(pathname),
      spanRoute: provider ? providerHttpRoute(pathname) : undefined,
      traceparent: header(req, 'traceparent'),
      tracestate: header(req, 'tracestate'),
      // The provider's requests under their endpoint, the rest under routes of their own.
      count: endpoint ? metrics?.providerRequest(endpoint) : metrics?.serverRequest(serverRoute(pathname)),
    });
    // 'close' comes once per response, sent or cut off, where 'finish' misses the latter.
    res.once('close', () => {
      const answeredId = res.getHeader('x-request-id');
      observed.end(res.statusCode, { requestId: typeof answeredId === 'string' ? answeredId : undefined, clientId: requestFacts(req).clientId });
    });
    observed.run(() => {
      if (ahead?.(req, res) || mount(req, res, requestId)) return;
      res.setHeader('X-Request-Id', requestId);
      next();
    });
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}
