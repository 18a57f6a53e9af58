// Runs once per server process before it serves: migrations, first admin, the portal's client, the provider.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // Under `npm start`, the custom server (scripts/server.mjs) waits for the provider's mount or the failure.
  const { registerProviderMount, reportStartupFailure } = await import('./lib/oidc/mounts/node');
  try {
    // First: stamps each request with its TCP peer address for the audit log.
    const { installPeerAddressStamp } = await import('./lib/services/request-context');
    installPeerAddressStamp();
    // The process's one context: every page, action and route handler gets this one (lib/context.ts).
    const { serverContext } = await import('./lib/context');
    const ctx = serverContext();
    const { db, config } = ctx;
    // A logo file that cannot be served stops the start, as a bad setting does.
    if (config.BRAND_LOGO_FILE) {
      const { serverLogoFile } = await import('./lib/config/brand-logo');
      await serverLogoFile(config.BRAND_LOGO_FILE);
    }
    const { prepareDatabase, prepareSecrets, ensureAdmin, ensurePortalClient } = await import('./lib/services/bootstrap');
    await prepareDatabase(db);
    await prepareSecrets(db);
    await ensureAdmin(db, config);
    await ensurePortalClient(db, { issuer: config.ISSUER, product: config.BRAND_NAME });
    const provider = await ctx.provider();
    const { auditTokenRevocations } = await import('./lib/services/token-audit');
    auditTokenRevocations(provider, db);
    if (config.METRICS_PORT !== undefined) {
      // Both `npm start` and plain `next start` run this, so both serve metrics. Before
      // the mount: a port that is taken stops the start rather than leave it unwatched.
      const { startMetricsServer } = await import('./lib/ops/metrics-server');
      const metrics = await startMetricsServer(ctx.metrics, { host: config.METRICS_HOST, port: config.METRICS_PORT });
      console.log(`[gatehouse] metrics at ${metrics.url}`);
    }
    const { healthMount } = await import('./lib/ops/health');
    registerProviderMount(provider, config.ISSUER, ctx.metrics, healthMount(ctx.readiness));
    // Where password reset links go: the operator should know before a person asks for one.
    console.log(`[gatehouse] mail goes to ${ctx.mailer.destination}`);
    // After the server can serve: reports for the operator and the audit log's
    // retention. They read through Prisma, whose first query costs a start
    // that finds everything in place a few hundred ms it need not wait for.
    const { reportClientPolicyViolations } = await import('./lib/services/client-policy-report');
    const { reportUsernameClashes } = await import('./lib/services/username-clashes');
    const { startAuditRetention } = await import('./lib/services/audit-retention');
    void reportClientPolicyViolations(db).catch((error) => console.error('[gatehouse] the client policy report failed:', error));
    void reportUsernameClashes(db).catch((error) => console.error('[gatehouse] the username clash report failed:', error));
    startAuditRetention(db, { days: config.AUDIT_RETENTION_DAYS });
  } catch (error) {
    reportStartupFailure(error);
    throw error;
  }
}
