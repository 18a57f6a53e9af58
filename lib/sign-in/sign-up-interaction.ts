/**
 * Sign-up inside an authorization request (lib/sign-in/sign-up.ts does the
 * sign-up itself): the form at /interaction/:uid/sign-up, then the
 * check-your-mail step on the interaction's own page, whose forms post to
 * /interaction/:uid/continue, /resend and /restart.
 *
 * A sign-up binds the new account to the interaction, server-side
 * (lib/sign-in/pending-email-verifications.ts), and so does a right password at
 * sign-in for a signed-up account not verified yet. Once the mailed link is
 * used, anywhere, the browser that holds this interaction's cookie continues
 * as that account without typing the password again: the password was typed in
 * this interaction, so the sign-in counts as one with the password (amr `pwd`),
 * and the second-factor policy applies as after any password
 * (interactions.ts completePasswordStep). Nobody else can continue: the
 * provider finds the interaction only through its signed cookie, and only the
 * account bound to it is signed in. An expired interaction is gone with its
 * binding; the person then signs in as usual.
 */
import 'server-only';
import type { AppContext } from '../context.ts';
import { deletePendingEmailVerification, findPendingEmailVerification, savePendingEmailVerification } from './pending-email-verifications.ts';
import { findAccount } from '../users/repository.ts';
import type { Locale } from '../i18n/locale.ts';
import { clientForDisplay, findInteraction } from '../oidc/interaction.ts';
import type { RequestContext } from '../audit/log.ts';
import { addProblem, type FieldProblems, formProblems, formText, throttledProblem } from '../platform/forms.ts';
import { clientOf, completePasswordStep, current, type Next } from './interactions.ts';
import { appHost, httpsOnly } from '../oidc/return-link.ts';
import { passwordPolicy } from '../platform/passwords.ts';
import { resendSignUpLink, signUp, signUpFields, signUpOffered } from './sign-up.ts';

const interactionPage = (issuer: string, uid: string, query = '') => new URL(`/interaction/${encodeURIComponent(uid)}${query}`, issuer).toString();

export type SignUpPageView =
  | { kind: 'off' }
  | { kind: 'expired' }
  /** `domains`: the only email domains accepted (SIGN_UP_EMAIL_DOMAINS), empty for any. */
  | { kind: 'form'; client: { name: string; logoUri?: string; domain?: string }; domains: string[] };

/** What /interaction/:uid/sign-up shows: the form, or why not (off: the page is a 404). */
export async function viewSignUp(ctx: AppContext, uid: string, cookie: string | null): Promise<SignUpPageView> {
  if (!signUpOffered(ctx)) return { kind: 'off' };
  const interaction = await findInteraction(ctx, uid, cookie);
  if (!interaction || interaction.prompt.name !== 'login') return { kind: 'expired' };
  const client = await clientForDisplay(ctx, String(interaction.params.client_id));
  if (!client) return { kind: 'expired' };
  // As the sign-in page shows the app: its logo and the domain the person returns to.
  const redirectUri = typeof interaction.params.redirect_uri === 'string' ? interaction.params.redirect_uri : undefined;
  const shown = { name: client.name, logoUri: httpsOnly(client.logoUri), domain: appHost(redirectUri) };
  return { kind: 'form', client: shown, domains: ctx.config.SIGN_UP_EMAIL_DOMAINS };
}

type SignUpField = (typeof signUpFields)[number];
/** What was typed, back in the form after a refusal: never the passwords. */
export type SignUpValues = { username: string; email: string; name: string };

export type SignUpFormState =
  | { status: 'idle' }
  /** What went wrong, by field, in no language: the form words it (lib/i18n/problems.ts). */
  | { status: 'invalid'; errors: FieldProblems<SignUpField>; values: SignUpValues }
  /** The mail could not be sent: nothing was kept; the same form works again later. */
  | { status: 'failed'; values: SignUpValues }
  | { status: 'expired' };

/**
 * The sign-up form's post: the account made and bound to this interaction, or the form again with what went wrong.
 * `locale`: the page's language, which the mail is written in.
 */
export async function submitSignUp(
  ctx: AppContext,
  uid: string,
  cookie: string | null,
  form: FormData,
  context: RequestContext,
  locale?: Locale,
): Promise<SignUpFormState | { redirect: string }> {
  // One character beyond each limit, so the schema says "at most" rather than cutting silently.
  const values = { username: formText(form, 'username', 65), email: formText(form, 'email', 255), name: formText(form, 'name', 129) };
  const interaction = await current(ctx, uid, cookie, 'login');
  if ('error' in interaction) return { status: 'expired' };
  const passwords = {
    password: formText(form, 'password', passwordPolicy.maxLength + 1),
    confirmPassword: formText(form, 'confirmPassword', passwordPolicy.maxLength + 1),
  };
  try {
    const outcome = await signUp(ctx, { ...values, ...passwords }, context, await clientOf(ctx, interaction), locale);
    if (outcome.status === 'throttled') return { status: 'invalid', errors: addProblem({}, 'form', throttledProblem(outcome.refusal)), values };
    if (outcome.status === 'failed') return { status: 'failed', values };
    const pending = { ...(outcome.accountId ? { accountId: outcome.accountId } : {}), email: outcome.email, via: 'sign_up' as const };
    await savePendingEmailVerification(ctx.db, uid, pending, interaction.exp * 1000);
    // A path: the server action redirects within this origin.
    return { redirect: `/interaction/${encodeURIComponent(uid)}` };
  } catch (error) {
    return { status: 'invalid', errors: formProblems(error, signUpFields), values };
  }
}

/**
 * "I've confirmed — continue": signs in the account bound to this interaction
 * once its address is verified; until then the page says it is not yet.
 */
export async function continueAfterVerification(ctx: AppContext, uid: string, cookie: string | null, context: RequestContext): Promise<Next> {
  const interaction = await current(ctx, uid, cookie, 'login');
  if ('error' in interaction) return interaction;
  const pending = await findPendingEmailVerification(ctx.db, uid, ctx.now());
  if (!pending) return { error: 'password_first' };
  const account = pending.accountId ? await findAccount(ctx.db, pending.accountId) : undefined;
  if (account?.disabled) return { error: 'account_disabled' };
  if (!account?.emailVerified) return { error: 'email_not_verified' };
  await deletePendingEmailVerification(ctx.db, uid);
  const person = { id: account.id, username: account.username };
  // The sign-up form asks nothing about staying signed in: a browser session, as an unticked sign-in gets.
  return completePasswordStep(ctx, uid, cookie, interaction, person, await clientOf(ctx, interaction), context, false);
}

/** "Send the link again" (throttled: lib/sign-in/sign-up.ts resendSignUpLink), in `locale`, the page's language. */
export async function resendFromInteraction(ctx: AppContext, uid: string, cookie: string | null, context: RequestContext, locale?: Locale): Promise<Next> {
  const interaction = await current(ctx, uid, cookie, 'login');
  if ('error' in interaction) return interaction;
  const pending = await findPendingEmailVerification(ctx.db, uid, ctx.now());
  if (!pending) return { error: 'password_first' };
  const outcome = await resendSignUpLink(ctx, pending, context, locale);
  if (outcome.status === 'throttled') return { error: 'throttled', retryAfterSeconds: outcome.refusal.retryAfterSeconds };
  return { redirect: interactionPage(ctx.config.ISSUER, uid, '?sent=1') };
}

/** "Sign in with another account": this interaction forgets the account bound to it and shows the sign-in form again. */
export async function restartSignIn(ctx: AppContext, uid: string, cookie: string | null): Promise<Next> {
  const interaction = await current(ctx, uid, cookie, 'login');
  if ('error' in interaction) return interaction;
  await deletePendingEmailVerification(ctx.db, uid);
  return { redirect: interactionPage(ctx.config.ISSUER, uid) };
}
