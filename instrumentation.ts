// Runs once per server process before it serves: migrations, first admin, provider warm-up.
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { prepareDatabase, ensureAdmin } = await import('./lib/services/bootstrap');
  const { getProvider } = await import('./lib/oidc/provider');
  const db = await prepareDatabase();
  await ensureAdmin(db);
  await getProvider();
}
