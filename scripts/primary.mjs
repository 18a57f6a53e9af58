// The workers' primary: `npm start`'s server when WORKERS asks for more than one process (scripts/server.mjs
// decides). It serves no request and never loads the app. It forks the workers, each scripts/server.mjs
// again and a whole server (Next, the provider, the start-up), holds the port itself and hands each
// connection it accepts to the next worker that serves (node:cluster's IPC carries the socket). The
// first worker starts alone, since it migrates the database (SQLite's schema engine needs the file to
// itself); the port opens once it serves, and the others start then and find the database ready.
//
// - A worker that ends while the server serves is logged and replaced: at once when it had served 30 s,
//   else after a wait that doubles (1 s, 2 s, ... 30 s), so a start-up that fails every time does not spin.
// - A worker that ends during the server's own start stops the server with a non-zero exit, as one
//   process whose start-up fails does.
// - SIGTERM or SIGINT (or the wrapper scripts/node.mjs gone: scripts/parent-watch.mjs) closes the port,
//   as one process's stop does, then tells every worker to stop, after the last connection handed to it
//   (the primary holds no queue: node:cluster's own round robin, which the workers' listen() would use,
//   drops the connections it has accepted and not yet handed out once the last worker stops listening).
//   Each worker finishes what it began; the primary exits 0 once all of them exited 0, 1 otherwise or
//   after STOP_LIMIT_MS. A signal sent to a worker alone stops that worker the same way, and it is replaced.
// - METRICS_PORT is served here, for every worker: a worker's start-up asks for it (lib/start/handover.ts),
//   and each scrape sums what every serving worker counted (prom-client's AggregatorRegistry), so one
//   scrape shows the whole server. /metrics on the issuer's port (METRICS_TOKEN) asks here too.
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { createServer as createListener } from 'node:net';
import { fileURLToPath } from 'node:url';
import { logLine } from './log-line.mjs';
import { onParentGone } from './parent-watch.mjs';

/** What a worker is forked with: its primary's pid (a cluster worker of another program is none of ours) and how many serve. */
export const PRIMARY_PID = 'GATEHOUSE_PRIMARY_PID';
export const WORKER_COUNT = 'GATEHOUSE_WORKERS';

/** A worker's own stop ends within 15 s (scripts/server.mjs STOP_LIMIT_MS): past this, what is left is killed. */
const STOP_LIMIT_MS = 20_000;
/** A worker that served this long before it ended is replaced at once; each that ended sooner doubles the wait. */
const STEADY_MS = 30_000;
const FIRST_WAIT_MS = 1_000;
const LONGEST_WAIT_MS = 30_000;
/** How long a scrape waits for a worker's figures: one that does not answer is left out of that scrape. */
const COLLECT_TIMEOUT_MS = 5_000;

/** `host:port` as the log writes an address. */
const addressText = ({ address, port }) => `${address.includes(':') ? `[${address}]` : address}:${port}`;

/** Serves on `port` (and `hostname`, unset for every interface) from `workers` worker processes until stopped. */
export function runPrimary({ workers: count, port, hostname }) {
  // Each worker runs this folder's server.mjs with this process's arguments and Node flags, whatever
  // started the primary (scripts/start.mjs under `npm start`). Structured clones: a figure may be NaN.
  cluster.setupPrimary({ exec: fileURLToPath(new URL('./server.mjs', import.meta.url)), serialization: 'advanced' });
  /** The workers alive, by node:cluster's id: since when each serves (undefined while it starts), and whether it was told to stop. */
  const live = new Map();
  /** starting (until WORKERS workers serve), serving, stopping. */
  let phase = 'starting';
  /** The signal that stopped the server, passed on to the workers (each logs it). */
  let stopSignal;
  let status = 0;
  /** Workers that ended in a row without serving STEADY_MS: the next one waits longer. */
  let failures = 0;
  /** Workers that ended while the server served (gatehouse_worker_exits_total). */
  let exits = 0;
  const waits = new Set();
  const metrics = primaryMetrics({ serving: () => [...live.values()].filter((w) => w.since !== undefined).map((w) => w.worker), exits: () => exits });

  // The port. Paused: what a client sends stays in the socket for the worker that reads it. No delay, as
  // an HTTP server's own sockets (scripts/server.mjs with WORKERS=1).
  let turn = 0;
  const listener = createListener({ pauseOnConnect: true, noDelay: true }, (socket) => {
    const ready = [...live.values()].filter((w) => w.since !== undefined && !w.stopping && w.worker.isConnected());
    // None serves (every one ended and the next is starting): refused, as by a server that is down.
    if (ready.length === 0) return socket.destroy();
    const { worker } = ready[turn++ % ready.length];
    worker.send({ gatehouse: 'connection' }, socket, (error) => error && socket.destroy());
  });
  let listening;
  /** Listens once, when the first worker serves; a port that is taken stops the server as it stops one process. */
  const listen = () =>
    (listening ??= new Promise((resolve, reject) => {
      listener.once('error', reject);
      listener.listen(port, hostname, () => resolve(addressText(listener.address())));
    }).catch((error) => {
      logLine('fatal', `cannot listen on port ${port}`, { error, always: true });
      status = 1;
      stop();
      throw error;
    }));

  const fork = () => {
    const worker = cluster.fork({ [PRIMARY_PID]: String(process.pid), [WORKER_COUNT]: String(count) });
    live.set(worker.id, { worker, since: undefined, stopping: false });
    // A message to a worker that is just ending fails; its 'exit' says what happened.
    worker.on('error', () => undefined);
  };

  cluster.on('message', (worker, message) => {
    switch (message?.gatehouse) {
      case 'serving':
        return answer(
          worker,
          message.id,
          listen().then((where) => {
            // Started while the server stops: it stops too, having served nothing.
            if (phase === 'stopping') {
              send(worker, { gatehouse: 'stop', signal: stopSignal });
              throw new Error('the server is stopping');
            }
            serving(worker, where);
            return { where };
          }),
        );
      case 'stop-me':
        if (phase === 'stopping') return send(worker, { gatehouse: 'stop', signal: stopSignal });
        return stopWorker(worker, message.signal);
      case 'metrics':
        return metrics.collected(message.id, message.metrics);
      case 'serve-metrics':
        return answer(
          worker,
          message.id,
          metrics.listen(message.host, message.port).then((url) => ({ url })),
        );
      case 'scrape-metrics':
        return answer(
          worker,
          message.id,
          metrics.scrape().then(({ text }) => ({ text })),
        );
    }
  });

  function serving(worker, where) {
    const entry = live.get(worker.id);
    if (!entry || entry.since !== undefined || phase === 'stopping') return;
    entry.since = Date.now();
    if (phase === 'serving') {
      logLine('info', `worker ${worker.process.pid} serves in place of the one that ended`, { fields: { worker: worker.id, workers: live.size } });
      return;
    }
    // The first serves: the database is ready for the others.
    while (live.size < count) fork();
    if ([...live.values()].every((w) => w.since !== undefined)) {
      phase = 'serving';
      const pids = [...live.values()].map((w) => w.worker.process.pid);
      logLine('info', `listening on ${where} with ${count} workers`, { fields: { workers: count, worker_pids: pids } });
    }
  }

  /** One worker to stop (a signal sent to it): it gets no more connections, then is told, after the last it got. */
  function stopWorker(worker, signal) {
    const entry = live.get(worker.id);
    if (!entry || entry.stopping || phase === 'stopping') return;
    entry.stopping = true;
    send(worker, { gatehouse: 'stop', signal });
  }

  cluster.on('exit', (worker, code, signal) => {
    const entry = live.get(worker.id);
    live.delete(worker.id);
    const pid = worker.process.pid;
    const how = signal ? `signal ${signal}` : `exit code ${code}`;
    const fields = { worker: worker.id, worker_pid: pid, exit_code: code, signal };
    if (phase === 'stopping') {
      // A worker that served stops cleanly with 0; one still starting served nothing, whatever ended it.
      if (entry?.since !== undefined && code !== 0) {
        logLine('error', `worker ${pid} did not stop cleanly (${how})`, { fields });
        status = 1;
      }
      if (live.size === 0) finish();
      return;
    }
    // Ctrl-C reaches every process of the group, and a worker still starting dies of it: the server stops.
    if (phase === 'starting' && entry?.since === undefined && (signal === 'SIGINT' || signal === 'SIGTERM')) return stop(signal);
    if (phase === 'starting') {
      logLine('fatal', `worker ${pid} ended during the server's start (${how}): the server stops`, { fields, always: true });
      status = code || 1;
      return stop();
    }
    exits++;
    const steady = entry?.since !== undefined && Date.now() - entry.since >= STEADY_MS;
    failures = steady ? 0 : failures + 1;
    const wait = failures === 0 ? 0 : Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** (failures - 1));
    logLine(code === 0 ? 'warn' : 'error', `worker ${pid} ended (${how}): another starts ${wait ? `in ${wait / 1000} s` : 'now'}`, {
      fields: { ...fields, restart_in_ms: wait },
    });
    const timer = setTimeout(() => {
      waits.delete(timer);
      if (phase === 'serving') fork();
    }, wait);
    waits.add(timer);
  });

  function stop(signal) {
    if (phase === 'stopping') return;
    phase = 'stopping';
    stopSignal = signal ?? 'SIGTERM';
    for (const timer of waits) clearTimeout(timer);
    if (signal) logLine('info', 'stopping', { fields: { signal, workers: live.size } });
    // No connection is accepted from now on; each serving worker hears `stop` after the last one it was handed.
    // One still starting has nothing to finish, and would hear nothing until its start-up lets it: it ends
    // now, as one process still starting does on the signal.
    if (listener.listening) listener.close();
    for (const { worker, since } of live.values()) {
      if (since !== undefined) send(worker, { gatehouse: 'stop', signal: stopSignal });
      else worker.process.kill('SIGTERM');
    }
    setTimeout(() => {
      logLine('error', `workers still running ${STOP_LIMIT_MS / 1000} s after the stop: killing them`, { fields: { workers: live.size } });
      for (const { worker } of live.values()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, STOP_LIMIT_MS).unref();
    if (live.size === 0) finish();
  }

  function finish() {
    logLine(status === 0 ? 'info' : 'error', 'stopped', { fields: { status } });
    process.exit(status);
  }

  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => stop(signal));
  // Started by scripts/node.mjs (`npm start`), which passes every signal on: should it vanish without doing
  // so, stop as on SIGTERM. The workers need no watch of their own: node:cluster ends a worker whose primary is gone.
  if (process.env.GATEHOUSE_WRAPPER_PID === String(process.ppid)) onParentGone(() => process.kill(process.pid, 'SIGTERM'));

  logLine('debug', `starting ${count} workers on port ${port}${hostname ? ` of ${hostname}` : ''}`, { fields: { workers: count } });
  fork();
}

/** Sends `message` to `worker` unless it is gone (its 'exit' says what happened). */
function send(worker, message) {
  if (worker.isConnected()) worker.send(message, () => undefined);
}

/** Answers a worker's question with what `answer` settles to, or its error's message. */
function answer(worker, id, answer) {
  answer.then(
    (fields) => send(worker, { gatehouse: 'answer', id, ...fields }),
    (error) => send(worker, { gatehouse: 'answer', id, error: error instanceof Error ? error.message : String(error), code: error?.code }),
  );
}

/**
 * METRICS_PORT for the whole server, and the sums /metrics answers: `serving()` names the workers whose figures
 * count (those still starting have none), `exits()` how many ended while the server served.
 */
function primaryMetrics({ serving, exits }) {
  let listening;
  let asked = 0;
  const collecting = new Map();
  let own;

  /** One worker's figures (prom-client's JSON form), or null when it does not answer in time. */
  const collect = (worker) =>
    new Promise((resolve) => {
      const id = ++asked;
      const timer = setTimeout(() => {
        collecting.delete(id);
        resolve(null);
      }, COLLECT_TIMEOUT_MS);
      collecting.set(id, (figures) => {
        clearTimeout(timer);
        resolve(figures);
      });
      send(worker, { gatehouse: 'collect-metrics', id });
    });

  /** The primary's own figures: how many workers this scrape sums, and how many ended while serving. */
  const ownRegistry = ({ Registry, Gauge, Counter }, summed) => {
    if (!own) {
      own = { registry: new Registry(), summed: 0 };
      new Gauge({
        name: 'gatehouse_workers',
        help: 'Worker processes whose figures this scrape sums (WORKERS; fewer while one is replaced).',
        registers: [own.registry],
        collect() {
          this.set(own.summed);
        },
      });
      new Counter({
        name: 'gatehouse_worker_exits_total',
        help: 'Workers that ended while the server served (each replaced).',
        registers: [own.registry],
        collect() {
          this.reset();
          this.inc(exits());
        },
      });
    }
    own.summed = summed;
    return own.registry;
  };

  const scrape = async () => {
    const prom = await import('prom-client');
    const figures = (await Promise.all(serving().map(collect))).filter(Array.isArray);
    if (figures.length === 0) throw new Error('no worker answered');
    const registry = prom.Registry.merge([prom.AggregatorRegistry.aggregate(figures), ownRegistry(prom, figures.length)]);
    return { text: await registry.metrics(), contentType: registry.contentType };
  };

  return {
    scrape,
    collected(id, figures) {
      collecting.get(id)?.(figures);
      collecting.delete(id);
    },
    /** Listens once for every worker (the first to start asks); rejects when the port is taken, which stops that start. */
    listen(host, port) {
      listening ??= new Promise((resolve, reject) => {
        const server = createServer((req, res) => {
          const path = (req.url ?? '/').split('?')[0];
          if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
            res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: GET /metrics\n');
            return;
          }
          scrape().then(
            ({ text, contentType }) => {
              res.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
              res.end(req.method === 'HEAD' ? undefined : text);
            },
            (error) => {
              logLine('error', 'metrics: collecting failed', { error });
              res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('collecting the metrics failed\n');
            },
          );
        });
        server.once('error', (error) => {
          listening = undefined;
          reject(error);
        });
        server.listen(port, host, () => {
          const { address, port: bound } = server.address();
          // Never what keeps a stopping primary alive.
          server.unref();
          resolve(`http://${address.includes(':') ? `[${address}]` : address}:${bound}/metrics`);
        });
      });
      return listening;
    },
  };
}
