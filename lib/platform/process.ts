/**
 * What one server process shares between Next's module graphs. Next.js evaluates
 * instrumentation.ts, the route handlers and the pages as separate module graphs,
 * each with its own copy of every module: a module-level variable would give each
 * graph its own context (its own connections, throttle and provider), its own
 * tracer, its own nonce for the peer stamp and its own copy of the logo. So the
 * process keeps them in one record on globalThis, filled by the start-up
 * (lib/start/start.ts) and read by every graph. Besides it, only two slots:
 * the custom server's handover (lib/start/handover.ts), which scripts/server.mjs
 * must reach without importing the app, and the portal's next-auth setup
 * (lib/surfaces/portal/auth.ts), which only the surfaces' graphs read.
 */
import type { LogoFile } from '../config/brand-logo.ts';
import type { AppContext } from '../context.ts';
import type { Tracing } from '../ops/tracing.ts';

export interface ProcessShared {
  /** The server's context (lib/context.ts serverContext), built on first use. */
  context?: AppContext;
  /** The start-up (lib/start/start.ts), run once however many graphs load instrumentation. */
  started?: Promise<unknown>;
  /** The tracer when tracing is on (lib/ops/tracing.ts). */
  tracer?: Tracing;
  /** The secret that proves a peer stamp is ours (lib/platform/request-context.ts). */
  peerNonce?: string;
  /** BRAND_LOGO_FILE, read once (lib/config/brand-logo.ts). */
  logo?: Promise<LogoFile>;
}

const SLOT = Symbol.for('gatehouse.process');
const globalForProcess = globalThis as typeof globalThis & { [SLOT]?: ProcessShared };

/** The process's shared record (see above). */
export function processShared(): ProcessShared {
  globalForProcess[SLOT] ??= {};
  return globalForProcess[SLOT];
}
