// Next's hook, run once per server process before it serves, under `npm start` and plain `next start`
// alike: the start-up's steps (lib/start/steps.ts: migrations, the first admin, the portal's client, the
// provider, the timers). Under `npm start` scripts/server.mjs serves what it hands over (lib/start/handover.ts).
export async function register() {
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { serverContext } = await import('./lib/context');
  const { start } = await import('./lib/start/start');
  await start(serverContext);
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
