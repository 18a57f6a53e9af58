'use server';
// The sign-up form's server action: it posts to /interaction/:uid/sign-up, where the interaction's cookie reaches it.
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { requestContext } from '@/lib/services/request-context';
import { submitSignUp, type SignUpFormState } from '@/lib/services/sign-up-interaction';

export async function signUpAction(uid: string, _state: SignUpFormState, form: FormData): Promise<SignUpFormState> {
  const outcome = await submitSignUp(typeof uid === 'string' ? uid : '', (await cookies()).toString() || null, form, requestContext(await headers()));
  if ('redirect' in outcome) redirect(outcome.redirect);
  return outcome;
}
