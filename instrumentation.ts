// Runs once per server process before it serves: migrations, first admin, the portal's client, provider warm-up.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  // First, before any await: stamps each request with its TCP peer address for the audit log.
  const { installPeerAddressStamp } = await import('./lib/services/request-context');
  installPeerAddressStamp();
  const { prepareDatabase, ensureAdmin, ensurePortalClient } = await import('./lib/services/bootstrap');
  const { getProvider } = await import('./lib/oidc/provider');
  const db = await prepareDatabase();
  await ensureAdmin(db);
  await ensurePortalClient(db);
  const { auditTokenRevocations } = await import('./lib/services/token-audit');
  auditTokenRevocations(await getProvider());
}
