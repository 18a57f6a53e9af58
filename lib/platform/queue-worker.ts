/**
 * What the durable queues in the database share (the back-channel logouts, lib/logout/delivery.ts; the
 * webhook outbox, lib/webhooks/delivery.ts): a timer that looks at the queue for the process's life, and
 * the words for an outbound request that got no answer.
 */
import type { Log } from '../ops/log.ts';

/**
 * Runs `drain` every `intervalMs` (and once at once), never two at a time; `drain` answers whether more
 * may be due (a full batch), and then runs again at once. Returns the stop.
 */
export function startQueueWorker({ name, intervalMs, log, drain }: { name: string; intervalMs: number; log: Log; drain: () => Promise<boolean> }): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      while (await drain());
    } catch (error) {
      log.error({ err: error }, `${name}: reading the queue failed`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}

/** Why a request got no answer, in a word: `timeout`, the network's error code, or the error's name. Never the request. */
export function requestFailure(error: unknown): string {
  const e = error as { name?: string; cause?: { code?: string } };
  return e.name === 'TimeoutError' ? 'timeout' : (e.cause?.code ?? e.name ?? 'network error');
}
