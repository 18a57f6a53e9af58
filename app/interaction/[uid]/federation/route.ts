// POST /interaction/:uid/federation — a connection's button on the sign-in page: off to the upstream.
// GET /interaction/:uid/federation — back from the upstream (via /federation/callback): the interaction's own step.
import { interactionForm } from '@/app/interaction/respond';
import { serverContext } from '@/lib/context';
import { env } from '@/lib/config/env';
import { completeFederatedSignIn, startFederatedSignIn } from '@/lib/federation/sign-in';
import { requestContext } from '@/lib/platform/request-context';

export const POST = interactionForm((ctx, uid, cookie, context, form) => startFederatedSignIn(ctx, uid, cookie, form, context));

export async function GET(request: Request, { params }: { params: Promise<{ uid: string }> }): Promise<Response> {
  const { uid } = await params;
  const next = await completeFederatedSignIn(serverContext(), uid, request.headers.get('cookie'), requestContext(request.headers));
  const location = 'redirect' in next ? next.redirect : new URL(`/interaction/${encodeURIComponent(uid)}?error=${next.error}`, env().ISSUER).toString();
  const response = new Response(null, { status: 303, headers: { location, 'cache-control': 'no-store' } });
  if ('redirect' in next) for (const cookie of next.cookies ?? []) response.headers.append('set-cookie', cookie);
  return response;
}
