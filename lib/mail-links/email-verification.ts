/**
 * Email verification: when an account gets an address (an admin creates the
 * person with one, or the person changes theirs in /account) a single-use link
 * goes to it, valid 24 hours. `email_verified` (ID tokens, userinfo) is true
 * only after the link is used; a changed address becomes the account's email
 * only then, so nobody can point an account at an address they do not read.
 * The link's page asks for one click (a POST): mail scanners open links.
 * Wrong links are counted per source address; the verification is audited.
 */
import { mailBrand } from '../config/brand.ts';
import type { Locale } from '../i18n/locale.ts';
import type { AppContext } from '../context.ts';
import { findMailLink, takeMailLink } from './repository.ts';
import { checkMailLink, mailSingleUseLink } from './single-use.ts';
import { CODE_MINUTES, readMailCode, spendMailCode } from './codes.ts';
import { findAccount, setVerifiedEmail } from '../users/repository.ts';
import { emailVerificationMail, type EmailVerificationMail } from '../mail/templates/email-verification.ts';
import { recordSelfAudit, type RequestContext } from '../audit/log.ts';
import { canMailLinks } from './password-reset.ts';

export const VERIFICATION_LINK_HOURS = 24;

/**
 * What sending a link needs: where the link points (ISSUER), whose brand the mail wears, and the
 * language of a mail no person's request caused (an admin's; unset: English).
 */
export type MailLinkConfig = Pick<AppContext['config'], 'ISSUER' | 'BRAND_NAME' | 'BRAND_ACCENT_COLOR'> & Partial<Pick<AppContext['config'], 'DEFAULT_LOCALE'>>;

/** The language of a mail an admin (or the CLI) causes: DEFAULT_LOCALE. */
export const adminMailLocale = (config: MailLinkConfig): Locale => config.DEFAULT_LOCALE ?? 'en';

type Context = Pick<AppContext, 'db' | 'now' | 'mailer' | 'log'> & { config: MailLinkConfig };
type LinkContext = Context & Pick<AppContext, 'throttle'>;

/** `off`: this server sends no mail (SMTP_URL unset in production); `failed`: the mail server refused, no link was kept. */
export type VerificationSend = 'sent' | 'failed' | 'off';

/**
 * Mails `email` a link that verifies it for the account (replacing an earlier unused one).
 * `template`: the mail's wording (a sign-up's says more, lib/mail/templates/sign-up.ts);
 * `requestId`: the request that asked, named in the log line of a failed send; `locale`: the
 * language of the person's own request, DEFAULT_LOCALE when an admin's. `withCode`: a code beside the
 * link, for a mail a page is waiting for (a sign-up's: lib/sign-in/sign-up-interaction.ts); an admin's
 * or /account's mail has no page to type it into, and a code nobody can use is only one more secret.
 */
export async function sendEmailVerification(
  ctx: Context,
  user: { id: string; username: string },
  email: string,
  {
    template = emailVerificationMail,
    requestId,
    locale = adminMailLocale(ctx.config),
    withCode = false,
  }: {
    template?: (mail: EmailVerificationMail) => { subject: string; text: string; html: string };
    requestId?: string | null;
    locale?: Locale;
    withCode?: boolean;
  } = {},
): Promise<VerificationSend> {
  if (!canMailLinks(ctx)) return 'off';
  const mail = { userId: user.id, purpose: 'email_verification' as const, email, path: '/verify-email', withCode };
  try {
    await mailSingleUseLink(ctx, { ...mail, expiresAt: new Date(ctx.now() + VERIFICATION_LINK_HOURS * 3_600_000) }, ({ url = '', code }) =>
      template({
        brand: mailBrand(ctx.config),
        locale,
        username: user.username,
        email,
        url,
        code,
        validHours: VERIFICATION_LINK_HOURS,
        codeMinutes: CODE_MINUTES,
      }),
    );
    return 'sent';
  } catch (error) {
    ctx.log.error({ account_id: user.id, request_id: requestId ?? undefined, err: error }, 'an email verification mail could not be sent');
    return 'failed';
  }
}

/**
 * `confirmed`: the link was used, and the address it went to is the account's, verified: what the page
 * shows after its own plain form post (without JavaScript the page is drawn again, the link spent by then).
 */
export type VerificationLinkView =
  | { status: 'valid'; username: string; email: string }
  | { status: 'confirmed'; email: string }
  | { status: 'expired' | 'used' | 'unknown' };

/** Looks only: opening the link changes nothing. */
export async function viewVerificationLink(ctx: Pick<AppContext, 'db' | 'now'>, token: string): Promise<VerificationLinkView> {
  const link = token.length <= 64 ? await findMailLink(ctx.db, token, 'email_verification') : undefined;
  if (!link) return { status: 'unknown' };
  const account = await findAccount(ctx.db, link.userId);
  if (link.usedAt) return account?.emailVerified && account.email === link.email ? { status: 'confirmed', email: link.email } : { status: 'used' };
  if (link.expiresAt.getTime() <= ctx.now()) return { status: 'expired' };
  return account && !account.disabled ? { status: 'valid', username: account.username, email: link.email } : { status: 'unknown' };
}

export type VerificationOutcome =
  | { status: 'idle' }
  | { status: 'verified'; email: string }
  | { status: 'link'; problem: 'expired' | 'used' | 'unknown' }
  /** Another account took the address since the link was sent. */
  | { status: 'taken' }
  /** The wait before the next try, in seconds. */
  | { status: 'throttled'; retryAfterSeconds: number };

/** Uses the link: the address becomes the account's, verified. */
export async function confirmEmail(ctx: LinkContext, token: string, context: RequestContext): Promise<VerificationOutcome> {
  const checked = await checkMailLink(ctx, context.ip, () => viewVerificationLink(ctx, token));
  if (checked.status === 'throttled') return { status: 'throttled', retryAfterSeconds: checked.refusal.retryAfterSeconds };
  if (checked.status !== 'valid') return checked;
  const link = await takeMailLink(ctx.db, token, 'email_verification', new Date(ctx.now()));
  if (!link) return { status: 'link', problem: 'used' };
  return verifyAddress(ctx, link, checked.view.username, context);
}

/** The address a link or its code went to becomes the account's, verified; audited. */
export async function verifyAddress(
  ctx: Pick<AppContext, 'db'>,
  link: { userId: string; email: string },
  username: string,
  context: RequestContext,
): Promise<Extract<VerificationOutcome, { status: 'verified' | 'taken' }>> {
  try {
    await setVerifiedEmail(ctx.db, link.userId, link.email);
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') return { status: 'taken' };
    throw error;
  }
  await recordSelfAudit(ctx.db, 'user.email_verified', { id: link.userId, username }, context, { email: link.email });
  return { status: 'verified', email: link.email };
}

/** Why a typed code did not verify: malformed (not counted), wrong, the mail's tries used up, or the code's time over. */
export type CodeProblem = 'mail_code_missing' | 'mail_code_letters' | 'mail_code_length' | 'mail_code_wrong' | 'mail_code_exhausted' | 'mail_code_expired';

/**
 * The code from the verification mail, typed on the page that waits for `userId`'s address (the account is the one
 * bound to that page, never one the form names). Right: the address is verified, and the mail's link is spent with
 * it. Wrong codes count against the mail (lib/mail-links/codes.ts) and against the source address.
 */
export async function confirmEmailWithCode(
  ctx: LinkContext,
  userId: string,
  typed: string,
  context: RequestContext,
): Promise<Extract<VerificationOutcome, { status: 'verified' | 'taken' | 'throttled' }> | { status: 'code'; problem: CodeProblem }> {
  const read = readMailCode(typed);
  if (!read.ok) return { status: 'code', problem: `mail_${read.problem}` };
  const check = await ctx.throttle.beforeLinkCheck(context.ip);
  if (!check.allowed) return { status: 'throttled', retryAfterSeconds: check.retryAfterSeconds };
  const account = await findAccount(ctx.db, userId);
  const outcome = account && !account.disabled ? await spendMailCode(ctx.db, userId, 'email_verification', read.code, new Date(ctx.now())) : undefined;
  if (outcome?.status === 'spent' && account) return verifyAddress(ctx, outcome.link, account.username, context);
  if (outcome?.status === 'expired') return { status: 'code', problem: 'mail_code_expired' };
  await ctx.throttle.linkFailed(context.ip);
  return { status: 'code', problem: outcome?.status === 'exhausted' ? 'mail_code_exhausted' : 'mail_code_wrong' };
}
