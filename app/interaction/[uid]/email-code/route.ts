// POST /interaction/:uid/email-code — "Email me a sign-in code" (the sign-in form's username), and "Send a new code".
import { interactionForm } from '@/app/interaction/respond';
import { requestLocale } from '@/lib/surfaces/locale';
import { requestSignInCode } from '@/lib/sign-in/email-codes';

// The mail in the page's language (ui_locales, then Accept-Language: lib/surfaces/locale.ts).
export const POST = interactionForm(async (ctx, uid, cookie, context, form) => requestSignInCode(ctx, uid, cookie, form, context, await requestLocale()));
