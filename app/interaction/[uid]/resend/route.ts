// POST /interaction/:uid/resend — the check-your-mail step's "Send the link again".
import { interactionForm } from '@/app/interaction/respond';
import { resendFromInteraction } from '@/lib/services/sign-up-interaction';

export const POST = interactionForm((uid, cookie, context) => resendFromInteraction(uid, cookie, context));
