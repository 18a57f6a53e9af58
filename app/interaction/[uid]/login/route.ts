// POST /interaction/:uid/login — the sign-in form's target.
import { interactionForm, rememberUsername } from '@/app/interaction/respond';
import { signIn } from '@/lib/sign-in/interactions';

export const POST = interactionForm((ctx, uid, cookie, context, form) => signIn(ctx, uid, cookie, form, context), {
  // A refused sign-in shows the form again with the username filled in.
  afterError: (response, uid, form) => rememberUsername(response, uid, form.get('username')),
});
