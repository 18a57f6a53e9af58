// POST /interaction/:uid/restart — the check-your-mail step's "Sign in with another account".
import { interactionForm } from '@/app/interaction/respond';
import { restartSignIn } from '@/lib/sign-in/sign-up-interaction';

export const POST = interactionForm((ctx, uid, cookie) => restartSignIn(ctx, uid, cookie));
