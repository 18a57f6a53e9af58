'use server';
// The sign-up form's server action: it posts to /interaction/:uid/sign-up, where the interaction's cookie reaches it.
import { cookies, headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { serverContext } from '@/lib/context';
import { requestLocale } from '@/lib/surfaces/locale';
import { requestContext } from '@/lib/platform/request-context';
import { submitSignUp, type SignUpFormState } from '@/lib/sign-in/sign-up-interaction';

export async function signUpAction(uid: string, _state: SignUpFormState, form: FormData): Promise<SignUpFormState> {
  const id = typeof uid === 'string' ? uid : '';
  // The mail in the page's language (ui_locales, then Accept-Language: lib/surfaces/locale.ts).
  const outcome = await submitSignUp(serverContext(), id, (await cookies()).toString() || null, form, requestContext(await headers()), await requestLocale());
  if ('redirect' in outcome) redirect(outcome.redirect);
  return outcome;
}
