// POST /interaction/:uid/email-code/verify — the mailed sign-in code, typed on its page.
import { interactionForm } from '@/app/interaction/respond';
import { signInWithCode } from '@/lib/sign-in/email-codes';

export const POST = interactionForm((ctx, uid, cookie, context, form) => signInWithCode(ctx, uid, cookie, form, context));
