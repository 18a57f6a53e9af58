/**
 * GET /healthz (the process answers) and GET /readyz (it can serve: the
 * provider and its signing keys are loaded, the database answers, every
 * migration of this build is applied), for a load balancer or an orchestrator.
 * Unauthenticated and cheap, so probes every few seconds cost nothing: one
 * `SELECT 1` through the raw driver per /readyz, the migrations compared once.
 *
 * One implementation for both mounts: `npm start` answers ahead of Next
 * (`healthMount`, handed to scripts/server.mjs with the provider's mount), plain
 * `next start` through app/healthz and app/readyz (`healthResponse`).
 *
 * Answers are `{"status":"ok"}` or 503 `{"status":"unavailable","reason":...}`.
 * A reason names the check, never a connection string or a driver's message
 * (which can carry a host or a user name): those go to the server log, once
 * each time readiness is lost.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Database } from '../db/database.ts';
import { unappliedMigrations } from '../db/migrate.ts';
import { STATIC_SECURITY_HEADERS } from '../http/security-headers.ts';

export type Readiness = { ready: true } | { ready: false; reason: string };
export type HealthPath = '/healthz' | '/readyz';

/** How long /readyz waits for `SELECT 1`: a pool with no free connection would otherwise hold the probe until the prober gives up. */
const DATABASE_TIMEOUT_MS = 2000;

export interface ReadinessSources {
  db: Pick<Database, 'sql'>;
  /** Whether the provider, and with it the signing keys, is built (lib/context.ts). */
  providerBuilt(): boolean;
  /** Where a lost readiness is reported; console.error by default. */
  log?: (line: string) => void;
}

/** The readiness check of one context: call it per /readyz. */
export function createReadiness({ db, providerBuilt, log = console.error }: ReadinessSources): () => Promise<Readiness> {
  // Migrations only change when a new build starts (which applies them first):
  // once this build's folders are all recorded, that stays true for the process.
  let migrationsApplied = false;
  let lastReason: string | undefined;

  const check = async (): Promise<Readiness | { ready: false; reason: string; cause: unknown }> => {
    if (!providerBuilt()) return { ready: false, reason: 'starting: the provider and its signing keys are not loaded yet' };
    try {
      await withTimeout(db.sql.one('SELECT 1 AS ok'), DATABASE_TIMEOUT_MS);
    } catch (error) {
      return { ready: false, reason: 'database: no answer to SELECT 1', cause: error };
    }
    if (!migrationsApplied) {
      try {
        const missing = await unappliedMigrations(db.sql);
        if (missing.length) return { ready: false, reason: `migrations: ${missing.length} not applied (first: ${missing[0]})` };
        migrationsApplied = true;
      } catch (error) {
        return { ready: false, reason: 'migrations: _prisma_migrations could not be read', cause: error };
      }
    }
    return { ready: true };
  };

  return async () => {
    const result = await check();
    if (result.ready) {
      lastReason = undefined;
      return result;
    }
    if (result.reason !== lastReason) {
      const cause = 'cause' in result && result.cause instanceof Error ? `: ${result.cause.message}` : '';
      log(`[gatehouse] not ready: ${result.reason}${cause}`);
    }
    lastReason = result.reason;
    return { ready: false, reason: result.reason };
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The status and body of /healthz or /readyz. */
export async function healthAnswer(path: HealthPath, ready: () => Promise<Readiness>): Promise<{ status: number; body: string }> {
  if (path === '/healthz') return { status: 200, body: '{"status":"ok"}' };
  const readiness = await ready();
  return readiness.ready
    ? { status: 200, body: '{"status":"ok"}' }
    : { status: 503, body: JSON.stringify({ status: 'unavailable', reason: readiness.reason }) };
}

const HEADERS: Record<string, string> = {
  ...Object.fromEntries(STATIC_SECURITY_HEADERS),
  'Content-Type': 'application/json',
  // A probe must see the process's own answer, never a cache's.
  'Cache-Control': 'no-store',
};

/** For `next start`: app/healthz/route.ts and app/readyz/route.ts. */
export async function healthResponse(request: Request, path: HealthPath, ready: () => Promise<Readiness>): Promise<Response> {
  const { status, body } = await healthAnswer(path, ready);
  return new Response(request.method === 'HEAD' ? null : body, { status, headers: HEADERS });
}

/**
 * For `npm start`, ahead of Next (lib/oidc/mounts/node.ts): answers GET and
 * HEAD /healthz and /readyz, or returns false for Next to serve the request.
 */
export function healthMount(ready: () => Promise<Readiness>): (req: IncomingMessage, res: ServerResponse) => boolean {
  return (req, res) => {
    const url = req.url ?? '/';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if ((path !== '/healthz' && path !== '/readyz') || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    healthAnswer(path, ready).then(
      ({ status, body }) => {
        res.writeHead(status, HEADERS);
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      () => {
        res.writeHead(503, HEADERS);
        res.end(req.method === 'HEAD' ? undefined : '{"status":"unavailable","reason":"the readiness check failed"}');
      },
    );
    return true;
  };
}
