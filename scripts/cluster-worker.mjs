// A worker's side of scripts/primary.mjs, in scripts/server.mjs. The primary holds the port and hands each
// connection it accepts to a worker, and says when to stop; the start-up reaches it through the hand-over
// (lib/start/handover.ts, `ClusterWorker`: the metrics listener and the whole server's figures, which only
// the primary has); the primary asks a worker for its figures.
import cluster from 'node:cluster';

/** How long a question to the primary may go unanswered: it answers at once, or is gone (and this worker with it). */
const ASK_TIMEOUT_MS = 10_000;

/** Sends `message` to the primary; a primary already gone is not this worker's error (node:cluster ends it). */
function send(message) {
  if (process.connected) process.send(message, () => undefined);
}

/** This worker's side, for one of `count` workers. */
export function clusterWorker(count) {
  /** Set by `serve`: the started app, where a connection goes, how to stop. */
  let serving;
  let asked = 0;
  const waiting = new Map();
  process.on('message', (message, handle) => {
    switch (message?.gatehouse) {
      case 'connection':
        // Closed on its way here, or come before this worker serves (never: the primary waits for `serving`).
        if (!handle) return;
        if (serving) serving.connection(handle);
        else handle.destroy();
        return;
      case 'stop':
        // Still starting, this worker has served nothing and has nothing to finish (the primary signals one instead).
        if (serving) serving.stop(message.signal);
        else process.exit(0);
        return;
      case 'collect-metrics': {
        const answer = (metrics) => send({ gatehouse: 'metrics', id: message.id, metrics });
        if (!serving) return answer(null);
        serving.handover.collectMetrics().then(answer, () => answer(null));
        return;
      }
      case 'answer':
        waiting.get(message.id)?.(message);
        waiting.delete(message.id);
        return;
    }
  });
  const ask = (gatehouse, fields = {}) =>
    new Promise((resolve, reject) => {
      const id = ++asked;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`the workers' primary did not answer (${gatehouse}) within ${ASK_TIMEOUT_MS / 1000} s`));
      }, ASK_TIMEOUT_MS).unref();
      waiting.set(id, (answer) => {
        clearTimeout(timer);
        if (answer.error) reject(Object.assign(new Error(answer.error), answer.code ? { code: answer.code } : {}));
        else resolve(answer);
      });
      send({ gatehouse, id, ...fields });
    });

  return {
    /** node:cluster's number for this worker: 1 to WORKERS at start, a higher one for a replacement. */
    id: cluster.worker.id,
    /** What the start-up finds on the hand-over's waiter (lib/start/handover.ts ClusterWorker). */
    offer: {
      workers: count,
      serveMetrics: ({ host, port }) => ask('serve-metrics', { host, port }).then((answer) => answer.url),
      scrape: () => ask('scrape-metrics').then((answer) => answer.text),
    },
    /**
     * The app is started: from now on the primary hands this worker connections (`connection(socket)`), counts its
     * figures (`handover.collectMetrics`) and tells it to `stop(signal)`. Resolves with where the primary listens,
     * once it does; rejects when it cannot (it says why, and stops every worker).
     */
    serve(started) {
      serving = started;
      // From now on a signal to this worker (Ctrl-C reaches every process of the terminal's group) is the
      // primary's to act on: it stops handing this worker connections, then says `stop` after the last one it
      // handed over, which could otherwise still be on its way here when this worker stopped. Until now, a
      // signal ends it at once, as it ends one process still starting.
      for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => send({ gatehouse: 'stop-me', signal }));
      return ask('serving').then((answer) => answer.where);
    },
  };
}
