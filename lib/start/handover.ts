/**
 * The custom server's handover. `npm start` runs scripts/server.mjs, plain
 * JavaScript that cannot import the app: Next compiles the app into its build
 * and loads it itself, so the server cannot call the start-up, only wait for
 * it. Before Next runs instrumentation.ts, the server puts { resolve, reject }
 * on globalThis under this symbol, the one place both can reach; the start-up
 * (./start.ts) resolves it with the started application, or rejects it with the
 * error that stopped it. (Embedded in a custom server, Next resolves prepare()
 * before register() finishes, so the server must wait here for it.)
 */
import type { Log } from '../ops/log.ts';
import type { ServerMount } from '../oidc/mounts/node.ts';

/**
 * What scripts/server.mjs gets: every request goes to `handle`; `log` is the process's (lib/context.ts);
 * `close` is called once the server has stopped serving (SIGTERM, SIGINT), before the process exits.
 */
export interface ServerHandover {
  handle: ServerMount;
  log: Log;
  close(): Promise<void>;
}

interface Waiter {
  resolve(handover: ServerHandover): void;
  reject(error: unknown): void;
}

// The symbol scripts/server.mjs uses: keep the two in step.
const HANDOVER = Symbol.for('gatehouse.handover');
const globalForHandover = globalThis as typeof globalThis & { [HANDOVER]?: Waiter };

/** Whether scripts/server.mjs (`npm start`) waits for the start-up; false under plain `next start` and `next dev`. */
export function underCustomServer(): boolean {
  return globalForHandover[HANDOVER] !== undefined;
}

/** Hands the started application to a waiting custom server. */
export function handOver(handover: ServerHandover): void {
  globalForHandover[HANDOVER]?.resolve(handover);
}

/** Tells a waiting custom server that start-up failed, so it exits instead of serving half an app. */
export function reportStartupFailure(error: unknown): void {
  globalForHandover[HANDOVER]?.reject(error);
}
