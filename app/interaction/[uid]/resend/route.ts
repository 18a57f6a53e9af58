// POST /interaction/:uid/resend — the check-your-mail step's "Send the link again".
import { interactionForm } from '@/app/interaction/respond';
import { requestLocale } from '@/lib/surfaces/locale';
import { resendFromInteraction } from '@/lib/sign-in/sign-up-interaction';

// The mail in the page's language (ui_locales, then Accept-Language: lib/surfaces/locale.ts).
export const POST = interactionForm(async (ctx, uid, cookie, context) => resendFromInteraction(ctx, uid, cookie, context, await requestLocale()));
