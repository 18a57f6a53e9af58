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
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type Provider from 'oidc-provider';
import { isProviderPath } from '../../http/paths.ts';
import type { Metrics } from '../../ops/metrics.ts';
import { pinToIssuer } from '../issuer-headers.ts';
import { metricRoute } from './metric-routes.ts';
import { StaticDocuments } from './node-documents.ts';

/** Answers a request, or returns false when it is not the provider's to answer (Next serves it). */
export type ProviderMount = (req: IncomingMessage, res: ServerResponse) => boolean;

/**
 * Where scripts/server.mjs waits for the mount: it puts { resolve, reject } here
 * before Next runs instrumentation.ts, which hands over the mount or the error
 * that stopped start-up. (Next resolves prepare() before register() finishes
 * when it is embedded in a custom server.)
 */
const MOUNT = Symbol.for('gatehouse.providerMount');
interface MountWaiter {
  resolve(mount: ProviderMount): void;
  reject(error: unknown): void;
}
const globalForMount = globalThis as typeof globalThis & { [MOUNT]?: MountWaiter };

/** The mount, and how to make it serve another provider (one rebuilt on new signing keys) from the next request on. */
export function createProviderMount(
  provider: Provider,
  issuerOrigin: string,
  metrics: Pick<Metrics, 'providerRequest'>,
): { mount: ProviderMount; serve(provider: Provider): void } {
  const issuer = new URL(issuerOrigin);
  // Swapped together: the replayed documents are the served provider's own answers.
  let served = { callback: provider.callback(), documents: new StaticDocuments() };

  const mount: ProviderMount = (req, res) => {
    const { callback, documents } = served;
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const pathname = query === -1 ? url : url.slice(0, query);
    if (!isProviderPath(pathname)) return false;
    const done = metrics.providerRequest(metricRoute(pathname));
    // 'close' comes once per response, sent or cut off, where 'finish' misses the latter.
    res.once('close', () => done(res.statusCode));
    const requestId = randomUUID();
    if (documents.replay(req, res, pathname, query !== -1, requestId)) return true;
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

/**
 * Called once per process (instrumentation.ts): hands the mount to the custom
 * server, if one is waiting, behind `ahead` (the health probes), which answers
 * first or returns false. Returns what makes it serve a rebuilt provider.
 */
export function registerProviderMount(
  provider: Provider,
  issuer: string,
  metrics: Pick<Metrics, 'providerRequest'>,
  ahead?: ProviderMount,
): (provider: Provider) => void {
  const { mount, serve } = createProviderMount(provider, issuer, metrics);
  globalForMount[MOUNT]?.resolve(ahead ? (req, res) => ahead(req, res) || mount(req, res) : mount);
  return serve;
}

/** Tells a waiting custom server that start-up failed, so it exits instead of serving half an app. */
export function reportStartupFailure(error: unknown): void {
  globalForMount[MOUNT]?.reject(error);
}
