/**
 * "Email me a sign-in code" (EMAIL_SIGN_IN_CODES=on; off by default): on the sign-in page a person
 * names their account and asks for a code instead of typing the password; the account's verified
 * address gets a 6-digit code (a `sign_in_code` mail link without a link, lib/mail-links/codes.ts),
 * and the code typed on the same page signs in. It is one factor, the mailbox (amr `otp`,
 * lib/oidc/authentication-context.ts): a second step the account has, or the policy requires, is
 * asked after it as after a password.
 *
 * No account enumeration: the answer to a request is the same page for every name, known or not,
 * with or without a verified address, in its words and in its time (the mail is made and sent after
 * the answer, lib/mail/hand-off.ts; unknown names are counted under a pseudonym of their own,
 * lib/mail-links/mail-requests.ts). Requests are throttled as password reset mails are (per source
 * and per name); codes typed as passwords are (per account and source, and per browser:
 * lib/platform/throttle.ts), and each mail takes a few wrong codes before it is spent.
 *
 * The interaction remembers, server-side, which name asked (`PendingSignInCode`, in the provider's
 * artifact table keyed by the interaction's uid, like pending-second-steps.ts): only the browser
 * holding the interaction's signed cookie can type the code, and only for that account.
 */
import 'server-only';
import type { AppContext } from '../context.ts';
import { destroyArtifact, findArtifact, upsertArtifact } from '../db/artifacts.ts';
import type { Locale } from '../i18n/locale.ts';
import type { RequestContext } from '../audit/log.ts';
import { mailBrand } from '../config/brand.ts';
import { sendAfterAnswer } from '../mail/hand-off.ts';
import { signInCodeMail } from '../mail/templates/sign-in-code.ts';
import { CODE_MINUTES, readMailCode, spendMailCode } from '../mail-links/codes.ts';
import { unknownNameKey } from '../mail-links/mail-requests.ts';
import { canMailLinks } from '../mail-links/password-reset.ts';
import { mailSingleUseLink } from '../mail-links/single-use.ts';
import { adminMailLocale } from '../mail-links/email-verification.ts';
import { findAccount, findUserByUsernameOrEmail } from '../users/repository.ts';
import { formText } from '../platform/forms.ts';
import { clientOf, completePasswordStep, current, onLoginStep, type InteractionOutcome } from './interactions.ts';

const MODEL = 'PendingSignInCode';

/** Whether the sign-in page offers the button: turned on, and this server sends mail. */
export const emailSignInCodesOffered = (ctx: Pick<AppContext, 'mailer'> & { config: Pick<AppContext['config'], 'EMAIL_SIGN_IN_CODES'> }) =>
  ctx.config.EMAIL_SIGN_IN_CODES === 'on' && canMailLinks(ctx);

/** What typed the name asked: its account when it is one that can get a code, and the name as typed (for the page, and the throttle). */
export interface PendingSignInCode {
  accountId?: string;
  username: string;
}

export async function findPendingSignInCode(db: AppContext['db'], uid: string, now: number): Promise<PendingSignInCode | undefined> {
  const payload = await findArtifact(db.sql, MODEL, uid, now);
  if (typeof payload?.username !== 'string') return undefined;
  return { username: payload.username, ...(typeof payload.accountId === 'string' ? { accountId: payload.accountId } : {}) };
}

const interactionPage = (issuer: string, uid: string, query = '') => new URL(`/interaction/${encodeURIComponent(uid)}${query}`, issuer).toString();

/**
 * "Email me a sign-in code" (form field `username`, the sign-in form's), and "Send a new code" from the
 * code's page (no field: the name asked before). The answer is the code's page, whatever the name.
 */
export async function requestSignInCode(
  ctx: AppContext,
  uid: string,
  cookie: string | null,
  form: FormData,
  context: RequestContext,
  locale?: Locale,
): Promise<InteractionOutcome> {
  if (!emailSignInCodesOffered(ctx)) return { error: 'wrong_step' };
  const interaction = await current(ctx, uid, cookie, 'login');
  if ('error' in interaction) return interaction;
  const typed = formText(form, 'username', 320).trim() || (await findPendingSignInCode(ctx.db, uid, ctx.now()))?.username || '';
  if (!typed) return { error: 'email_code_username' };
  const found = await findUserByUsernameOrEmail(ctx.db, typed);
  const account = found && !found.disabled && found.email && found.emailVerified ? found : undefined;
  // Computed for every name, so a known one takes no shorter path.
  const pseudonym = await unknownNameKey(ctx.db, typed);
  const check = await ctx.throttle.beforeMailRequest({ ip: context.ip, accountId: account?.id ?? pseudonym });
  if (!check.allowed) return { error: 'throttled', retryAfterSeconds: check.retryAfterSeconds };
  await upsertArtifact(ctx.db.sql, MODEL, uid, { username: typed.slice(0, 64), ...(account ? { accountId: account.id } : {}) }, interaction.exp * 1000);
  if (account?.email) {
    const to = { id: account.id, username: account.username, email: account.email };
    const language = locale ?? adminMailLocale(ctx.config);
    sendAfterAnswer(ctx.mailer, ctx.log, 'a sign-in code', async () => {
      const expiresAt = new Date(ctx.now() + CODE_MINUTES * 60_000);
      await mailSingleUseLink(ctx, { userId: to.id, purpose: 'sign_in_code', email: to.email, expiresAt, withCode: true }, ({ code = '' }) =>
        signInCodeMail({ brand: mailBrand(ctx.config), locale: language, username: to.username, code, validMinutes: CODE_MINUTES }),
      );
    });
  }
  return { redirect: interactionPage(ctx.config.ISSUER, uid) };
}

/**
 * The code typed on its page (form field `code`). Right: signed in with it as the first factor (a session
 * for the browser only, as the form asks nothing about staying signed in), on to the second step when the
 * account has one. A name that is no account, or has no verified address, gets a wrong code's answer
 * after the same count.
 */
export const signInWithCode = onLoginStep(async (ctx, interaction, uid, cookie, form, context) => {
  if (!emailSignInCodesOffered(ctx)) return { error: 'wrong_step' };
  const pending = await findPendingSignInCode(ctx.db, uid, ctx.now());
  if (!pending) return { error: 'password_first' };
  const read = readMailCode(formText(form, 'code', 32));
  if (!read.ok) return { error: `mail_${read.problem}` };
  const attempt = { account: pending.accountId ? { id: pending.accountId } : undefined, username: pending.username, ip: context.ip };
  const check = await ctx.throttle.beforePasswordCheck(attempt);
  if (!check.allowed) {
    ctx.metrics.signIn('throttled');
    return { error: 'throttled', retryAfterSeconds: check.retryAfterSeconds };
  }
  const account = pending.accountId ? await findAccount(ctx.db, pending.accountId) : undefined;
  const outcome = account && !account.disabled ? await spendMailCode(ctx.db, account.id, 'sign_in_code', read.code, new Date(ctx.now())) : undefined;
  if (outcome?.status !== 'spent' || !account) {
    ctx.metrics.signIn('failed');
    if (outcome?.status !== 'expired') await ctx.throttle.passwordFailed(attempt);
    return { error: outcome?.status === 'expired' ? 'mail_code_expired' : outcome?.status === 'exhausted' ? 'mail_code_exhausted' : 'mail_code_wrong' };
  }
  await ctx.throttle.passwordSucceeded(attempt);
  await destroyArtifact(ctx.db.sql, MODEL, uid);
  const person = { id: account.id, username: account.username };
  return completePasswordStep(ctx, uid, cookie, interaction, person, await clientOf(ctx, interaction), context, false, 'email_code');
});

/** "Sign in another way": the interaction forgets the name that asked, and shows the sign-in form again. */
export async function cancelSignInCode(ctx: AppContext, uid: string, cookie: string | null): Promise<InteractionOutcome> {
  const interaction = await current(ctx, uid, cookie, 'login');
  if ('error' in interaction) return interaction;
  await destroyArtifact(ctx.db.sql, MODEL, uid);
  return { redirect: interactionPage(ctx.config.ISSUER, uid) };
}
