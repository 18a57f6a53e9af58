// Runs once per server process before it serves: migrations, first admin, the portal's client, the provider.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // Under `npm start`, the custom server (scripts/server.mjs) waits for the provider's mount or the failure.
  const { registerProviderMount, reportStartupFailure } = await import('./lib/oidc/mounts/node');
  const { createLogger } = await import('./lib/ops/log');
  let log: import('./lib/ops/log').Log | undefined;
  try {
    // First: stamps each request with its TCP peer address for the audit log.
    const { installPeerAddressStamp } = await import('./lib/services/request-context');
    installPeerAddressStamp();
    // The process's one context: every page, action and route handler gets this one (lib/context.ts).
    const { serverContext } = await import('./lib/context');
    const ctx = serverContext();
    const { db, config } = ctx;
    log = ctx.log;
    const info = (line: string) => ctx.log.info(line);
    const warn = (line: string) => ctx.log.warn(line);
    // A logo file that cannot be served stops the start, as a bad setting does.
    if (config.BRAND_LOGO_FILE) {
      const { serverLogoFile } = await import('./lib/config/brand-logo');
      await serverLogoFile(config.BRAND_LOGO_FILE);
    }
    const { prepareDatabase, prepareSecrets, ensureAdmin, ensurePortalClient } = await import('./lib/services/bootstrap');
    await prepareDatabase(db);
    await prepareSecrets(db);
    // At warn: a generated password is for the operator, once, and must not pass unseen.
    await ensureAdmin(db, config, warn);
    await ensurePortalClient(db, { issuer: config.ISSUER, product: config.BRAND_NAME, log: warn });
    // Before the provider reads the keys: the first start's keys are created here (and audited),
    // and a rotation that fell due while no instance ran happens before anything is signed.
    const { checkSigningKeys, rotationSettings, startSigningKeyRotation } = await import('./lib/services/signing-keys');
    await checkSigningKeys(db, rotationSettings(config));
    const provider = await ctx.provider();
    const { auditTokenRevocations } = await import('./lib/services/token-audit');
    // On this provider and on each one rebuilt after a key change.
    ctx.onProvider((built) => auditTokenRevocations(built, db));
    if (config.METRICS_PORT !== undefined) {
      // Both `npm start` and plain `next start` run this, so both serve metrics. Before
      // the mount: a port that is taken stops the start rather than leave it unwatched.
      const { startMetricsServer } = await import('./lib/ops/metrics-server');
      const metrics = await startMetricsServer(ctx.metrics, { host: config.METRICS_HOST, port: config.METRICS_PORT, log: ctx.log });
      ctx.log.info({ url: metrics.url }, `metrics at ${metrics.url}`);
    }
    const { healthMount } = await import('./lib/ops/health');
    // The timers first, so that none of them reaches for the database once it is closing.
    let stopRotation = () => {};
    let stopRetention = () => {};
    const close = async () => {
      stopRotation();
      stopRetention();
      await ctx.close();
    };
    ctx.onProvider(registerProviderMount(provider, config.ISSUER, ctx.metrics, ctx.log, close, healthMount(ctx.readiness)));
    // From now on every few seconds: what the clock makes due, and keys changed by another instance or the CLI.
    stopRotation = startSigningKeyRotation(ctx, rotationSettings(config));
    // Where password reset links go: the operator should know before a person asks for one.
    ctx.log.info(`mail goes to ${ctx.mailer.destination}`);
    // Sign-up needs mail: an operator who turned it on learns here when it is not offered.
    const { signUpStartupLine } = await import('./lib/services/sign-up');
    const signUpLine = signUpStartupLine(ctx);
    if (signUpLine) ctx.log.warn(signUpLine);
    // After the server can serve: reports for the operator and the audit log's
    // retention. They read through Prisma, whose first query costs a start
    // that finds everything in place a few hundred ms it need not wait for.
    const { reportClientPolicyViolations } = await import('./lib/services/client-policy-report');
    const { reportUsernameClashes } = await import('./lib/services/username-clashes');
    const { startAuditRetention } = await import('./lib/services/audit-retention');
    void reportClientPolicyViolations(db, warn).catch((error: unknown) => ctx.log.error({ err: error }, 'the client policy report failed'));
    void reportUsernameClashes(db, warn).catch((error: unknown) => ctx.log.error({ err: error }, 'the username clash report failed'));
    stopRetention = startAuditRetention(db, { days: config.AUDIT_RETENTION_DAYS, log: info });
  } catch (error) {
    // Without a context (an invalid configuration, LOG_LEVEL included) a logger at the defaults says why.
    (log ?? createLogger()).fatal({ err: error }, 'start-up failed');
    reportStartupFailure(error);
    throw error;
  }
}
