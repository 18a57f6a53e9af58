// Runs once per server process before it serves: migrations, first admin, the portal's client, the provider.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // Under `npm start`, the custom server (scripts/server.mjs) waits for the provider's mount or the failure.
  const { registerProviderMount, reportStartupFailure } = await import('./lib/oidc/node-handler');
  try {
    // First: stamps each request with its TCP peer address for the audit log.
    const { installPeerAddressStamp } = await import('./lib/services/request-context');
    installPeerAddressStamp();
    const { prepareDatabase, ensureAdmin, ensurePortalClient } = await import('./lib/services/bootstrap');
    const { getProvider } = await import('./lib/oidc/provider');
    const db = await prepareDatabase();
    await ensureAdmin(db);
    await ensurePortalClient(db);
    const provider = await getProvider();
    const { auditTokenRevocations } = await import('./lib/services/token-audit');
    auditTokenRevocations(provider);
    const { env } = await import('./lib/config/env');
    registerProviderMount(provider, env().ISSUER);
  } catch (error) {
    reportStartupFailure(error);
    throw error;
  }
}
