// The production server behind `npm start` (Next's custom-server pattern). What it
// serves ahead of Next (the provider, the probes, /metrics) is what the start-up
// (lib/start/start.ts, which Next's instrumentation.ts runs) hands over to it:
// this file cannot import the app, which Next compiles and loads itself.
//
// Usage: node --max-old-space-size=256 scripts/server.mjs [-p PORT] [-H HOSTNAME]
//   (PORT from the environment, else 3000; HOSTNAME likewise, else all interfaces). The Node flags
//   are scripts/server-node-flags.json's, which `npm start`, the tests and the
//   benchmark all use: with V8's default limit the heap grows under load for no more
//   requests per second (docs/deploying.md, *Memory*).
//
// Workers: with WORKERS above 1 (`auto`, the default, is one per core) this process is the primary of
// scripts/primary.mjs, which runs this file again in each worker; each worker serves as one process does
// with WORKERS=1, and reaches the primary for what must be one per server (the metrics listener).
//
// Logging: the start-up hands over the process's logger (lib/ops/log.ts, built
// by the context from LOG_LEVEL) with the mount, and the mount logs every request.
// Only what fails before that handover is written here, as one line of the same
// shape (scripts/log-line.mjs): the start-up logs its own failures itself.
import cluster from 'node:cluster';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, hostname as hostName } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { WORKERS_RULE, workerCount } from '../lib/config/workers.mjs';
import { clusterWorker } from './cluster-worker.mjs';
import { logLine } from './log-line.mjs';
import { onParentGone } from './parent-watch.mjs';
import { PRIMARY_PID, runPrimary, WORKER_COUNT } from './primary.mjs';

process.env.NODE_ENV = 'production';
// What `next start` sets (next/dist/bin/next); instrumentation.ts registers only under it.
process.env.NEXT_RUNTIME = 'nodejs';
process.env.NEXT_TELEMETRY_DISABLED ??= '1';

const { values } = parseArgs({
  options: { port: { type: 'string', short: 'p' }, hostname: { type: 'string', short: 'H' } },
  strict: true,
});
const port = Number(values.port ?? process.env.PORT ?? 3000);
// The address to bind: unset or empty, every interface. Container runtimes (and some shells) export
// HOSTNAME as the machine's own name, which no operator chose as a bind address: that one is ignored,
// so such a deployment keeps listening on every interface as before.
const boundByEnv = process.env.HOSTNAME && process.env.HOSTNAME !== hostName() ? process.env.HOSTNAME : undefined;
const hostname = values.hostname ?? boundByEnv;
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(2, `invalid port: ${values.port ?? process.env.PORT}`);
// The configuration reads it too: without ISSUER, the issuer is this port on localhost.
if (values.port !== undefined) process.env.PORT = values.port;
const workers = workerCount(process.env.WORKERS, availableParallelism());
if (workers === undefined) fail(2, `Invalid configuration: ${WORKERS_RULE}`);

/** A failure before the logger is handed over: one fatal line as lib/ops/log.ts writes them (JSON, or plain on a terminal), then exit. */
function fail(status, msg, error) {
  logLine('fatal', msg, { error, always: true });
  process.exit(status);
}

// One of the primary's workers: forked by scripts/primary.mjs, which says so in the environment. A cluster
// worker of anything else (a process manager's cluster mode) serves as one process, as WORKERS=1 does.
const worker = cluster.isWorker && process.env[PRIMARY_PID] === String(process.ppid) ? Number(process.env[WORKER_COUNT]) : undefined;

if (cluster.isPrimary && workers > 1) runPrimary({ workers, port, hostname });
else await serve();

async function serve() {
  const peer = worker ? clusterWorker(worker) : undefined;
  // The start-up (migrations, the first admin, the provider) hands over the started
  // application here when it is done, or the error it has already logged. On globalThis,
  // the one place this file and the app Next loads can both reach (lib/start/handover.ts);
  // a worker's also offers the primary's side (`workers`).
  const notRegistered = new Error('the start-up did not hand over the app within 120 s; is the build current?');
  const handoverReady = new Promise((resolve, reject) => {
    globalThis[Symbol.for('gatehouse.handover')] = { resolve, reject, ...(peer ? { workers: peer.offer } : {}) };
    setTimeout(() => reject(notRegistered), 120_000).unref();
  });

  // Next's configuration as the build resolved it, as the server of Next's standalone output passes it:
  // otherwise Next loads next.config.js again at every start, and with it its SWC compiler and
  // next-intl's plugin, ~40 MB that stay resident and serve nothing (bench/results/notes-2026-11-27.md).
  // Without a finished build Next loads next.config.js and says what is missing.
  const built = join(process.env.GATEHOUSE_DIST_DIR || '.next', 'required-server-files.json');
  if (existsSync(built)) process.env.__NEXT_PRIVATE_STANDALONE_CONFIG ??= JSON.stringify(JSON.parse(readFileSync(built, 'utf8')).config);

  const { default: next } = await import('next');
  const app = next({ dev: false, dir: process.cwd(), hostname: hostname ?? 'localhost', port });
  const handleWithNext = app.getRequestHandler();
  let handover;
  try {
    await app.prepare();
  } catch (error) {
    fail(1, 'start-up failed: Next could not prepare the app', error);
  }
  try {
    handover = await handoverReady;
  } catch (error) {
    if (error === notRegistered) fail(1, 'start-up failed', error);
    process.exit(1); // the start-up logged why
  }
  const { handle, log } = handover;
  let stopping = false;

  const server = createServer((req, res) => {
    if (stopping) res.setHeader('Connection', 'close');
    // Next gets what the mount does not answer, within the request's span when tracing is on.
    handle(req, res, () => handleWithNext(req, res));
  });
  // As `next start`: idle keep-alive connections stay open past a load balancer's typical 60 s.
  server.keepAliveTimeout = 65_000;
  /** A worker's connections, handed over by the primary, which holds the port: until each has ended. */
  const connections = new Set();
  let drained;
  if (peer) {
    // Node tracks an HTTP server's connections (its header and request timeouts, closeIdleConnections)
    // from its 'listening': this one never binds, the primary does, and injects each connection it accepts.
    server.emit('listening');
    peer
      .serve({
        handover,
        connection(socket) {
          connections.add(socket);
          socket.once('close', () => {
            connections.delete(socket);
            if (connections.size === 0) drained?.();
          });
          server.emit('connection', socket);
        },
        stop,
      })
      .then(
        (where) => log.info({ worker: peer.id, workers: worker }, `worker ${peer.id} serving on ${where}`),
        // The primary could not listen: it says why and stops every worker.
        () => undefined,
      );
  } else {
    server.once('error', (error) => {
      log.fatal({ err: error }, `cannot listen on port ${port}`);
      process.exit(1);
    });
    server.listen(port, hostname, () => {
      const { address, port: bound } = server.address();
      log.info(`listening on ${address.includes(':') ? `[${address}]` : address}:${bound}`);
    });
  }

  /**
   * SIGTERM (a supervisor, a rolling restart) or SIGINT (Ctrl-C), or for a worker its primary's word (after the
   * last connection it handed over): stop accepting connections, let the requests in flight finish, for at most
   * STOP_GRACE_MS (then their connections are cut), then close Next and what the context opened: the database,
   * after committing SQLite's pending group-commit writes (lib/db/sql.ts), the PostgreSQL pools and Redis, and
   * send the spans still queued when tracing is on (lib/ops/tracing.ts). Exits 0 when all of that went
   * through, 1 when it did not or took longer than STOP_LIMIT_MS.
   */
  const STOP_GRACE_MS = 10_000;
  const STOP_LIMIT_MS = 15_000;
  function stop(signal) {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    setTimeout(() => {
      log.error(`not stopped after ${STOP_LIMIT_MS / 1000} s: exiting`);
      process.exit(1);
    }, STOP_LIMIT_MS).unref();
    const grace = setTimeout(() => {
      log.warn(`requests still in flight after ${STOP_GRACE_MS / 1000} s: closing their connections`);
      server.closeAllConnections();
    }, STOP_GRACE_MS).unref();
    // Its callback runs once every connection has ended. A keep-alive connection would stay open
    // until keepAliveTimeout: each is closed as soon as its current response is sent, and a
    // response begun from now on tells its client so (Connection: close).
    const closeIdle = setInterval(() => server.closeIdleConnections(), 50).unref();
    const closed = async () => {
      clearInterval(closeIdle);
      clearTimeout(grace);
      let status = 0;
      try {
        await app.close();
      } catch (error) {
        log.error({ err: error }, 'Next did not close');
        status = 1;
      }
      try {
        await handover.close();
      } catch (error) {
        log.error({ err: error }, 'the database, the throttle store or the tracer did not close');
        status = 1;
      }
      log.info('stopped');
      process.exit(status);
    };
    // A worker has no port to close: the primary no longer hands it connections.
    if (!peer) server.close(closed);
    else if (connections.size === 0) void closed();
    else drained = closed;
    server.closeIdleConnections();
  }
  // A worker's signals go through its primary (scripts/cluster-worker.mjs), which then says `stop`.
  if (!peer) for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));

  // Started by scripts/node.mjs (`npm start`), which passes every signal on: should it vanish without
  // doing so (killed with SIGKILL), stop as on SIGTERM rather than serve on, orphaned. (A worker whose
  // primary vanished exits by node:cluster's own rule.)
  if (process.env.GATEHOUSE_WRAPPER_PID === String(process.ppid)) onParentGone(() => process.kill(process.pid, 'SIGTERM'));
}
