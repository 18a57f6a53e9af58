// POST /interaction/:uid/continue — "I've confirmed — continue": the signed-up account, once its address is verified.
import { interactionForm } from '@/app/interaction/respond';
import { continueAfterVerification } from '@/lib/sign-in/sign-up-interaction';

export const POST = interactionForm((ctx, uid, cookie, context) => continueAfterVerification(ctx, uid, cookie, context));
