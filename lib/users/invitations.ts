/**
 * Invitations: an admin (portal, CLI, admin API) creates a person without a
 * password; their address gets a link that works once, for 7 days (a resent
 * invitation replaces it), on whose page they choose their password. Using it
 * verifies the address too: only its reader could have followed the link.
 *
 * A failed send undoes nothing but the new link: the account stays, without a
 * password (no password signs in to it) and shown as "invitation not sent",
 * and sending it again works; an earlier link stays valid until a new mail
 * has left. Without mail at all (mailer mode `off`) inviting is refused: the
 * admin sets a password instead. Opening the link changes nothing (mail
 * scanners open links); wrong links are counted per source address like the
 * password reset's. Audit: `user.created` (invited), `user.invited` (each
 * mail), `invitation.accepted` (by the person); never the link.
 */
import { z } from 'zod';
import type { AppContext } from '../context.ts';
import { dropEarlierMailLinks, mailLinkState, pendingMailLinkExpiry, takeMailLink } from '../mail-links/repository.ts';
import { checkMailLink, mailSingleUseLink } from '../mail-links/single-use.ts';
import { findUserById, setFirstPassword, type UserRecord } from './repository.ts';
import { mailBrand } from '../config/brand.ts';
import { invitationMail } from '../mail/templates/invitation.ts';
import { recordAuditBy, recordSelfAudit, type AuditBy, type RequestContext } from '../audit/log.ts';
import { Conflict, InvalidRequest, parseInput } from '../platform/errors.ts';
import { type FieldProblems, throttledProblem } from '../platform/forms.ts';
import { adminMailLocale, type MailLinkConfig } from '../mail-links/email-verification.ts';
import { canMailLinks, readNewPassword } from '../mail-links/password-reset.ts';
import { hashPassword } from '../platform/passwords.ts';
import type { PasswordPolicySettings } from './password-policy.ts';
import { existingUser, insertNewUser, newUserSchema, type NewUserInput } from './manage.ts';

export const INVITATION_LINK_DAYS = 7;

type Context = Pick<AppContext, 'db' | 'now' | 'mailer' | 'log'> & { config: MailLinkConfig & PasswordPolicySettings };
type LinkContext = Context & Pick<AppContext, 'throttle'>;

/** A new user's fields without a password; `email` is required. */
export type InvitationInput = Omit<NewUserInput, 'password'>;

/** A new user's fields for an invitation: no password, an email required. */
export const invitedUserSchema = newUserSchema.omit({ password: true }).extend({
  // A missing address is its own problem (`invitation_needs_email`), so the portal's form words it as the API and CLI do.
  email: z
    .custom<string>((value) => typeof value === 'string' && value !== '', {
      error: 'An invitation needs an email address',
      params: { code: 'invitation_needs_email' },
    })
    .pipe(z.email({ error: 'Email is not a valid address' }).max(254)),
});

/** `sent` with when the link stops working; `failed`: the mail server refused or was unreachable, no new link was kept. */
export type InvitationSend = { status: 'sent'; expiresAt: Date } | { status: 'failed' };

export const NO_MAIL = 'This server sends no mail (SMTP_URL is not set), so it cannot send an invitation: set a password instead';

function refuseWithoutMail(ctx: Pick<AppContext, 'mailer'>) {
  if (!canMailLinks(ctx)) throw new InvalidRequest(NO_MAIL);
}

/** Creates the person without a password and mails them the invitation; see the file's comment for a failed send. */
export async function inviteUser(ctx: Context, input: InvitationInput, by?: AuditBy): Promise<{ user: UserRecord; invitation: InvitationSend }> {
  refuseWithoutMail(ctx);
  const data = parseInput(invitedUserSchema, input);
  const user = await insertNewUser(ctx.db, data, null, by, { invited: true });
  return { user, invitation: await mailInvitation(ctx, user, data.email, by, false) };
}

/** A new link for an invited person who has not accepted yet; the earlier one works until the new mail has left. */
export async function resendInvitation(ctx: Context, id: string, by?: AuditBy): Promise<{ user: UserRecord; invitation: InvitationSend }> {
  const user = await existingUser(ctx.db, id);
  if (!user.invited) throw new Conflict(`${user.username} has chosen a password already: there is no invitation to send`);
  if (!user.email) throw new InvalidRequest(`${user.username} has no email address to send the invitation to`, { field: 'email' });
  refuseWithoutMail(ctx);
  return { user, invitation: await mailInvitation(ctx, user, user.email, by, true) };
}

async function mailInvitation(ctx: Context, user: UserRecord, email: string, by: AuditBy | undefined, resent: boolean): Promise<InvitationSend> {
  const expiresAt = new Date(ctx.now() + INVITATION_LINK_DAYS * 86_400_000);
  let linkId: string;
  try {
    linkId = await mailSingleUseLink(
      ctx,
      { userId: user.id, purpose: 'invitation', email, expiresAt, path: '/invitation', keepEarlier: true },
      ({ url = '' }) =>
        invitationMail({ brand: mailBrand(ctx.config), locale: adminMailLocale(ctx.config), username: user.username, url, validDays: INVITATION_LINK_DAYS }),
    );
  } catch (error) {
    // The account's id and the failure, never the address or the link.
    ctx.log.error({ account_id: user.id, request_id: by?.context?.requestId ?? undefined, err: error }, 'an invitation mail could not be sent');
    return { status: 'failed' };
  }
  await dropEarlierMailLinks(ctx.db, linkId);
  await recordAuditBy(ctx.db, by, {
    action: 'user.invited',
    target: { type: 'user', id: user.id, label: user.username },
    details: { email, ...(resent ? { resent: true } : {}) },
  });
  return { status: 'sent', expiresAt };
}

/**
 * For the admin's views: an invited person's latest link's expiry (past: it
 * expired), or null when none is pending (never sent, or the send failed);
 * undefined for a person who has a password.
 */
export async function invitationOf(db: AppContext['db'], user: Pick<UserRecord, 'id' | 'invited'>): Promise<Date | null | undefined> {
  if (!user.invited) return undefined;
  return (await pendingMailLinkExpiry(db, user.id, 'invitation')) ?? null;
}

export type InvitationView = { status: 'valid'; username: string; email: string } | { status: 'expired' | 'used' | 'unknown' };

/** Looks only: a mail scanner opening the link spends nothing. */
export async function viewInvitation(ctx: Pick<AppContext, 'db' | 'now'>, token: string): Promise<InvitationView> {
  const state = await mailLinkState(ctx.db, token, 'invitation', ctx.now());
  if (state.status !== 'open') return state;
  const { link } = state;
  const user = await findUserById(ctx.db, link.userId);
  // An address changed since the mail: the link no longer proves anything about the account's.
  if (!user || user.disabled || user.email !== link.email) return { status: 'unknown' };
  return user.invited ? { status: 'valid', username: user.username, email: link.email } : { status: 'used' };
}

export type AcceptState =
  | { status: 'idle' }
  | { status: 'invalid'; errors: FieldProblems<'password' | 'confirmPassword'> }
  /** The link no longer works (spent, expired, unknown): nothing changed. */
  | { status: 'link'; problem: 'expired' | 'used' | 'unknown' }
  | { status: 'done'; username: string };

/** Sets the person's first password with the link's token, once, and verifies the address it was mailed to. */
export async function acceptInvitation(ctx: LinkContext, token: string, form: FormData, context: RequestContext): Promise<AcceptState> {
  const checked = await checkMailLink(ctx, context.ip, () => viewInvitation(ctx, token));
  if (checked.status === 'throttled') return { status: 'invalid', errors: { form: [throttledProblem(checked.refusal)] } };
  if (checked.status !== 'valid') return checked;
  const { view } = checked;
  const typed = readNewPassword(form, ctx.config);
  if (!typed.ok) return { status: 'invalid', errors: typed.errors };
  const hash = await hashPassword(typed.password);
  const link = await takeMailLink(ctx.db, token, 'invitation', new Date(ctx.now()));
  if (!link) return { status: 'link', problem: 'used' };
  // Only while the account still has no password and that address (one conditional update).
  if (!(await setFirstPassword(ctx.db, link.userId, hash, link.email))) return { status: 'link', problem: 'used' };
  const person = { id: link.userId, username: view.username };
  await recordSelfAudit(ctx.db, 'invitation.accepted', person, context, { email: link.email });
  return { status: 'done', username: person.username };
}
