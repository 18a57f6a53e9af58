// Runs once per server process before it serves: migrations, first admin, the portal's client, the provider.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // Under `npm start`, the custom server (scripts/server.mjs) waits for the provider's mount or the failure.
  const { registerProviderMount, reportStartupFailure, underCustomServer } = await import('./lib/oidc/mounts/node');
  const { createLogger } = await import('./lib/ops/log');
  const { warnAboutMistypedSettings } = await import('./lib/config/mistyped-settings');
  let log: import('./lib/ops/log').Log | undefined;
  try {
    // First: stamps each request with its TCP peer address for the audit log.
    const { installPeerAddressStamp } = await import('./lib/platform/request-context');
    installPeerAddressStamp();
    const { serverContext } = await import('./lib/context');
    // Traces, when OTEL_EXPORTER_OTLP_ENDPOINT is set; the SDK is not even loaded otherwise. Before
    // the context, whose logger then stamps each line with the active span's ids (lib/ops/log.ts).
    const { startTracing, tracingSettings } = await import('./lib/ops/tracing');
    const tracer = await startTracing(tracingSettings(), {
      warn: (line) => serverContext().log.warn(line),
      info: (line) => serverContext().log.info(line),
    });
    // The process's one context: every page, action and route handler gets this one (lib/context.ts).
    const ctx = serverContext();
    const { db, config } = ctx;
    log = ctx.log;
    // First: a mistyped setting may be why something below fails.
    warnAboutMistypedSettings(log);
    // A first start without ISSUER: say which address every printed URL and redirect will use.
    if (process.env.ISSUER === undefined) log.info({ issuer: config.ISSUER }, `ISSUER is unset: the issuer is ${config.ISSUER}, from PORT`);
    const info = (line: string) => ctx.log.info(line);
    const warn = (line: string) => ctx.log.warn(line);
    // A logo file that cannot be served stops the start, as a bad setting does.
    if (config.BRAND_LOGO_FILE) {
      const { serverLogoFile } = await import('./lib/config/brand-logo');
      await serverLogoFile(config.BRAND_LOGO_FILE);
    }
    const { prepareDatabase, prepareSecrets, ensureAdmin, ensurePortalClient } = await import('./lib/services/bootstrap');
    // Refuses before the first migration when a setting the start needs is missing; logs each migration it applies.
    await prepareDatabase(db, { log: ctx.log, secretsKey: config.SECRETS_KEY });
    // REDIS_URL set and Redis silent: the start goes on (the throttle and token refreshes fall back to the database; refusing would stop every instance in an outage) and says so.
    const { checkRedisAtStart } = await import('./lib/db/redis-health');
    await checkRedisAtStart(db.redisArtifacts, ctx.log);
    await prepareSecrets(db);
    // At warn: a generated password is for the operator, once, and must not pass unseen.
    await ensureAdmin(db, config, warn);
    await ensurePortalClient(db, { issuer: config.ISSUER, product: config.BRAND_NAME, log: warn });
    // Before the provider reads the keys: the first start's keys are created here (and audited),
    // and a rotation that fell due while no instance ran happens before anything is signed.
    const { checkSigningKeys, logSigningKeySteps, rotationSettings, startSigningKeyRotation } = await import('./lib/keys/signing-keys');
    logSigningKeySteps(ctx.log, await checkSigningKeys(db, rotationSettings(config)));
    const provider = await ctx.provider();
    const { auditTokenRevocations } = await import('./lib/audit/token-audit');
    // On this provider and on each one rebuilt after a key change.
    ctx.onProvider((built) => auditTokenRevocations(built, db));
    if (config.METRICS_PORT !== undefined) {
      // Both `npm start` and plain `next start` run this, so both serve metrics. Before
      // the mount: a port that is taken stops the start rather than leave it unwatched.
      const { startMetricsServer } = await import('./lib/ops/metrics-server');
      const metrics = await startMetricsServer(ctx.metrics, { host: config.METRICS_HOST, port: config.METRICS_PORT, log: ctx.log });
      ctx.log.info({ url: metrics.url }, `metrics at ${metrics.url}`);
    }
    if (config.METRICS_TOKEN) ctx.log.info(`metrics at ${config.ISSUER}/metrics for the bearer of METRICS_TOKEN`);
    if (tracer) ctx.log.info({ endpoint: tracer.endpoint }, `traces go to ${tracer.endpoint}`);
    const { healthMount } = await import('./lib/ops/health');
    const { metricsMount } = await import('./lib/ops/metrics-server');
    // The timers first, so that none of them reaches for the database once it is closing;
    // the tracer last, so that it sends the spans of everything before.
    let stopRotation = () => {};
    let stopRetention = () => {};
    const close = async () => {
      stopRotation();
      stopRetention();
      try {
        await ctx.close();
      } finally {
        await tracer?.shutdown();
      }
    };
    const health = healthMount(ctx.readiness);
    const metricsOnIssuer = config.METRICS_TOKEN ? metricsMount(ctx.metrics, config.METRICS_TOKEN, ctx.log) : undefined;
    const ahead: import('./lib/oidc/mounts/node').ProviderMount = (req, res) => health(req, res) || (metricsOnIssuer?.(req, res) ?? false);
    ctx.onProvider(registerProviderMount(provider, config.ISSUER, ctx.metrics, ctx.log, close, ahead));
    if (!underCustomServer()) {
      // Plain `next start` (and `next dev`): Next handles the signal; `close` runs before its exit.
      const { closeBeforeNextExits } = await import('./lib/ops/next-start-stop');
      closeBeforeNextExits(close, ctx.log);
    }
    // From now on every few seconds: what the clock makes due, and keys changed by another instance or the CLI.
    stopRotation = startSigningKeyRotation(ctx, rotationSettings(config));
    // Where password reset links go: the operator should know before a person asks for one.
    ctx.log.info(`mail goes to ${ctx.mailer.destination}`);
    // Sign-up needs mail: an operator who turned it on learns here when it is not offered.
    const { signUpStartupLine } = await import('./lib/sign-in/sign-up');
    const signUpLine = signUpStartupLine(ctx);
    if (signUpLine) ctx.log.warn(signUpLine);
    // Passkeys need a domain name: under an IP-address ISSUER no page offers them, and the operator learns why here.
    const { passkeysStartupLine } = await import('./lib/factors/passkeys');
    const passkeysLine = passkeysStartupLine(config);
    if (passkeysLine) ctx.log.warn(passkeysLine);
    // After the server can serve: reports for the operator and the audit log's
    // retention. They read through Prisma, whose first query costs a start
    // that finds everything in place a few hundred ms it need not wait for.
    const { reportClientPolicyViolations } = await import('./lib/clients/policy-report');
    const { reportUsernameClashes } = await import('./lib/users/username-clashes');
    const { startAuditRetention } = await import('./lib/audit/retention');
    void reportClientPolicyViolations(db, warn).catch((error: unknown) => ctx.log.error({ err: error }, 'the client policy report failed'));
    void reportUsernameClashes(db, warn).catch((error: unknown) => ctx.log.error({ err: error }, 'the username clash report failed'));
    stopRetention = startAuditRetention(db, { days: config.AUDIT_RETENTION_DAYS, log: info });
  } catch (error) {
    // Without a context (an invalid configuration, LOG_LEVEL included) a logger at the defaults says why,
    // after the settings that were perhaps meant.
    if (!log) {
      log = createLogger();
      warnAboutMistypedSettings(log);
    }
    log.fatal({ err: error }, 'start-up failed');
    reportStartupFailure(error);
    throw error;
  }
}

/**
 * An error no page, server action or route handler caught (Next filters out its redirects and
 * not-founds): one JSON line with the request id and the route (`/interaction/[uid]`, never the
 * path), naming Redis when Redis being lost is the cause (lib/oidc/server-errors.ts). Next
 * answers the request itself.
 */
export async function onRequestError(...[error, request, context]: Parameters<import('next').Instrumentation.onRequestError>) {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { serverContext } = await import('./lib/context');
  const { logServerError } = await import('./lib/oidc/server-errors');
  const requestId = request.headers['x-request-id'];
  logServerError(serverContext().log, typeof requestId === 'string' ? requestId : undefined, error, { route: context.routePath });
}
