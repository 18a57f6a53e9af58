/**
 * Starts the server process: runs the start-up's steps (./steps.ts) in order,
 * each logged by name with its duration (at debug) and traced as a span of its
 * own when a request span is active (never at start: none is); the
 * `hand-over` step gives the started application to scripts/server.mjs when it
 * waits (./handover.ts).
 * Called by instrumentation.ts (Next's hook, under `npm start` and plain
 * `next start` alike); once per process, however many module graphs call it
 * (lib/platform/process.ts).
 */
import type { AppContext } from '../context.ts';
import { warnAboutMistypedSettings } from '../config/mistyped-settings.ts';
import { createLogger, type Log } from '../ops/log.ts';
import { traced } from '../ops/tracing.ts';
import type { ServerMount } from '../oidc/mounts/node.ts';
import { processShared } from '../platform/process.ts';
import { reportStartupFailure } from './handover.ts';
import { START_STEPS, type Starting, type StartStep } from './steps.ts';

/** The started application: what serves each request under `npm start`, and what closes the process's resources. */
export interface Started {
  readonly ctx: AppContext;
  readonly handle: ServerMount;
  close(): Promise<void>;
}

/** Runs the start-up once per process; `context` gives the process's context (serverContext), built when the steps first ask. */
export function start(context: () => AppContext): Promise<Started> {
  const shared = processShared();
  shared.started ??= runSteps(context, START_STEPS);
  return shared.started as Promise<Started>;
}

/** Runs `steps` in order (start() with the start-up's own, once per process; a test with its own). */
export async function runSteps(context: () => AppContext, steps: readonly StartStep[]): Promise<Started> {
  const closers: (() => void | Promise<void>)[] = [];
  let closing: Promise<void> | undefined;
  const starting: Starting = {
    get ctx() {
      return context();
    },
    onClose: (close) => void closers.push(close),
    close: () => (closing ??= closeAll(closers)),
  };
  let step: StartStep | undefined;
  try {
    for (step of steps) {
      const began = performance.now();
      const { name, run } = step;
      await traced(`start ${name}`, 'internal', { step: name }, async () => run(starting));
      starting.log?.debug({ step: name, ms: Math.round(performance.now() - began) }, `start-up step ${name} done`);
    }
  } catch (error) {
    // Without a context (an invalid configuration, LOG_LEVEL included) a logger at the defaults says why,
    // after the settings that were perhaps meant.
    let log: Log | undefined = starting.log;
    if (!log) {
      log = createLogger();
      warnAboutMistypedSettings(log);
    }
    log.fatal({ err: error, step: step?.name }, 'start-up failed');
    reportStartupFailure(error);
    throw error;
  }
  const { ctx, handle } = starting;
  if (!handle) throw new Error('the start-up has no mount step');
  return { ctx, handle, close: starting.close };
}

/** The last added first; each runs even when one before it failed, and the first failure is thrown after. */
async function closeAll(closers: readonly (() => void | Promise<void>)[]): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const close of [...closers].reverse()) {
    try {
      await close();
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}
