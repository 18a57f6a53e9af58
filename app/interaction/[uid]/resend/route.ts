// POST /interaction/:uid/resend — the check-your-mail step's "Send the link again".
import { interactionForm } from '@/app/interaction/respond';
import { requestLocale } from '@/lib/i18n/server';
import { resendFromInteraction } from '@/lib/services/sign-up-interaction';

// The mail in the page's language (ui_locales, then Accept-Language: lib/i18n/server.ts).
export const POST = interactionForm(async (uid, cookie, context) => resendFromInteraction(uid, cookie, context, await requestLocale()));
