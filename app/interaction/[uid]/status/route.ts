// GET /interaction/:uid/status — the check-your-mail step's poll: has the link been opened (anywhere) yet?
import { serverContext } from '@/lib/context';
import { verificationStatus } from '@/lib/sign-in/sign-up-interaction';

export const dynamic = 'force-dynamic';

export async function GET(request: Request, { params }: { params: Promise<{ uid: string }> }): Promise<Response> {
  const { uid } = await params;
  const status = await verificationStatus(serverContext(), uid, request.headers.get('cookie'));
  // Per browser and per moment: never cached, anywhere.
  return Response.json(status, { headers: { 'cache-control': 'no-store' } });
}
