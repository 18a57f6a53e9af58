/**
 * The start-up, one named step after another: what a server process does
 * before it serves, its hand-over to the custom server, and the timers and
 * reports it leaves running. lib/start/start.ts runs
 * them in this order, logs each by name with its duration (at debug) and says
 * which one failed; instrumentation.ts runs it under `npm start` and plain
 * `next start` alike, and scripts/server.mjs serves what it hands over.
 */
import type Provider from 'oidc-provider';
import { warnAboutMistypedSettings } from '../config/mistyped-settings.ts';
import { serverLogoFile } from '../config/brand-logo.ts';
import type { AppContext } from '../context.ts';
import { checkRedisAtStart } from '../db/redis-health.ts';
import { checkSigningKeys, logSigningKeySteps, rotationSettings, startSigningKeyRotation } from '../keys/signing-keys.ts';
import { auditTokenRevocations } from '../audit/token-audit.ts';
import { startAuditRetention } from '../audit/retention.ts';
import { startWebhookDelivery } from '../webhooks/delivery.ts';
import { startAuditCheckpoints } from '../audit/checkpoints.ts';
import { startLogoutDelivery } from '../logout/delivery.ts';
import { dropQueuedLogouts } from '../logout/queue.ts';
import { startUnusedClientSweep } from '../registration/clients.ts';
import { reportClientPolicyViolations } from '../clients/policy-report.ts';
import { reportUsernameClashes } from '../users/username-clashes.ts';
import { passkeysStartupLine } from '../factors/passkeys.ts';
import { signUpStartupLine } from '../sign-in/sign-up.ts';
import { createProviderMount, createServerMount, type ProviderMount, type ServerMount } from '../oidc/mounts/node.ts';
import { healthMount } from '../ops/health.ts';
import type { Log } from '../ops/log.ts';
import { metricsMount, startMetricsServer } from '../ops/metrics-server.ts';
import { closeBeforeNextExits } from '../ops/next-start-stop.ts';
import { startTracing, type Tracing, tracingSettings } from '../ops/tracing.ts';
import { installPeerAddressStamp } from '../platform/request-context.ts';
import { ensureAdmin, ensurePortalClient, prepareDatabase, prepareSecrets } from './first-start.ts';
import { clusterWorker, handOver, underCustomServer } from './handover.ts';

/** What the steps build, one after another. */
export interface Starting {
  /** The process's context, built on first use (by the `context` step, after tracing). */
  readonly ctx: AppContext;
  /** The context's log once it is built: what start.ts logs a failure with. */
  log?: Log;
  tracer?: Tracing;
  provider?: Provider;
  /** Every request of the custom server (`npm start`), set by the `mount` step. */
  handle?: ServerMount;
  /** What `close` runs, the last added first: timers before the context, the tracer last. */
  onClose(close: () => void | Promise<void>): void;
  /** Closes what the steps opened (start.ts): once nothing is served any more. */
  close(): Promise<void>;
}

export interface StartStep {
  readonly name: string;
  run(starting: Starting): void | Promise<void>;
}

export const START_STEPS: readonly StartStep[] = [
  // First: stamps each request with its TCP peer address for the audit log.
  { name: 'peer-address', run: () => installPeerAddressStamp() },
  {
    // Traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set; the SDK is not even loaded otherwise. Before
    // the context, whose logger then stamps each line with the active span's ids (lib/ops/log.ts).
    name: 'tracing',
    async run(s) {
      s.tracer = await startTracing(tracingSettings(), { warn: (line) => s.ctx.log.warn(line), info: (line) => s.ctx.log.info(line) });
      // The tracer last, so that it sends the spans of everything before.
      const tracer = s.tracer;
      if (tracer) s.onClose(() => tracer.shutdown());
    },
  },
  {
    // The process's one context: every page, action and route handler gets this one (lib/context.ts).
    name: 'context',
    run(s) {
      s.log = s.ctx.log;
      s.onClose(() => s.ctx.close());
    },
  },
  {
    name: 'settings',
    run({ ctx }) {
      // First: a mistyped setting may be why something below fails.
      warnAboutMistypedSettings(ctx.log);
      // A first start without ISSUER: say which address every printed URL and redirect will use.
      if (process.env.ISSUER === undefined) ctx.log.info({ issuer: ctx.config.ISSUER }, `ISSUER is unset: the issuer is ${ctx.config.ISSUER}, from PORT`);
    },
  },
  {
    // A logo file that cannot be served stops the start, as a bad setting does.
    name: 'brand-logo',
    async run({ ctx }) {
      if (ctx.config.BRAND_LOGO_FILE) await serverLogoFile(ctx.config.BRAND_LOGO_FILE);
    },
  },
  {
    // Refuses before the first migration when a setting the start needs is missing; logs each migration it applies.
    name: 'database',
    async run({ ctx }) {
      await prepareDatabase(ctx.db, { log: ctx.log, secretsKey: ctx.config.SECRETS_KEY });
    },
  },
  {
    // REDIS_URL set and Redis silent: the start goes on (the throttle and token refreshes fall back to the database; refusing would stop every instance in an outage) and says so.
    name: 'redis',
    run: ({ ctx }) => checkRedisAtStart(ctx.db.redisArtifacts, ctx.log),
  },
  { name: 'secrets', run: ({ ctx }) => prepareSecrets(ctx.db) },
  // At warn: a generated password is for the operator, once, and must not pass unseen.
  { name: 'first-admin', run: ({ ctx }) => ensureAdmin(ctx.db, ctx.config, (line) => ctx.log.warn(line)) },
  {
    name: 'portal-client',
    run: ({ ctx }) => ensurePortalClient(ctx.db, { issuer: ctx.config.ISSUER, product: ctx.config.BRAND_NAME, log: (line) => ctx.log.warn(line) }),
  },
  {
    // Before the provider reads the keys: the first start's keys are created here (and audited),
    // and a rotation that fell due while no instance ran happens before anything is signed.
    name: 'signing-keys',
    async run({ ctx }) {
      logSigningKeySteps(ctx.log, await checkSigningKeys(ctx.db, rotationSettings(ctx.config), { now: ctx.now() }));
    },
  },
  {
    name: 'provider',
    async run(s) {
      s.provider = await s.ctx.provider();
      // On this provider and on each one rebuilt after a key change.
      s.ctx.onProvider((built) => auditTokenRevocations(built, s.ctx.db));
    },
  },
  {
    name: 'metrics',
    async run({ ctx, tracer }) {
      const { config } = ctx;
      if (config.METRICS_PORT !== undefined) {
        // Both `npm start` and plain `next start` run this, so both serve metrics. Before
        // the mount: a port that is taken stops the start rather than leave it unwatched.
        // A worker of several has its primary listen, for the whole server (./handover.ts).
        const listen = { host: config.METRICS_HOST, port: config.METRICS_PORT };
        const workers = clusterWorker();
        const url = workers ? await workers.serveMetrics(listen) : (await startMetricsServer(ctx.metrics, { ...listen, log: ctx.log })).url;
        ctx.log.info({ url }, `metrics at ${url}`);
      }
      if (config.METRICS_TOKEN) ctx.log.info(`metrics at ${config.ISSUER}/metrics for the bearer of METRICS_TOKEN`);
      if (tracer) ctx.log.info({ endpoint: tracer.endpoint }, `traces go to ${tracer.endpoint}`);
    },
  },
  {
    // The custom server's mount: the probes and /metrics, then the provider, then Next (lib/oidc/mounts/node.ts).
    name: 'mount',
    run(s) {
      const { ctx } = s;
      const health = healthMount(ctx.readiness);
      // A worker of several answers for the whole server: its primary sums every worker's figures.
      const workers = clusterWorker();
      const figures = workers ? { registry: { metrics: () => workers.scrape(), contentType: ctx.metrics.registry.contentType } } : ctx.metrics;
      const metricsOnIssuer = ctx.config.METRICS_TOKEN ? metricsMount(figures, ctx.config.METRICS_TOKEN, ctx.log) : undefined;
      const ahead: ProviderMount = (req, res) => health(req, res) || (metricsOnIssuer?.(req, res) ?? false);
      const { mount, serve } = createProviderMount(s.provider ?? missing('provider'), ctx.config.ISSUER);
      ctx.onProvider(serve);
      s.handle = createServerMount(mount, ctx.log, ahead, ctx.metrics);
    },
  },
  {
    // The custom server listens from here on (./handover.ts), as soon as it can serve: the steps
    // below start timers and reports that need not hold it up (the reports' first Prisma query
    // costs seconds on a loaded machine). A failure below is logged, and the server serves on.
    name: 'hand-over',
    run(s) {
      const { metrics } = s.ctx;
      handOver({ handle: s.handle ?? missing('mount'), log: s.ctx.log, close: () => s.close(), collectMetrics: () => metrics.registry.getMetricsAsJSON() });
    },
  },
  {
    // Plain `next start` (and `next dev`): Next handles the signal; `close` runs before its exit.
    // `npm start` stops in scripts/server.mjs, which calls `close` itself.
    name: 'stop',
    run(s) {
      if (!underCustomServer()) closeBeforeNextExits(() => s.close(), s.ctx.log);
    },
  },
  {
    // From now on every few seconds: what the clock makes due, and keys changed by another instance or the CLI.
    // The timers stop first at close, so that none of them reaches for the database once it is closing.
    name: 'key-rotation',
    run(s) {
      s.onClose(startSigningKeyRotation(s.ctx, rotationSettings(s.ctx.config)));
    },
  },
  {
    // BACKCHANNEL_LOGOUT=on: the queued logout tokens go out from every instance (lib/logout/delivery.ts).
    name: 'backchannel-logout',
    run(s) {
      const { ctx } = s;
      // Off, nothing is sent: what an earlier run queued goes.
      if (ctx.config.BACKCHANNEL_LOGOUT !== 'on') {
        void dropQueuedLogouts(ctx.db).catch((error: unknown) => ctx.log.error({ err: error }, 'back-channel logout: emptying the queue failed'));
        return;
      }
      s.onClose(
        startLogoutDelivery(
          { db: ctx.db, provider: () => ctx.provider(), now: ctx.now, log: ctx.log },
          { maxAttempts: ctx.config.BACKCHANNEL_LOGOUT_MAX_ATTEMPTS },
        ),
      );
    },
  },
  {
    // The webhook outbox goes out from every instance (lib/webhooks/delivery.ts); with no endpoint registered it stays empty.
    name: 'webhooks',
    run(s) {
      const { ctx } = s;
      s.onClose(
        startWebhookDelivery(
          { db: ctx.db, now: ctx.now, log: ctx.log },
          {
            maxAttempts: ctx.config.WEBHOOK_MAX_ATTEMPTS,
            disableAfterFailures: ctx.config.WEBHOOK_DISABLE_AFTER_FAILURES,
            disableAfterMs: ctx.config.WEBHOOK_DISABLE_AFTER_HOURS * 3_600_000,
            historyMs: ctx.config.WEBHOOK_HISTORY_DAYS * 86_400_000,
            leaseMs: ctx.config.WEBHOOK_LEASE_SECONDS * 1_000,
          },
        ),
      );
    },
  },
  {
    // Self-registered clients that got no token for DYNAMIC_REGISTRATION_UNUSED_DAYS are disabled, hourly.
    name: 'unused-clients',
    run(s) {
      const { ctx } = s;
      if (ctx.config.DYNAMIC_REGISTRATION === 'off') return;
      s.onClose(startUnusedClientSweep(ctx.db, { days: ctx.config.DYNAMIC_REGISTRATION_UNUSED_DAYS, now: ctx.now, log: (line) => ctx.log.info(line) }));
    },
  },
  {
    name: 'notices',
    run({ ctx }) {
      // Where password reset links go: the operator should know before a person asks for one.
      ctx.log.info(`mail goes to ${ctx.mailer.destination}`);
      // Sign-up needs mail: an operator who turned it on learns here when it is not offered.
      const signUpLine = signUpStartupLine(ctx);
      if (signUpLine) ctx.log.warn(signUpLine);
      // Passkeys need a domain name: under an IP-address ISSUER no page offers them, and the operator learns why here.
      const passkeysLine = passkeysStartupLine(ctx.config);
      if (passkeysLine) ctx.log.warn(passkeysLine);
    },
  },
  {
    // After the server can serve: reports for the operator and the audit log's
    // retention and checkpoints. They read through Prisma, whose first query costs a start
    // that finds everything in place a few hundred ms it need not wait for.
    name: 'reports',
    run(s) {
      const { ctx } = s;
      const warn = (line: string) => ctx.log.warn(line);
      void reportClientPolicyViolations(ctx.db, warn).catch((error: unknown) => ctx.log.error({ err: error }, 'the client policy report failed'));
      void reportUsernameClashes(ctx.db, warn).catch((error: unknown) => ctx.log.error({ err: error }, 'the username clash report failed'));
      s.onClose(startAuditRetention(ctx.db, { days: ctx.config.AUDIT_RETENTION_DAYS, log: (line) => ctx.log.info(line), now: ctx.now }));
      // Signed checkpoints of the audit chain (the genesis at the first start after the upgrade, then as it grows).
      s.onClose(startAuditCheckpoints(ctx.db, { log: (line) => ctx.log.warn(line), now: ctx.now }));
    },
  },
];

function missing(what: string): never {
  throw new Error(`the start-up has no ${what} yet: its steps are out of order`);
}
