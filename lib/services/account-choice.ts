/**
 * Choosing the account an authorization request continues as (lib/oidc/account-choice.ts has the
 * provider's side): "Use another account" from the consent or sign-in page. The route handlers
 * (app/interaction/[uid]/another-account) call these with the browser's cookie, behind the same
 * Origin check and SameSite interaction cookie as every interaction form (app/interaction/respond.ts).
 */
import 'server-only';
import { serverContext } from '../context.ts';
import { ANOTHER_ACCOUNT } from '../oidc/account-choice.ts';
import { findInteraction, finishInteraction } from '../oidc/interaction.ts';
import type { Next } from './interactions.ts';

/**
 * "Use another account": this interaction ends asking for another sign-in, and the authorization
 * request resumes into a login prompt that shows the empty sign-in form. Nothing is signed out
 * yet: if the person goes back to the app, the session is as it was; if someone else signs in,
 * the provider ends the earlier account's session first.
 */
export async function useAnotherAccount(uid: string, cookie: string | null): Promise<Next> {
  const ctx = serverContext();
  const interaction = await findInteraction(ctx, uid, cookie);
  if (!interaction) return { error: 'expired' };
  const redirect = await finishInteraction(ctx, uid, cookie, { [ANOTHER_ACCOUNT]: {} }, { mergeWithLastSubmission: false });
  return { redirect };
}
