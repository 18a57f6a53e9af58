/**
 * The owner's way out of a lock that strangers' failed passwords put on their account
 * (lib/platform/throttle.ts): when a failure locks a browser, an address or every new browser
 * out, the account's verified address gets a single-use link (at most three a day). Opened and
 * confirmed with its one button, the link lifts the account-wide lock and makes the browser that
 * opened it a known one (lib/sign-in/devices.ts), with a sign-in budget of its own.
 *
 * The person trying to sign in is told nothing more than "try again in …": whether the name is
 * an account, and whether a mail went out, are not theirs to learn. Only a verified address gets
 * the link: an address nobody proved could be anyone's.
 */
import { mailBrand } from '../config/brand.ts';
import type { AppContext } from '../context.ts';
import type { Locale } from '../i18n/locale.ts';
import { findMailLink, mailLinkState, takeMailLink } from './repository.ts';
import { checkMailLink, mailSingleUseLink } from './single-use.ts';
import { findAccount } from '../users/repository.ts';
import { accountUnlockMail } from '../mail/templates/account-unlock.ts';
import { recordSelfAudit, type RequestContext } from '../audit/log.ts';
import { adminMailLocale, type MailLinkConfig } from './email-verification.ts';
import { knownDevice, rememberDevice } from '../sign-in/devices.ts';

export const UNLOCK_LINK_HOURS = 24;

type Context = Pick<AppContext, 'db' | 'now' | 'throttle' | 'mailer' | 'log'> & { config: MailLinkConfig };

/**
 * Mails the owner of `accountId` an unlock link, if the account has a verified address and has
 * not had three such mails today. Run after the answer (lib/mail/hand-off.ts). Never throws: a
 * failure is logged (the account's id, never the address or the link).
 */
export async function mailUnlockLink(ctx: Context, accountId: string, context: RequestContext, locale: Locale = adminMailLocale(ctx.config)): Promise<void> {
  try {
    const account = await findAccount(ctx.db, accountId);
    if (!account?.email || !account.emailVerified || account.disabled || ctx.mailer.mode === 'off') return;
    if (!(await ctx.throttle.beforeUnlockMail(account.id)).allowed) return;
    const lockedAt = new Date(ctx.now());
    const expiresAt = new Date(lockedAt.getTime() + UNLOCK_LINK_HOURS * 3_600_000);
    await mailSingleUseLink(ctx, { userId: account.id, purpose: 'account_unlock', email: account.email, expiresAt, path: '/unlock' }, ({ url = '' }) =>
      accountUnlockMail({ brand: mailBrand(ctx.config), locale, username: account.username, url, validHours: UNLOCK_LINK_HOURS, lockedAt, ip: context.ip }),
    );
  } catch (error) {
    ctx.log.error({ account_id: accountId, request_id: context.requestId ?? undefined, err: error }, 'an unlock mail could not be sent');
  }
}

/** `unlocked`: the link was used, and by this browser (it is a known one of the account now). */
export type UnlockLinkView = { status: 'valid' | 'unlocked'; username: string } | { status: 'expired' | 'used' | 'unknown' };

/**
 * Looks only: a mail scanner opening the link spends nothing. `cookieHeader`: this browser's cookies, so the page
 * shown again after its button (Next renders it anew when the action sets a cookie) says it worked.
 */
export async function viewUnlockLink(ctx: Pick<AppContext, 'db' | 'now'>, token: string, cookieHeader: string | null = null): Promise<UnlockLinkView> {
  const state = await mailLinkState(ctx.db, token, 'account_unlock', ctx.now());
  if (state.status === 'used' && cookieHeader) {
    const link = await findMailLink(ctx.db, token, 'account_unlock');
    const account = link ? await findAccount(ctx.db, link.userId) : undefined;
    if (account && (await knownDevice(ctx.db, account.id, cookieHeader))) return { status: 'unlocked', username: account.username };
  }
  if (state.status !== 'open') return state;
  const account = await findAccount(ctx.db, state.link.userId);
  return account && !account.disabled ? { status: 'valid', username: account.username } : { status: 'unknown' };
}

export type UnlockOutcome =
  | { status: 'idle' }
  | { status: 'unlocked'; username: string }
  | { status: 'link'; problem: 'expired' | 'used' | 'unknown' }
  | { status: 'throttled'; retryAfterSeconds: number };

/**
 * Uses the link, once: the account-wide lock ends, and `deviceCookie` (a Set-Cookie value for
 * this browser, lib/sign-in/devices.ts) is returned to make the browser a known one.
 */
export async function unlockWithLink(
  ctx: Context,
  token: string,
  context: RequestContext,
  cookieHeader: string | null,
): Promise<{ outcome: UnlockOutcome; deviceCookie?: string }> {
  const checked = await checkMailLink(ctx, context.ip, () => viewUnlockLink(ctx, token));
  if (checked.status === 'throttled') return { outcome: { status: 'throttled', retryAfterSeconds: checked.refusal.retryAfterSeconds } };
  if (checked.status !== 'valid') return { outcome: checked };
  const link = await takeMailLink(ctx.db, token, 'account_unlock', new Date(ctx.now()));
  if (!link) return { outcome: { status: 'link', problem: 'used' } };
  const person = { id: link.userId, username: checked.view.username };
  await ctx.throttle.unlock(person.id);
  await recordSelfAudit(ctx.db, 'user.unlocked', person, context, {});
  const deviceCookie = await rememberDevice(ctx.db, person.id, cookieHeader, ctx.config.ISSUER.startsWith('https:'));
  return { outcome: { status: 'unlocked', username: person.username }, deviceCookie };
}
