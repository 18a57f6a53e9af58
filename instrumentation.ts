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
    const { prepareDatabase, prepareSecrets, ensureAdmin, ensurePortalClient } = await import('./lib/services/bootstrap');
    await prepareDatabase(db);
    await prepareSecrets(db);
    await ensureAdmin(db, config);
    await ensurePortalClient(db, { issuer: config.ISSUER });
    const provider = await ctx.provider();
    const { auditTokenRevocations } = await import('./lib/services/token-audit');
    auditTokenRevocations(provider, db);
    registerProviderMount(provider, config.ISSUER);
    // Where password reset links go: the operator should know before a person asks for one.
    console.log(`[gatehouse] mail goes to ${ctx.mailer.destination}`);
    // Sign-up needs mail: an operator who turned it on learns here when it is not offered.
    const { signUpStartupLine } = await import('./lib/services/sign-up');
    const signUpLine = signUpStartupLine(ctx);
    if (signUpLine) console.log(`[gatehouse] ${signUpLine}`);
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
