/**
 * The graceful stop under plain `next start` (`npm start` has its own, in
 * scripts/server.mjs). On SIGTERM or SIGINT Next's own handler
 * (next/dist/server/lib/start-server.js) stops accepting connections, waits
 * for the requests in flight, closes Next, and then calls process.exit(143 or
 * 130) at once: nothing of ours would close the database (SQLite's checkpoint,
 * the PostgreSQL pools), Redis, or send the spans still queued. Next offers no
 * hook between its last request and that exit (NEXT_MANUAL_SIG_HANDLE turns its
 * handler off altogether, but only when set before it listens, and then nothing
 * here could stop its server from accepting). So once a signal has come, the
 * exit Next asks for is held until `close` has run, then made with Next's code
 * (1 if something did not close).
 */
import type { Log } from './log.ts';

/** As scripts/server.mjs: a stop that takes longer than this exits 1, whatever is left. */
const STOP_LIMIT_MS = 15_000;

let installed = false;

/** Once per process (the start-up, lib/start/steps.ts, under `next start` only). */
export function closeBeforeNextExits(close: () => Promise<void>, log: Pick<Log, 'info' | 'error'>, limitMs = STOP_LIMIT_MS): void {
  if (installed) return;
  installed = true;
  const exit = process.exit.bind(process);
  let signalled = false;
  let closing = false;

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (signalled) return;
      signalled = true;
      log.info({ signal }, 'stopping');
      setTimeout(() => {
        log.error(`not stopped after ${limitMs / 1000} s: exiting`);
        exit(1);
      }, limitMs).unref();
    });
  }

  process.exit = ((code?: number | string | null) => {
    if (!signalled) return exit(code);
    // Next's handler returns right after this call; the process lives on until `close` is done.
    if (closing) return undefined as never;
    closing = true;
    close().then(
      () => {
        log.info('stopped');
        exit(code);
      },
      (error: unknown) => {
        log.error({ err: error }, 'the database, the throttle store or the tracer did not close');
        exit(1);
      },
    );
    return undefined as never;
  }) as typeof process.exit;
}
