/**
 * The steps every single-use mail link takes (password reset, email verification, invitation,
 * account unlock, and the email sign-in code, which is a code without a link): make the token (and
 * the code), keep only their hashes, mail them, and take the row back when the mail is refused; then,
 * on the link's page, the source's throttle, the link's state, and spending it once.
 */
import type { AppContext } from '../context.ts';
import type { Refusal } from '../platform/throttle.ts';
import { CODE_MINUTES, newMailCode } from './codes.ts';
import { deleteMailLink, insertMailLink, type MailLinkPurpose, newLinkToken } from './repository.ts';

export interface SingleUseMail {
  userId: string;
  purpose: MailLinkPurpose;
  /** Where the mail goes (and what the row remembers it went to). */
  email: string;
  expiresAt: Date;
  /** The link's page (`/password-reset`), the token after it; absent for a code alone. */
  path?: string;
  /** A six-digit code beside the link (lib/mail-links/codes.ts), working `CODE_MINUTES` at most. */
  withCode?: boolean;
  /** Earlier links stay until the caller drops them (repository.ts insertMailLink). */
  keepEarlier?: boolean;
}

/** What the mail's template is given: the link and the code, as made. */
export interface MadeLink {
  url?: string;
  code?: string;
}

type Context = Pick<AppContext, 'db' | 'now' | 'mailer'> & { config: Pick<AppContext['config'], 'ISSUER'> };

/**
 * Makes the link, mails what `compose` writes with it, and returns the row's id (for
 * dropEarlierMailLinks). A refused mail takes its row with it, and its error is thrown: the
 * caller logs it in its own words (the account's id, never the address, link or code).
 */
export async function mailSingleUseLink(
  ctx: Context,
  mail: SingleUseMail,
  compose: (made: MadeLink) => { subject: string; text: string; html: string },
): Promise<string> {
  const token = newLinkToken();
  const code = mail.withCode ? newMailCode() : undefined;
  const codeExpiresAt = new Date(Math.min(mail.expiresAt.getTime(), ctx.now() + CODE_MINUTES * 60_000));
  const linkId = await insertMailLink(
    ctx.db,
    {
      token,
      userId: mail.userId,
      purpose: mail.purpose,
      email: mail.email,
      expiresAt: mail.expiresAt,
      ...(code ? { code: { code, expiresAt: codeExpiresAt } } : {}),
    },
    { keepEarlier: mail.keepEarlier },
  );
  const url = mail.path ? new URL(`${mail.path}/${token}`, ctx.config.ISSUER).toString() : undefined;
  try {
    await ctx.mailer.send({ to: mail.email, ...(url ? { link: url } : {}), ...compose({ url, code }) });
  } catch (error) {
    await deleteMailLink(ctx.db, linkId);
    throw error;
  }
  return linkId;
}

/** Why a link's page cannot use its link: the source waits, or the link no longer works. */
export type LinkRefusal = { status: 'throttled'; refusal: Refusal } | { status: 'link'; problem: 'expired' | 'used' | 'unknown' };

/**
 * Before a link's page changes anything: refused while the source waits; then the link's own view
 * (`view`, which looks only). An unknown token counts against the source, like a wrong password;
 * a view that says the link did its work already (`confirmed`, `unlocked`) counts as used.
 */
export async function checkMailLink<V extends { status: string }>(
  ctx: Pick<AppContext, 'throttle'>,
  ip: string | null,
  view: () => Promise<V>,
): Promise<LinkRefusal | { status: 'valid'; view: V & { status: 'valid' } }> {
  const check = await ctx.throttle.beforeLinkCheck(ip);
  if (!check.allowed) return { status: 'throttled', refusal: check };
  const seen = await view();
  if (seen.status === 'valid') return { status: 'valid', view: seen as V & { status: 'valid' } };
  if (seen.status === 'unknown') await ctx.throttle.linkFailed(ip);
  return { status: 'link', problem: seen.status === 'expired' || seen.status === 'unknown' ? seen.status : 'used' };
}
