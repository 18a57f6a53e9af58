// POST /interaction/:uid/select-account — "Continue as …" on the prompt=select_account page.
import { interactionForm } from '@/app/interaction/respond';
import { continueAsSignedIn } from '@/lib/sign-in/account-choice';

export const POST = interactionForm((ctx, uid, cookie) => continueAsSignedIn(ctx, uid, cookie));
