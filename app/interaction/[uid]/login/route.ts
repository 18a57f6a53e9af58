// POST /interaction/:uid/login — the sign-in form's target.
import { badForm, forbidden, formOf, isSameOrigin, respond } from '@/app/interaction/respond';
import { signIn } from '@/lib/services/interactions';

export async function POST(request: Request, { params }: { params: Promise<{ uid: string }> }) {
  if (!isSameOrigin(request)) return forbidden();
  const { uid } = await params;
  const form = await formOf(request);
  if (!form) return badForm();
  return respond(uid, await signIn(uid, request.headers.get('cookie'), form));
}
