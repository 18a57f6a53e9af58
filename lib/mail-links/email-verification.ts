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
import { deleteMailLink, findMailLink, insertMailLink, newLinkToken, spendMailLink } from './repository.ts';
import { findAccount, setVerifiedEmail } from '../users/repository.ts';
import { emailVerificationMail, type EmailVerificationMail } from '../mail/templates/email-verification.ts';
import { recordAudit, type RequestContext } from '../audit/log.ts';
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
 * language of the person's own request, DEFAULT_LOCALE when an admin's.
 */
export async function sendEmailVerification(
  ctx: Context,
  user: { id: string; username: string },
  email: string,
  {
    template = emailVerificationMail,
    requestId,
    locale = adminMailLocale(ctx.config),
  }: {
    template?: (mail: EmailVerificationMail) => { subject: string; text: string; html: string };
    requestId?: string | null;
    locale?: Locale;
  } = {},
): Promise<VerificationSend> {
  if (!canMailLinks(ctx)) return 'off';
  const token = newLinkToken();
  const linkId = await insertMailLink(ctx.db, {
    token,
    userId: user.id,
    purpose: 'email_verification',
    email,
    expiresAt: new Date(ctx.now() + VERIFICATION_LINK_HOURS * 3_600_000),
  });
  const url = new URL(`/verify-email/${token}`, ctx.config.ISSUER).toString();
  try {
    await ctx.mailer.send({
      to: email,
      link: url,
      ...template({ brand: mailBrand(ctx.config), locale, username: user.username, email, url, validHours: VERIFICATION_LINK_HOURS }),
    });
    return 'sent';
  } catch (error) {
    await deleteMailLink(ctx.db, linkId);
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
  const check = await ctx.throttle.beforeLinkCheck(context.ip);
  if (!check.allowed) return { status: 'throttled', retryAfterSeconds: check.retryAfterSeconds };
  const view = await viewVerificationLink(ctx, token);
  if (view.status !== 'valid') {
    if (view.status === 'unknown') await ctx.throttle.linkFailed(context.ip);
    return { status: 'link', problem: view.status === 'confirmed' ? 'used' : view.status };
  }
  const link = await findMailLink(ctx.db, token, 'email_verification');
  if (!link || !(await spendMailLink(ctx.db, token, 'email_verification', new Date(ctx.now())))) return { status: 'link', problem: 'used' };
  try {
    await setVerifiedEmail(ctx.db, link.userId, link.email);
  } catch (error) {
    if ((error as { code?: string }).code === 'P2002') return { status: 'taken' };
    throw error;
  }
  const person = { id: link.userId, username: view.username };
  await recordAudit(ctx.db, {
    action: 'user.email_verified',
    actor: person,
    target: { type: 'user', id: person.id, label: person.username },
    context,
    details: { email: link.email },
  });
  return { status: 'verified', email: link.email };
}
