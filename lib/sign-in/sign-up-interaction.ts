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
import { clientOf, completePasswordStep, current, onLoginStep, type InteractionOutcome } from './interactions.ts';
import { appHost, httpsOnly } from '../oidc/return-link.ts';
import { passwordPolicy } from '../platform/passwords.ts';
import { resendSignUpLink, signUp, signUpFields, signUpOffered } from './sign-up.ts';
import { type CodeProblem, confirmEmailWithCode } from '../mail-links/email-verification.ts';
import { readMailCode } from '../mail-links/codes.ts';

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
export async function continueAfterVerification(ctx: AppContext, uid: string, cookie: string | null, context: RequestContext): Promise<InteractionOutcome> {
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

/**
 * The code from the mail, typed on the check-your-mail step instead of opening the link: checked
 * against the account bound to this interaction only (never one the form names). When the sign-up
 * named an address another account has, there is no account and no code: the answer is a wrong
 * code's, counted alike, so the page still does not tell the two apart. Right: the sign-in goes on as
 * after "continue".
 */
export const confirmCodeFromInteraction = onLoginStep(async (ctx, _interaction, uid, cookie, form, context) => {
  const pending = await findPendingEmailVerification(ctx.db, uid, ctx.now());
  if (!pending) return { error: 'password_first' };
  const typed = formText(form, 'code', 32);
  const outcome = pending.accountId ? await confirmEmailWithCode(ctx, pending.accountId, typed, context) : await noCodeToConfirm(ctx, typed, context);
  if (outcome.status === 'throttled') return { error: 'throttled', retryAfterSeconds: outcome.retryAfterSeconds };
  if (outcome.status === 'code') return { error: outcome.problem };
  if (outcome.status === 'taken') return { error: 'email_not_verified' };
  return continueAfterVerification(ctx, uid, cookie, context);
});

/** A code typed where no account waits: refused as a wrong one would be, in the same steps. */
async function noCodeToConfirm(
  ctx: AppContext,
  typed: string,
  context: RequestContext,
): Promise<{ status: 'code'; problem: CodeProblem } | { status: 'throttled'; retryAfterSeconds: number }> {
  const read = readMailCode(typed);
  if (!read.ok) return { status: 'code', problem: `mail_${read.problem}` };
  const check = await ctx.throttle.beforeLinkCheck(context.ip);
  if (!check.allowed) return { status: 'throttled', retryAfterSeconds: check.retryAfterSeconds };
  await ctx.throttle.linkFailed(context.ip);
  return { status: 'code', problem: 'mail_code_wrong' };
}

/**
 * For the waiting page's poll (GET /interaction/:uid/status): whether the account bound to this
 * interaction has its address verified by now, by the link opened anywhere. Only the browser that holds
 * this interaction's signed cookie gets an answer, and the answer is one bit: anyone else, and an
 * interaction waiting for no one, gets `verified: false` too, so the endpoint says nothing to others.
 */
export async function verificationStatus(ctx: AppContext, uid: string, cookie: string | null): Promise<{ verified: boolean }> {
  const interaction = await current(ctx, uid, cookie, 'login');
  if ('error' in interaction) return { verified: false };
  const pending = await findPendingEmailVerification(ctx.db, uid, ctx.now());
  const account = pending?.accountId ? await findAccount(ctx.db, pending.accountId) : undefined;
  return { verified: Boolean(account?.emailVerified && !account.disabled) };
}

/** "Send the link again" (throttled: lib/sign-in/sign-up.ts resendSignUpLink), in `locale`, the page's language. */
export async function resendFromInteraction(
  ctx: AppContext,
  uid: string,
  cookie: string | null,
  context: RequestContext,
  locale?: Locale,
): Promise<InteractionOutcome> {
  const interaction = await current(ctx, uid, cookie, 'login');
  if ('error' in interaction) return interaction;
  const pending = await findPendingEmailVerification(ctx.db, uid, ctx.now());
  if (!pending) return { error: 'password_first' };
  const outcome = await resendSignUpLink(ctx, pending, context, locale);
  if (outcome.status === 'throttled') return { error: 'throttled', retryAfterSeconds: outcome.refusal.retryAfterSeconds };
  return { redirect: interactionPage(ctx.config.ISSUER, uid, '?sent=1') };
}

/** "Sign in with another account": this interaction forgets the account bound to it and shows the sign-in form again. */
export async function restartSignIn(ctx: AppContext, uid: string, cookie: string | null): Promise<InteractionOutcome> {
  const interaction = await current(ctx, uid, cookie, 'login');
  if ('error' in interaction) return interaction;
  await deletePendingEmailVerification(ctx.db, uid);
  return { redirect: interactionPage(ctx.config.ISSUER, uid) };
}
