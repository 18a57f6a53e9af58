// POST /interaction/:uid/code — the check-your-mail step's code from the mail, typed instead of opening the link.
import { interactionForm } from '@/app/interaction/respond';
import { confirmCodeFromInteraction } from '@/lib/sign-in/sign-up-interaction';

export const POST = interactionForm((ctx, uid, cookie, context, form) => confirmCodeFromInteraction(ctx, uid, cookie, form, context));
