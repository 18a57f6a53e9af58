/**
 * "Forgot your password?": a person asks for a link by username or email
 * address; the account's address gets a single-use link that works for 30
 * minutes (lib/mail-links/repository.ts keeps only its hash); the link's page sets a
 * new password under the usual rules, and every session of the person ends.
 * Using the link verifies the address it went to, as a verification link would.
 *
 * The answer to a request is the same for every name, known or not, in its
 * words and in its time: unknown names are counted like accounts (under an HMAC
 * of what was typed, as sign-in counts unknown usernames), so the 7th request
 * for a name is refused alike; and the link is made and mailed after the answer
 * (lib/mail/hand-off.ts), so neither a slow mail server nor the writes a link
 * takes show. A mail the server refuses leaves no link (the failure is logged,
 * never the link); asking again works. Requests are throttled per source
 * address and per name, links checked per source (lib/platform/throttle.ts).
 * Each reset is in the audit log; never the link.
 */
import { z } from 'zod';
import { mailBrand } from '../config/brand.ts';
import type { AppContext } from '../context.ts';
import { mailLinkState, takeMailLink } from './repository.ts';
import { checkMailLink, mailSingleUseLink } from './single-use.ts';
import { findAccount, findUserByUsernameOrEmail, markEmailVerified } from '../users/repository.ts';
import { sendAfterAnswer } from '../mail/hand-off.ts';
import { passwordResetMail } from '../mail/templates/password-reset.ts';
import { recordAudit, type RequestContext } from '../audit/log.ts';
import { adminMailLocale, type MailLinkConfig } from './email-verification.ts';
import type { Locale } from '../i18n/locale.ts';
import { fieldProblems, formText, type FieldProblems, throttledProblem } from '../platform/forms.ts';
import { unknownNameKey } from './mail-requests.ts';
import { passwordPolicy } from '../platform/passwords.ts';
import { changePassword } from '../users/manage.ts';
import { chosenPasswordSchema, minimumPasswordLength, type PasswordPolicySettings } from '../users/password-policy.ts';

export const RESET_LINK_MINUTES = 30;

const newPasswordSchema = (minLength: number) =>
  z
    .object({ password: chosenPasswordSchema(minLength), confirmPassword: z.string().min(1, 'Enter the new password again') })
    .refine((p) => p.password === p.confirmPassword, { path: ['confirmPassword'], message: 'The two passwords do not match', params: { code: 'mismatch' } });

type Context = Pick<AppContext, 'db' | 'now' | 'throttle' | 'mailer' | 'log'> & { config: MailLinkConfig & PasswordPolicySettings };

/** `identifier`: what was typed, back in the field after a refusal (a username or address, never a secret). */
export type ResetRequestState =
  | { status: 'idle' }
  | { status: 'invalid'; errors: FieldProblems<'identifier'>; identifier?: string }
  /** The same for every name, known or not; the mail (if any) is sent after this answer. */
  | { status: 'sent' };

/** Whether this server can mail links at all (SMTP_URL, or the development log). */
export const canMailLinks = (ctx: Pick<AppContext, 'mailer'>) => ctx.mailer.mode !== 'off';

/** `locale`: the language of the page the request came from, which the mail is written in. */
export async function requestPasswordReset(
  ctx: Context,
  form: FormData,
  context: RequestContext,
  locale: Locale = adminMailLocale(ctx.config),
): Promise<ResetRequestState> {
  const identifier = formText(form, 'identifier', 320).trim();
  if (!identifier) return { status: 'invalid', errors: { identifier: [{ code: 'required' }] } };
  if (!canMailLinks(ctx)) return { status: 'invalid', errors: { form: [{ code: 'mail_off' }] }, identifier };
  const found = await findUserByUsernameOrEmail(ctx.db, identifier);
  const user = found && !found.disabled && found.email ? found : undefined;
  // Computed for every name, so a known one takes no shorter path.
  const pseudonym = await unknownNameKey(ctx.db, identifier);
  const check = await ctx.throttle.beforeMailRequest({ ip: context.ip, accountId: user?.id ?? pseudonym });
  if (!check.allowed) return { status: 'invalid', errors: { form: [throttledProblem(check)] }, identifier };
  if (user?.email) {
    const account = { id: user.id, username: user.username, email: user.email };
    const requestedAt = new Date(ctx.now());
    sendAfterAnswer(ctx.mailer, ctx.log, 'a password reset mail', () => mailResetLink(ctx, account, requestedAt, context, locale));
  }
  return { status: 'sent' };
}

/** Makes the link and mails it (after the answer); a refused mail takes its link with it. */
async function mailResetLink(ctx: Context, user: { id: string; username: string; email: string }, requestedAt: Date, context: RequestContext, locale: Locale) {
  const expiresAt = new Date(requestedAt.getTime() + RESET_LINK_MINUTES * 60_000);
  try {
    await mailSingleUseLink(ctx, { userId: user.id, purpose: 'password_reset', email: user.email, expiresAt, path: '/password-reset' }, ({ url = '' }) =>
      passwordResetMail({ brand: mailBrand(ctx.config), locale, username: user.username, url, validMinutes: RESET_LINK_MINUTES, requestedAt, ...context }),
    );
  } catch (error) {
    // The account's id and the failure, never the address or the link.
    ctx.log.error({ account_id: user.id, request_id: context.requestId ?? undefined, err: error }, 'a password reset mail could not be sent');
    return;
  }
  await recordAudit(ctx.db, { action: 'password_reset.requested', actor: null, target: { type: 'user', ...personLabel(user) }, context, details: {} });
}

const personLabel = (person: { id: string; username: string }) => ({ id: person.id, label: person.username });

/** What the link's page shows before anything is typed: whether the link still works, and for whom. */
export type ResetLinkView = { status: 'valid'; username: string } | { status: 'expired' | 'used' | 'unknown' };

/** Looks only: a mail scanner opening the link spends nothing. */
export async function viewResetLink(ctx: Pick<AppContext, 'db' | 'now'>, token: string): Promise<ResetLinkView> {
  const state = await mailLinkState(ctx.db, token, 'password_reset', ctx.now());
  if (state.status !== 'open') return state;
  const account = await findAccount(ctx.db, state.link.userId);
  return account && !account.disabled ? { status: 'valid', username: account.username } : { status: 'unknown' };
}

/** A new password typed twice on a mailed link's page (here, and an invitation's), under the operator's policy. */
export function readNewPassword(
  form: FormData,
  config: PasswordPolicySettings,
): { ok: true; password: string } | { ok: false; errors: FieldProblems<'password' | 'confirmPassword'> } {
  const parsed = newPasswordSchema(minimumPasswordLength(config)).safeParse({
    password: formText(form, 'password', passwordPolicy.maxLength + 1),
    confirmPassword: formText(form, 'confirmPassword', passwordPolicy.maxLength + 1),
  });
  return parsed.success
    ? { ok: true, password: parsed.data.password }
    : { ok: false, errors: fieldProblems(parsed.error, ['password', 'confirmPassword'] as const) };
}

export type ResetState =
  | { status: 'idle' }
  | { status: 'invalid'; errors: FieldProblems<'password' | 'confirmPassword'> }
  /** The link no longer works (spent, expired, unknown): nothing changed. */
  | { status: 'link'; problem: 'expired' | 'used' | 'unknown' }
  | { status: 'done'; username: string };

/** Sets the new password with the link's token, once; every session of the person ends. */
export async function resetPassword(ctx: Context, token: string, form: FormData, context: RequestContext): Promise<ResetState> {
  const checked = await checkMailLink(ctx, context.ip, () => viewResetLink(ctx, token));
  if (checked.status === 'throttled') return { status: 'invalid', errors: { form: [throttledProblem(checked.refusal)] } };
  if (checked.status !== 'valid') return checked;
  const { view } = checked;
  // The same rules as every password a person chooses (password-policy.ts), checked before the link is spent.
  const typed = readNewPassword(form, ctx.config);
  if (!typed.ok) return { status: 'invalid', errors: typed.errors };
  const { password } = typed;

  const link = await takeMailLink(ctx.db, token, 'password_reset', new Date(ctx.now()));
  if (!link) return { status: 'link', problem: 'used' };
  const person = { id: link.userId, username: view.username };
  await changePassword(ctx.db, person.id, password, { actor: person, context }, { viaMailLink: true });
  // The link proves the mailbox as a verification link does. A sign-up made with someone else's address
  // (lib/sign-in/sign-up.ts) thus becomes the address's owner's once they reset its password.
  if (await markEmailVerified(ctx.db, person.id, link.email)) {
    await recordAudit(ctx.db, {
      action: 'user.email_verified',
      actor: person,
      target: { type: 'user', ...personLabel(person) },
      context,
      details: { email: link.email },
    });
  }
  // Whoever holds the mailbox could reset anyway: a guessing run's lock no longer protects anything.
  await ctx.throttle.unlock(person.id);
  return { status: 'done', username: person.username };
}
