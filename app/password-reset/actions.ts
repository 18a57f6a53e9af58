'use server';
/**
 * The password reset forms' server actions: public (no one is signed in), so
 * each is throttled by the use case (lib/mail-links/password-reset.ts). Next.js
 * refuses server-action posts whose Origin is not this host (CSRF).
 */
import { headers } from 'next/headers';
import { serverContext } from '@/lib/context';
import { requestLocale } from '@/lib/surfaces/locale';
import { requestPasswordReset, resetPassword, type ResetRequestState, type ResetState } from '@/lib/mail-links/password-reset';
import { requestContext } from '@/lib/platform/request-context';

export async function requestResetAction(_state: ResetRequestState, form: FormData): Promise<ResetRequestState> {
  // The mail in the language this request asks for (Accept-Language; lib/surfaces/locale.ts).
  return requestPasswordReset(serverContext(), form, requestContext(await headers()), await requestLocale());
}

export async function resetPasswordAction(token: string, _state: ResetState, form: FormData): Promise<ResetState> {
  return resetPassword(serverContext(), typeof token === 'string' ? token : '', form, requestContext(await headers()));
}
