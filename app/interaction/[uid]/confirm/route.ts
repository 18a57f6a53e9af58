// POST /interaction/:uid/confirm — the consent form's Allow.
import { forbidden, formOf, isSameOrigin, respond } from '@/app/interaction/respond';
import { confirmConsent } from '@/lib/services/interactions';
import { requestContext } from '@/lib/services/request-context';

export async function POST(request: Request, { params }: { params: Promise<{ uid: string }> }) {
  if (!isSameOrigin(request)) return forbidden();
  const form = await formOf(request);
  if (form instanceof Response) return form;
  const { uid } = await params;
  return respond(uid, await confirmConsent(uid, request.headers.get('cookie'), requestContext(request.headers)));
}
