/**
 * GET /metrics in Prometheus' text format on a port of its own (METRICS_PORT,
 * on METRICS_HOST, loopback by default), apart from the issuer's: the figures
 * are for the operator, and a separate listener cannot be reached through the
 * load balancer or the proxy that fronts the issuer. No authentication, so
 * exposing it beyond loopback is a decision made with METRICS_HOST.
 *
 * Started by instrumentation.ts, which runs under `npm start` and plain
 * `next start` alike; once per process, however many module graphs load this.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Metrics } from './metrics.ts';

const SERVER = Symbol.for('gatehouse.metricsServer');
const globalForServer = globalThis as typeof globalThis & { [SERVER]?: Promise<MetricsServer> };

export interface MetricsServer {
  /** Where it listens, e.g. http://127.0.0.1:9464/metrics. */
  readonly url: string;
  close(): Promise<void>;
}

export function createMetricsServer(metrics: Pick<Metrics, 'registry'>): Server {
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
        console.error('[gatehouse] metrics: collecting failed:', error);
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('collecting the metrics failed\n');
      },
    );
  });
  // Never what keeps a stopping server alive: it goes with the process.
  server.unref();
  return server;
}

/** Listens once per process; a second call gets the first server. Rejects when the port is taken. */
export function startMetricsServer(metrics: Pick<Metrics, 'registry'>, { host, port }: { host: string; port: number }): Promise<MetricsServer> {
  globalForServer[SERVER] ??= new Promise<MetricsServer>((resolve, reject) => {
    const server = createMetricsServer(metrics);
    server.once('error', (error) => {
      delete globalForServer[SERVER];
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
  return globalForServer[SERVER];
}
