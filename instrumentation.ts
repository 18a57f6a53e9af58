// Runs once per server process before it serves: migrations, first admin, the portal's client, the provider.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // Under `npm start`, the custom server (scripts/server.mjs) waits for the provider's mount or the failure.
  const { registerProviderMount, reportStartupFailure } = await import('./lib/oidc/mounts/node');
  try {
    // First: stamps each request with its TCP peer address for the audit log.
    const { installPeerAddressStamp } = await import('./lib/services/request-context');
    installPeerAddressStamp();
    const { prepareDatabase, prepareSecrets, ensureAdmin, ensurePortalClient } = await import('./lib/services/bootstrap');
    const { getProvider } = await import('./lib/oidc/provider');
    const db = await prepareDatabase();
    await prepareSecrets(db);
    await ensureAdmin(db);
    await ensurePortalClient(db);
    const provider = await getProvider();
    const { auditTokenRevocations } = await import('./lib/services/token-audit');
    auditTokenRevocations(provider);
    const { env } = await import('./lib/config/env');
    registerProviderMount(provider, env().ISSUER);
    // After the server can serve: reports for the operator and the audit log's
    // retention. They read through Prisma, whose first query costs a start
    // that finds everything in place a few hundred ms it need not wait for.
    const { reportClientPolicyViolations } = await import('./lib/services/client-policy-report');
    const { reportUsernameClashes } = await import('./lib/services/username-clashes');
    const { startAuditRetention } = await import('./lib/services/audit-retention');
    void reportClientPolicyViolations(db).catch((error) => console.error('[gatehouse] the client policy report failed:', error));
    void reportUsernameClashes(db).catch((error) => console.error('[gatehouse] the username clash report failed:', error));
    startAuditRetention(db);
  } catch (error) {
    reportStartupFailure(error);
    throw error;
  }
}
