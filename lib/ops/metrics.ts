/**
 * The process's Prometheus metrics (prom-client). One registry per context
 * (lib/context.ts), not prom-client's global one: a unit test builds its own
 * and reads exactly what it caused, and Next's module graphs share the
 * server's through the context.
 *
 * Every label is a closed list (provider routes, grant types, outcomes, storage
 * operations), never a path, client id or username: each label value is a time
 * series kept for the process's life, so an open one would let any stranger
 * grow the server's memory and the scraper's storage with made-up URLs.
 * An operator reads what each metric means in docs/operations.md, *Monitoring*:
 * a new metric is written up there too.
 *
 * With several workers (WORKERS) the primary sums every worker's figures into one
 * scrape (scripts/primary.mjs): counters and histograms add up, and a gauge says
 * how it combines (`aggregator`) where a sum would mislead, such as a figure every
 * worker reads from the same database.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { isRedisUnavailable, type RedisState } from '../db/redis-health.ts';

/** The provider's endpoints as metrics name them (lib/oidc/mounts/metric-routes.ts maps a path to one). */
export const PROVIDER_ROUTES = ['discovery', 'jwks', 'authorization', 'token', 'userinfo', 'introspection', 'revocation', 'end_session', 'other'] as const;
export type ProviderRoute = (typeof PROVIDER_ROUTES)[number];

/**
 * What else the server answers, as metrics name it (`serverRoute` maps a path to one): the pages
 * (sign-in, account, admin portal, their server actions), the admin API, the other JSON APIs
 * (next-auth's), Next's static assets, the health probes and /metrics itself.
 */
export const SERVER_ROUTES = ['page', 'admin_api', 'api', 'asset', 'health', 'metrics'] as const;
export type ServerRoute = (typeof SERVER_ROUTES)[number];

/** The route of a path that is not the provider's (lib/oidc/mounts/metric-routes.ts names those). */
export function serverRoute(pathname: string): ServerRoute {
  if (pathname === '/healthz' || pathname === '/readyz') return 'health';
  if (pathname === '/metrics') return 'metrics';
  if (pathname === '/api/admin' || pathname.startsWith('/api/admin/')) return 'admin_api';
  if (pathname === '/api' || pathname.startsWith('/api/')) return 'api';
  if (pathname.startsWith('/_next/') || pathname === '/favicon.ico') return 'asset';
  return 'page';
}

/** What the throttle refuses (lib/platform/throttle.ts), by the check that refused it. */
export type ThrottleKind = 'password' | 'second_factor' | 'client' | 'mail' | 'sign_up' | 'link' | 'open_registration';
export type ThrottleReason = 'throttled' | 'locked';
/** What a failure can lock. */
export type LockoutKind = 'password' | 'second_factor';

/** The grants Gatehouse serves (lib/oidc/configuration.ts); anything else counts as `other`. */
const GRANT_TYPES = new Set(['authorization_code', 'refresh_token', 'client_credentials']);

export type SignInOutcome = 'succeeded' | 'failed' | 'throttled';
export type ConsentOutcome = 'granted' | 'denied';
/** The methods of oidc-provider's adapter (lib/oidc/adapter.ts). */
export type StorageOperation = 'upsert' | 'find' | 'findByUid' | 'findByUserCode' | 'consume' | 'destroy' | 'revokeByGrantId';

/**
 * Seconds. The provider's answers take from under a millisecond (a replayed
 * discovery document) to a few hundred (a token signed under load): buckets
 * from 1 ms to 2.5 s; a storage call from a tenth of a millisecond (SQLite) up.
 */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
const STORAGE_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25];

export interface MetricsSources {
  /** Sessions that have not expired, counted when Prometheus scrapes (lib/db/artifacts.ts). */
  activeSessions?: () => Promise<number>;
  /** argon2id hashes waiting for a slot and running (lib/platform/passwords.ts). */
  argon2?: () => { waiting: number; running: number };
  /** Node's process metrics (memory, CPU, event-loop lag, GC): the server's context only. */
  processMetrics?: boolean;
  /** Whether Redis answers (lib/db/redis-health.ts), with REDIS_URL only. */
  redis?: () => RedisState;
  /** What /readyz would answer (lib/ops/health.ts), asked at each scrape. */
  ready?: () => Promise<boolean>;
  /** The PostgreSQL pool's connections and waiting queries (pg's Pool counts); SQLite has none. */
  databasePool?: () => { total: number; idle: number; waiting: number } | undefined;
  /** The signing keys that sign now, one per algorithm, and since when (epoch ms): lib/keys/repository.ts. */
  currentSigningKeys?: () => Promise<Array<{ alg: string; since: number }>>;
  /** `gatehouse_build_info`'s labels: the package's version and Node's. */
  build?: { version: string; node: string };
}

export interface Metrics {
  readonly registry: Registry;
  /** Starts timing a request to a provider endpoint; call what it returns with the status answered. */
  providerRequest(route: ProviderRoute): (status: number) => void;
  /** The same for a request that is not the provider's: a page, the admin API, an asset, a probe. */
  serverRequest(route: ServerRoute): (status: number) => void;
  /** An attempt the throttle refused (a wait or a lock), by the check that refused it. */
  throttleRefused(kind: ThrottleKind, reason: ThrottleReason): void;
  /** A failure that locked an account's password or second factor. */
  lockout(kind: LockoutKind): void;
  /** A token endpoint request that succeeded, per grant type (oidc-provider's `grant.success`). */
  tokenIssued(grantType: unknown): void;
  signIn(outcome: SignInOutcome): void;
  consent(outcome: ConsentOutcome): void;
  /**
   * Starts timing one call of the provider's storage adapter; call what it returns when it
   * settles, with the error when the store failed (not for a refusal such as a reused code).
   */
  storageCall(operation: StorageOperation): (error?: unknown) => void;
}

export function createMetrics({
  activeSessions,
  argon2,
  processMetrics = false,
  redis,
  ready,
  databasePool,
  currentSigningKeys,
  build,
}: MetricsSources = {}): Metrics {
  const registry = new Registry();
  if (processMetrics) collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'gatehouse_http_requests_total',
    help: 'Requests, by route (a provider endpoint, or page, admin_api, api, asset, health, metrics) and status code.',
    labelNames: ['route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'gatehouse_http_request_duration_seconds',
    help: 'Time to answer a request, by route and status code (until its response is sent).',
    labelNames: ['route', 'status'] as const,
    buckets: REQUEST_BUCKETS,
    registers: [registry],
  });
  const tokens = new Counter({
    name: 'gatehouse_tokens_issued_total',
    help: 'Successful token endpoint requests, by grant type.',
    labelNames: ['grant_type'] as const,
    registers: [registry],
  });
  const signIns = new Counter({
    name: 'gatehouse_sign_ins_total',
    help: 'Sign-in attempts at /interaction/{uid}, by outcome (succeeded, failed, throttled).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const consents = new Counter({
    name: 'gatehouse_consents_total',
    help: 'Consent decisions, by outcome (granted, denied).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const storage = new Histogram({
    name: 'gatehouse_storage_call_duration_seconds',
    help: "Time of the provider's storage adapter calls, by operation.",
    labelNames: ['operation'] as const,
    buckets: STORAGE_BUCKETS,
    registers: [registry],
  });
  const storageErrors = new Counter({
    name: 'gatehouse_storage_errors_total',
    help: "Calls of the provider's storage adapter that failed, by operation and the store that failed (redis, database).",
    labelNames: ['operation', 'store'] as const,
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'gatehouse_throttle_refusals_total',
    help: 'Attempts the throttle refused, by check (password, second_factor, client, mail, sign_up, link) and reason (throttled: a wait; locked).',
    labelNames: ['kind', 'reason'] as const,
    registers: [registry],
  });
  const lockouts = new Counter({
    name: 'gatehouse_lockouts_total',
    help: "Failures that locked an account's password or second factor.",
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  if (build) {
    new Gauge({
      name: 'gatehouse_build_info',
      help: 'Always 1: the version running and the Node.js it runs on, as labels.',
      labelNames: ['version', 'node'] as const,
      registers: [registry],
      aggregator: 'first',
    }).set(build, 1);
  }
  if (ready) {
    new Gauge({
      name: 'gatehouse_ready',
      help: 'Whether /readyz answers 200 (1) or 503 (0), checked at each scrape.',
      registers: [registry],
      aggregator: 'min',
      async collect() {
        this.set((await ready().catch(() => false)) ? 1 : 0);
      },
    });
  }
  if (redis) {
    new Gauge({
      name: 'gatehouse_redis_up',
      help: "Whether Redis (REDIS_URL) is connected (1) or lost (0), as the server's clients see it; 0 before the first connection.",
      registers: [registry],
      aggregator: 'min',
      collect() {
        this.set(redis() === 'up' ? 1 : 0);
      },
    });
  }
  if (databasePool) {
    const connections = new Gauge({
      name: 'gatehouse_database_pool_connections',
      help: "The PostgreSQL pool's open connections, by state (idle, busy).",
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const pool = databasePool();
        if (!pool) return;
        connections.set({ state: 'idle' }, pool.idle);
        connections.set({ state: 'busy' }, pool.total - pool.idle);
      },
    });
    new Gauge({
      name: 'gatehouse_database_pool_waiting_queries',
      help: 'Queries waiting for a free connection of the PostgreSQL pool.',
      registers: [registry],
      collect() {
        const pool = databasePool();
        if (pool) this.set(pool.waiting);
      },
    });
  }
  if (currentSigningKeys) {
    const age = new Gauge({
      name: 'gatehouse_signing_key_age_seconds',
      help: 'Seconds since the signing key that signs now started signing, per algorithm (a rotation sets it back to 0).',
      labelNames: ['alg'] as const,
      registers: [registry],
      aggregator: 'max',
      async collect() {
        // As the session count: a database that does not answer leaves the figures out, not the scrape.
        const keys = await currentSigningKeys().catch(() => undefined);
        if (!keys) return;
        age.reset();
        for (const { alg, since } of keys) age.set({ alg }, Math.max(0, (Date.now() - since) / 1000));
      },
    });
  }
  if (activeSessions) {
    new Gauge({
      name: 'gatehouse_active_sessions',
      help: 'Sign-in sessions that have not expired, counted at each scrape (NaN when the database did not answer).',
      registers: [registry],
      aggregator: 'first',
      async collect() {
        // A failed count must not fail the whole scrape: the other figures matter most when the database does not answer.
        this.set(await activeSessions().catch(() => Number.NaN));
      },
    });
  }
  if (argon2) {
    new Gauge({
      name: 'gatehouse_argon2id_queue_length',
      help: 'Password hashes waiting for an argon2id slot.',
      registers: [registry],
      collect() {
        this.set(argon2().waiting);
      },
    });
    new Gauge({
      name: 'gatehouse_argon2id_in_progress',
      help: 'Password hashes running (at most one per core).',
      registers: [registry],
      collect() {
        this.set(argon2().running);
      },
    });
  }

  const timeRequest = (route: ProviderRoute | ServerRoute) => {
    const stop = latency.startTimer({ route });
    return (status: number) => {
      const labels = { route, status: String(status) };
      stop(labels);
      requests.inc(labels);
    };
  };

  return {
    registry,
    providerRequest: timeRequest,
    serverRequest: timeRequest,
    throttleRefused(kind, reason) {
      refusals.inc({ kind, reason });
    },
    lockout(kind) {
      lockouts.inc({ kind });
    },
    tokenIssued(grantType) {
      tokens.inc({ grant_type: typeof grantType === 'string' && GRANT_TYPES.has(grantType) ? grantType : 'other' });
    },
    signIn(outcome) {
      signIns.inc({ outcome });
    },
    consent(outcome) {
      consents.inc({ outcome });
    },
    storageCall(operation) {
      const stop = storage.startTimer({ operation });
      return (error) => {
        stop();
        if (error !== undefined) storageErrors.inc({ operation, store: isRedisUnavailable(error) ? 'redis' : 'database' });
      };
    },
  };
}

/** The running version (package.json in the working directory, where `npm start` runs) and Node's. */
export function buildInfo(dir = process.cwd()): { version: string; node: string } {
  let version = 'unknown';
  try {
    const parsed = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: unknown };
    if (typeof parsed.version === 'string') version = parsed.version;
  } catch {
    // Not started from the project's folder: the version stays unknown rather than the scrape failing.
  }
  return { version, node: process.versions.node };
}
