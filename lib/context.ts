/**
 * What the use cases run against: the configuration, the database, the clock,
 * the provider and the process's counters. Built once per process by whoever
 * starts it (the start-up for the server, lib/start/, a test for itself) and handed
 * to use cases as parameters; a use case takes the narrowest part it needs.
 *
 * Only the surfaces Next.js calls into (pages, server actions, route handlers
 * in app/, their adapters in lib/surfaces/) fetch the server's context with
 * `serverContext()`: Next gives them no other way in (lib/layout.test.ts).
 */
import type Provider from 'oidc-provider';
import type { BuiltProvider } from './oidc/provider.ts';
import { env, type Env } from './config/env.ts';
import { closeDatabase, database, type Database } from './db/database.ts';
import { handedOff } from './mail/hand-off.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import { countActiveSessions } from './db/artifacts.ts';
import { createReadiness, type Readiness } from './ops/health.ts';
import { createLogger, type Log } from './ops/log.ts';
import { buildInfo, createMetrics, type Metrics } from './ops/metrics.ts';
import { countedThrottle } from './ops/throttle-metrics.ts';
import { argon2Load } from './platform/passwords.ts';
import { processShared } from './platform/process.ts';
import { unknownUsernameFailures, type UnknownUsernameFailures } from './platform/source-counts.ts';
import { createThrottle, throttleSettings, type Throttle } from './platform/throttle.ts';

export interface AppContext {
  readonly config: Env;
  /** The process's log (lib/ops/log.ts): JSON lines on stdout at LOG_LEVEL. Never hand it a secret. */
  readonly log: Log;
  readonly db: Database;
  /** Epoch milliseconds: tests pass their own clock. */
  readonly now: () => number;
  /** The process's oidc-provider, built on first use: `next build` loads every module with no database to read keys from. */
  provider(): Promise<Provider>;
  /**
   * Builds the provider again when the published signing keys changed since it
   * was built (`keysVersion`, lib/keys/repository.ts: read now when not given),
   * and serves the new one from then on; true when it did. The rotation calls it
   * every few seconds and after each change it makes (lib/keys/signing-keys.ts).
   */
  refreshProvider(keysVersion?: string): Promise<boolean>;
  /** Calls `use` with the provider once built (now, if it is) and with every one built after it. */
  onProvider(use: (provider: Provider) => void): void;
  /** The answer of GET /readyz (lib/ops/health.ts): asks whether provider() has built it, without starting the build. */
  readonly readiness: () => Promise<Readiness>;
  /** The process's Prometheus metrics (lib/ops/metrics.ts). Built on first use. */
  readonly metrics: Metrics;
  /** Failed sign-ins for unknown usernames, counted per source before they reach the audit log. */
  readonly signInFailures: UnknownUsernameFailures;
  /** Limits on guessing: passwords, second factors, client secrets (lib/platform/throttle.ts). Opened on first use. */
  readonly throttle: Throttle;
  /** Outgoing mail (lib/mail/mailer.ts): SMTP, the log in development, or off. */
  readonly mailer: Mailer;
  /**
   * Closes what the context opened, once nothing is served any more (scripts/server.mjs on
   * SIGTERM): the throttle's store (Redis) and the database, which first commits SQLite's
   * pending group-commit writes (lib/db/sql.ts), then ends the connections or pools.
   */
  close(): Promise<void>;
}

export interface ContextOptions {
  config?: Env;
  /** Defaults to one at `config.LOG_LEVEL` on stdout. */
  log?: Log;
  /** Defaults to the handle for `config.DATABASE_URL` (short-lived artifacts in `config.REDIS_URL`), reporting to `log`. */
  db?: Database;
  now?: () => number;
  /** Defaults to one on `db` (or REDIS_URL) with the configured limits. */
  throttle?: Throttle;
  /** Defaults to the configured one (SMTP_URL). */
  mailer?: Mailer;
  /** Defaults to a registry of its own with the process metrics. */
  metrics?: Metrics;
}

export function createContext({
  config = env(),
  log = createLogger({ level: config.LOG_LEVEL }),
  db = database(config.DATABASE_URL, { log, redisUrl: config.REDIS_URL }),
  now = Date.now,
  throttle,
  mailer,
  metrics,
}: ContextOptions = {}): AppContext {
  let built: Promise<BuiltProvider> | undefined;
  let providerBuilt = false;
  let refreshing: Promise<boolean> = Promise.resolve(false);
  const providerUsers: ((provider: Provider) => void)[] = [];
  const build = async (): Promise<BuiltProvider> => {
    const { createProvider, startArtifactCleanup } = await import('./oidc/provider.ts');
    const next = await createProvider(context);
    for (const use of providerUsers) use(next.provider);
    if (!providerBuilt) startArtifactCleanup(context);
    providerBuilt = true;
    return next;
  };
  const refresh = async (keysVersion?: string): Promise<boolean> => {
    const current = await built?.catch(() => undefined);
    if (!current) return false; // not built yet: the first build reads the keys as they are then
    const { listSigningKeyInfo, signingKeysVersion } = await import('./keys/repository.ts');
    const version = keysVersion ?? signingKeysVersion(await listSigningKeyInfo(db));
    if (current.keysVersion === version) return false;
    // The old provider serves until the new one is ready; a failed build leaves it serving.
    built = Promise.resolve(await build());
    return true;
  };
  const context: AppContext = {
    config,
    log,
    db,
    now,
    provider() {
      built ??= build().catch((error: unknown) => {
        built = undefined; // the next request tries again
        throw error;
      });
      return built.then(({ provider }) => provider);
    },
    refreshProvider(keysVersion) {
      // One rebuild at a time: a second caller waits, then compares again.
      refreshing = refreshing.catch(() => false).then(() => refresh(keysVersion));
      return refreshing;
    },
    onProvider(use) {
      providerUsers.push(use);
      if (providerBuilt) void built?.then(({ provider }) => use(provider));
    },
    readiness: createReadiness({ db, providerBuilt: () => providerBuilt, log: (line) => log.warn(line) }),
    get metrics() {
      metrics ??= createMetrics({
        activeSessions: () => countActiveSessions(db.sql, now()),
        argon2: argon2Load,
        processMetrics: true,
        redis: db.redisArtifacts && (() => db.redisArtifacts!.health.state()),
        ready: async () => (await context.readiness()).ready,
        databasePool: db.poolUse,
        currentSigningKeys: async () => {
          const { listSigningKeyInfo } = await import('./keys/repository.ts');
          return (await listSigningKeyInfo(db)).filter((k) => k.state === 'current').map((k) => ({ alg: k.alg, since: k.activatesAt || k.createdAt }));
        },
        build: buildInfo(),
      });
      return metrics;
    },
    signInFailures: unknownUsernameFailures({ clock: now }),
    get throttle() {
      // Its refusals and lockouts counted in the metrics (lib/ops/throttle-metrics.ts).
      throttle ??= countedThrottle(createThrottle({ db, redisUrl: config.REDIS_URL, settings: throttleSettings(config) }), context.metrics);
      return throttle;
    },
    get mailer() {
      mailer ??= createMailer(config, { log });
      return mailer;
    },
    async close() {
      // Mails promised after an answer (lib/mail/hand-off.ts) still need the database: sent first, within the mailer's timeouts.
      if (mailer) await handedOff(mailer);
      await throttle?.close();
      await closeDatabase(db.url);
    },
  };
  return context;
}

/**
 * The server's context, built on first use: the start-up asks first, before the server serves. One per
 * process, shared by Next's module graphs (lib/platform/process.ts says why).
 */
export function serverContext(): AppContext {
  const shared = processShared();
  shared.context ??= createContext();
  return shared.context;
}
