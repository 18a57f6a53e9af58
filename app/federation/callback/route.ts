// GET /federation/callback — where upstream identity providers send the browser back (register this URL upstream).
import { serverContext } from '@/lib/context';
import { bindingCookie, federationCallback } from '@/lib/federation/sign-in';
import { env } from '@/lib/config/env';
import { requestContext } from '@/lib/platform/request-context';

export async function GET(request: Request): Promise<Response> {
  const next = await federationCallback(serverContext(), new URL(request.url), request.headers.get('cookie'), requestContext(request.headers));
  const response = new Response(null, { status: 303, headers: { location: next.redirect, 'cache-control': 'no-store' } });
  // The round trip this browser started is over, whichever way: its binding cookie goes.
  if (next.endsRoundTrip) response.headers.append('set-cookie', bindingCookie('', env().ISSUER.startsWith('https:'), 0));
  return response;
}
