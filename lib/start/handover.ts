/**
 * The custom server's handover. `npm start` runs scripts/server.mjs, plain
 * JavaScript that cannot import the app: Next compiles the app into its build
 * and loads it itself, so the server cannot call the start-up, only wait for
 * it. Before Next runs instrumentation.ts, the server puts { resolve, reject }
 * on globalThis under this symbol, the one place both can reach; the start-up
 * (./start.ts) resolves it with the started application, or rejects it with the
 * error that stopped it. (Embedded in a custom server, Next resolves prepare()
 * before register() finishes, so the server must wait here for it.)
 *
 * In a worker of several (WORKERS, scripts/primary.mjs) the waiter also offers
 * the primary's side: what must be one per server, not one per worker.
 */
import type { Registry } from 'prom-client';
import type { Log } from '../ops/log.ts';
import type { ServerMount } from '../oidc/mounts/node.ts';

/**
 * What scripts/server.mjs gets: every request goes to `handle`; `log` is the process's (lib/context.ts);
 * `close` is called once the server has stopped serving (SIGTERM, SIGINT), before the process exits;
 * `collectMetrics` is what a worker hands its primary to sum (its registry as prom-client's JSON).
 */
export interface ServerHandover {
  handle: ServerMount;
  log: Log;
  close(): Promise<void>;
  collectMetrics(): ReturnType<Registry['getMetricsAsJSON']>;
}

/** A worker's way to its primary (scripts/cluster-worker.mjs). */
export interface ClusterWorker {
  /** How many workers the server runs (WORKERS). */
  readonly workers: number;
  /**
   * Has the primary listen on METRICS_HOST:METRICS_PORT, once for every worker: its URL, or the
   * listen's error (a port that is taken), which stops this start as it stops one process's.
   */
  serveMetrics(listen: { host: string; port: number }): Promise<string>;
  /** Every serving worker's figures summed, in Prometheus' text format (what METRICS_PORT answers). */
  scrape(): Promise<string>;
}

interface Waiter {
  resolve(handover: ServerHandover): void;
  reject(error: unknown): void;
  workers?: ClusterWorker;
}

// The symbol scripts/server.mjs uses: keep the two in step.
const HANDOVER = Symbol.for('gatehouse.handover');
const globalForHandover = globalThis as typeof globalThis & { [HANDOVER]?: Waiter };

/** Whether scripts/server.mjs (`npm start`) waits for the start-up; false under plain `next start` and `next dev`. */
export function underCustomServer(): boolean {
  return globalForHandover[HANDOVER] !== undefined;
}

/** The primary's side when this process is one worker of several (WORKERS above 1), else undefined. */
export function clusterWorker(): ClusterWorker | undefined {
  return globalForHandover[HANDOVER]?.workers;
}

/** Hands the started application to a waiting custom server. */
export function handOver(handover: ServerHandover): void {
  globalForHandover[HANDOVER]?.resolve(handover);
}

/** Tells a waiting custom server that start-up failed, so it exits instead of serving half an app. */
export function reportStartupFailure(error: unknown): void {
  globalForHandover[HANDOVER]?.reject(error);
}
