// POST /interaction/:uid/login — the sign-in form's target.
import { forbidden, formOf, isSameOrigin, rememberUsername, respond } from '@/app/interaction/respond';
import { signIn } from '@/lib/services/interactions';
import { requestContext } from '@/lib/services/request-context';

export async function POST(request: Request, { params }: { params: Promise<{ uid: string }> }) {
  if (!isSameOrigin(request)) return forbidden();
  const form = await formOf(request);
  if (form instanceof Response) return form;
  const { uid } = await params;
  const next = await signIn(uid, request.headers.get('cookie'), form, requestContext(request.headers));
  const response = respond(uid, next);
  if ('error' in next) rememberUsername(response, uid, form.get('username'));
  return response;
}
