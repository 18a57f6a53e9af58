/**
 * Choosing the account an authorization request continues as (lib/oidc/select-account.ts has the
 * provider's side): the prompt=select_account page's "Continue as …", and "Use another account"
 * from that page, the consent page or the sign-in page. The route handlers
 * (app/interaction/[uid]/select-account, …/another-account) call these with the browser's cookie, behind the same
 * Origin check and SameSite interaction cookie as every interaction form (app/interaction/respond.ts).
 */
import 'server-only';
import type { AppContext } from '../context.ts';
import { ANOTHER_ACCOUNT } from '../oidc/select-account.ts';
import { findAccount } from '../users/repository.ts';
import { findInteraction, finishInteraction } from '../oidc/interaction.ts';
import { current, type InteractionOutcome } from './interactions.ts';
import { forgetAccount, rememberedIds } from './remembered-accounts.ts';
import { formText } from '../platform/forms.ts';

/**
 * "Continue as …" on the prompt=select_account page: the signed-in account is the choice, and the
 * request goes on as it (consent or a second factor may still follow, as for any request).
 */
export async function continueAsSignedIn(ctx: AppContext, uid: string, cookie: string | null): Promise<InteractionOutcome> {
  const interaction = await current(ctx, uid, cookie, 'select_account');
  if ('error' in interaction) return interaction;
  const accountId = interaction.session?.accountId;
  const account = typeof accountId === 'string' ? await findAccount(ctx.db, accountId) : undefined;
  if (!account || account.disabled) return { error: 'account_disabled' };
  const redirect = await finishInteraction(ctx, uid, cookie, { select_account: {} }, { mergeWithLastSubmission: true });
  return { redirect };
}

/**
 * "Use another account": this interaction ends asking for another sign-in, and the authorization
 * request resumes into a login prompt that shows the empty sign-in form. Nothing is signed out
 * yet: if the person goes back to the app, the session is as it was; if someone else signs in,
 * the provider ends the earlier account's session first.
 */
export async function useAnotherAccount(ctx: AppContext, uid: string, cookie: string | null, form?: FormData): Promise<InteractionOutcome> {
  const interaction = await findInteraction(ctx, uid, cookie);
  if (!interaction) return { error: 'expired' };
  // One of the browser's remembered accounts picked on the prompt=select_account page: the next form has its username.
  const account = form ? formText(form, 'account', 64) : '';
  const picked = account && (await rememberedIds(ctx.db, cookie)).includes(account) ? { account } : {};
  const redirect = await finishInteraction(ctx, uid, cookie, { [ANOTHER_ACCOUNT]: picked }, { mergeWithLastSubmission: false });
  return { redirect };
}

/**
 * "Remove" on the account chooser (lib/sign-in/remembered-accounts.ts): the account leaves this
 * browser's list, and the page shows what is left. Nothing is signed out: the list only names who
 * signed in here.
 */
export async function removeRememberedAccount(ctx: AppContext, uid: string, cookie: string | null, form: FormData): Promise<InteractionOutcome> {
  const interaction = await findInteraction(ctx, uid, cookie);
  if (!interaction) return { error: 'expired' };
  const removed = await forgetAccount(ctx.db, formText(form, 'account', 64), cookie, ctx.config.ISSUER.startsWith('https:'));
  return { redirect: new URL(`/interaction/${encodeURIComponent(uid)}`, ctx.config.ISSUER).toString(), cookies: [removed] };
}
