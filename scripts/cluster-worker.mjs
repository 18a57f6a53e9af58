// A worker's side of scripts/primary.mjs, in scripts/server.mjs: what the start-up reaches through the
// hand-over (lib/start/handover.ts, `ClusterWorker`: the metrics listener and the whole server's figures,
// which only the primary has), and what the primary asks of this worker (its figures, once it serves).
import cluster from 'node:cluster';

/** How long a question to the primary may go unanswered: it answers at once, or is gone (and this worker with it). */
const ASK_TIMEOUT_MS = 10_000;

/** Sends `message` to the primary; a primary already gone is not this worker's error (node:cluster ends it). */
function send(message) {
  if (process.connected) process.send(message, () => undefined);
}

/** This worker's side, for one of `count` workers. */
export function clusterWorker(count) {
  /** The started app's figures (ServerHandover.collectMetrics), once it is handed over. */
  let collect;
  let asked = 0;
  const waiting = new Map();
  process.on('message', (message) => {
    if (message?.gatehouse === 'collect-metrics') {
      const answer = (metrics) => send({ gatehouse: 'metrics', id: message.id, metrics });
      // Still starting: nothing to count yet, and the primary leaves this worker out.
      if (!collect) return answer(null);
      collect().then(answer, () => answer(null));
    } else if (message?.gatehouse === 'answer') {
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
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
    /** The start-up is done: the primary may count this worker's figures from now on. */
    handedOver(handover) {
      collect = () => handover.collectMetrics();
    },
    /** The server listens: the primary starts the next workers, or counts this one in. */
    listening(where) {
      send({ gatehouse: 'listening', where });
    },
  };
}
