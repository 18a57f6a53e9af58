// POST /interaction/:uid/email-code/cancel — "Sign in another way": back to the sign-in form.
import { interactionForm } from '@/app/interaction/respond';
import { cancelSignInCode } from '@/lib/sign-in/email-codes';

export const POST = interactionForm((ctx, uid, cookie) => cancelSignInCode(ctx, uid, cookie));
