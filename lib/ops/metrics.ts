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
 * README, *Monitoring*, says what each metric means.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The provider's endpoints as metrics name them (lib/oidc/mounts/metric-routes.ts maps a path to one). */
export const PROVIDER_ROUTES = ['discovery', 'jwks', 'authorization', 'token', 'userinfo', 'introspection', 'revocation', 'end_session', 'other'] as const;
export type ProviderRoute = (typeof PROVIDER_ROUTES)[number];

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
  /** argon2id hashes waiting for a slot and running (lib/services/passwords.ts). */
  argon2?: () => { waiting: number; running: number };
  /** Node's process metrics (memory, CPU, event-loop lag, GC): the server's context only. */
  processMetrics?: boolean;
}

export interface Metrics {
  readonly registry: Registry;
  /** Starts timing a request to a provider endpoint; call what it returns with the status answered. */
  providerRequest(route: ProviderRoute): (status: number) => void;
  /** A token endpoint request that succeeded, per grant type (oidc-provider's `grant.success`). */
  tokenIssued(grantType: unknown): void;
  signIn(outcome: SignInOutcome): void;
  consent(outcome: ConsentOutcome): void;
  /** Starts timing one call of the provider's storage adapter; call what it returns when it settles. */
  storageCall(operation: StorageOperation): () => void;
}

export function createMetrics({ activeSessions, argon2, processMetrics = false }: MetricsSources = {}): Metrics {
  const registry = new Registry();
  if (processMetrics) collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'gatehouse_http_requests_total',
    help: 'Requests to the provider endpoints, by route and status code.',
    labelNames: ['route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'gatehouse_http_request_duration_seconds',
    help: 'Time to answer a provider endpoint, by route and status code.',
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
  if (activeSessions) {
    new Gauge({
      name: 'gatehouse_active_sessions',
      help: 'Sign-in sessions that have not expired, counted at each scrape (NaN when the database did not answer).',
      registers: [registry],
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

  return {
    registry,
    providerRequest(route) {
      const stop = latency.startTimer({ route });
      return (status) => {
        const labels = { route, status: String(status) };
        stop(labels);
        requests.inc(labels);
      };
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
      return storage.startTimer({ operation });
    },
  };
}
