/**
 * GET /metrics in Prometheus' text format on a port of its own (METRICS_PORT,
 * on METRICS_HOST, loopback by default), apart from the issuer's: the figures
 * are for the operator, and a separate listener cannot be reached through the
 * load balancer or the proxy that fronts the issuer. No authentication, so
 * exposing it beyond loopback is a decision made with METRICS_HOST.
 *
 * Started by the start-up (lib/start/steps.ts), which runs under `npm start` and plain
 * `next start` alike, once per process.
 *
 * The alternative, for a scraper that reaches only the issuer's port: with
 * METRICS_TOKEN set, GET /metrics there answers `Authorization: Bearer <token>`
 * (metricsMount ahead of Next under `npm start`, app/metrics under `next start`)
 * and 401 anything else.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerToken } from '../http/bearer.ts';
import { STATIC_SECURITY_HEADERS } from '../http/security-headers.ts';
import type { Log } from './log.ts';

/**
 * What /metrics answers: the process's registry (lib/ops/metrics.ts), or in a worker of several, every
 * worker's figures summed by the primary (lib/start/handover.ts ClusterWorker).
 */
export interface MetricsText {
  registry: { metrics(): Promise<string>; readonly contentType: string };
}

/** The process's listener: the start-up runs once per process (lib/start/start.ts), so one module graph starts it. */
let started: Promise<MetricsServer> | undefined;

export interface MetricsServer {
  /** Where it listens, e.g. http://127.0.0.1:9464/metrics. */
  readonly url: string;
  close(): Promise<void>;
}

export function createMetricsServer(metrics: MetricsText, log: Pick<Log, 'error'>): Server {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: GET /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        log.error({ err: error }, 'metrics: collecting failed');
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('collecting the metrics failed\n');
      },
    );
  });
  // Never what keeps a stopping server alive: it goes with the process.
  server.unref();
  return server;
}

/** Listens once per process; a second call gets the first server. Rejects when the port is taken. */
export function startMetricsServer(metrics: MetricsText, { host, port, log }: { host: string; port: number; log: Pick<Log, 'error'> }): Promise<MetricsServer> {
  started ??= new Promise<MetricsServer>((resolve, reject) => {
    const server = createMetricsServer(metrics, log);
    server.once('error', (error) => {
      started = undefined;
      reject(error);
    });
    server.listen(port, host, () => {
      const { address, port: bound } = server.address() as AddressInfo;
      const url = `http://${address.includes(':') ? `[${address}]` : address}:${bound}/metrics`;
      resolve({
        url,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
  return started;
}

/**
 * Whether an Authorization header carries METRICS_TOKEN. Both sides are hashed
 * first, so the comparison takes the same time whatever the presented token's
 * length or its first differing character (timingSafeEqual needs equal lengths).
 */
export function metricsTokenCheck(token: string): (authorization: string | null | undefined) => 'ok' | 'missing' | 'wrong' {
  const expected = createHash('sha256').update(token).digest();
  return (authorization) => {
    const presented = bearerToken(authorization);
    if (presented === undefined) return 'missing';
    return timingSafeEqual(createHash('sha256').update(presented).digest(), expected) ? 'ok' : 'wrong';
  };
}

const NO_STORE: Record<string, string> = { ...Object.fromEntries(STATIC_SECURITY_HEADERS), 'Cache-Control': 'no-store' };

/** The status, headers and body of GET /metrics on the issuer's port. */
async function metricsAnswer(
  metrics: MetricsText,
  check: ReturnType<typeof metricsTokenCheck>,
  authorization: string | null | undefined,
  log: Pick<Log, 'error'>,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const verdict = check(authorization);
  if (verdict !== 'ok') {
    // RFC 6750 §3.1: no error code when no credentials were sent at all.
    const challenge = verdict === 'wrong' ? 'Bearer realm="metrics", error="invalid_token"' : 'Bearer realm="metrics"';
    return {
      status: 401,
      headers: { ...NO_STORE, 'WWW-Authenticate': challenge, 'Content-Type': 'text/plain; charset=utf-8' },
      body: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>\n',
    };
  }
  try {
    const text = await metrics.registry.metrics();
    return { status: 200, headers: { ...NO_STORE, 'Content-Type': metrics.registry.contentType }, body: text };
  } catch (error) {
    log.error({ err: error }, 'metrics: collecting failed');
    return { status: 500, headers: { ...NO_STORE, 'Content-Type': 'text/plain; charset=utf-8' }, body: 'collecting the metrics failed\n' };
  }
}

/**
 * For `npm start`, ahead of Next (lib/oidc/mounts/node.ts): answers GET and HEAD
 * /metrics when METRICS_TOKEN is set, or returns false for Next to serve the request.
 */
export function metricsMount(metrics: MetricsText, token: string, log: Pick<Log, 'error'>): (req: IncomingMessage, res: ServerResponse) => boolean {
  const check = metricsTokenCheck(token);
  return (req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    if ((query === -1 ? url : url.slice(0, query)) !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    void metricsAnswer(metrics, check, req.headers.authorization, log).then(({ status, headers, body }) => {
      res.writeHead(status, headers);
      res.end(req.method === 'HEAD' ? undefined : body);
    });
    return true;
  };
}

/** For `next start`: app/metrics/route.ts. Without METRICS_TOKEN, /metrics is not served on this port. */
export async function metricsResponse(request: Request, metrics: MetricsText, token: string | undefined, log: Pick<Log, 'error'>): Promise<Response> {
  if (!token) return new Response('Not found\n', { status: 404, headers: { ...NO_STORE, 'Content-Type': 'text/plain; charset=utf-8' } });
  const { status, headers, body } = await metricsAnswer(metrics, metricsTokenCheck(token), request.headers.get('authorization'), log);
  return new Response(request.method === 'HEAD' ? null : body, { status, headers });
}
