// GET /federation/logged-out — where an upstream sends the browser back after its own logout (register it upstream
// as a post-logout redirect URI); on to where Gatehouse's logout was going (lib/federation/upstream-logout.ts).
import { serverContext } from '@/lib/context';
import { afterUpstreamLogout } from '@/lib/federation/upstream-logout';

export async function GET(request: Request): Promise<Response> {
  const ctx = serverContext();
  const state = new URL(request.url).searchParams.get('state');
  const location = await afterUpstreamLogout({ db: ctx.db, now: ctx.now, issuer: ctx.config.ISSUER, signedOut: '/oauth/logout/success' }, state);
  return new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
}
