/**
 * Self-service sign-up (SIGN_UP=on; off by default): a person creates their own
 * account from a sign-in page. The account is made with `requiresVerifiedEmail`
 * and an unverified address, and signs in only once the link mailed to that
 * address is used (lib/mail-links/email-verification.ts; the check is in
 * authentication.ts). Sign-up needs mail: without it (production without
 * SMTP_URL) it is not offered.
 *
 * Account enumeration. A taken username is said: the person must choose
 * another, and a username is what everyone types at sign-in anyway. A taken
 * address is not: the answer is the same "check your mail" as for a new
 * account (the password is hashed either way, so it takes as long), and the
 * address's owner gets a note that someone tried, with the way to reset their
 * password; whoever signed up learns nothing they could not by reading that
 * mailbox. Both are throttled per source address.
 *
 * A mail that cannot be sent leaves nothing behind: the new account is removed
 * again, and the person is told to try later; the same answer for a taken
 * address whose note failed. Audit: `user.signed_up`, `sign_up.address_taken`.
 *
 * No 'server-only' marker: tested under node:test, like authentication.ts.
 */
import { z } from 'zod';
import { mailBrand } from '../config/brand.ts';
import type { AppContext } from '../context.ts';
import type { Locale } from '../i18n/locale.ts';
import { deleteUser, findCredentialsById, findUserByUsername, findUserIdByEmail, insertUser } from '../users/repository.ts';
import { signUpAttemptMail, signUpVerificationMail } from '../mail/templates/sign-up.ts';
import { recordAuditBy, userTarget, type RequestContext } from '../audit/log.ts';
import { adminMailLocale, type MailLinkConfig, sendEmailVerification } from '../mail-links/email-verification.ts';
import { Conflict, describeIssues, Forbidden, InvalidRequest } from '../platform/errors.ts';
import { sendAfterAnswer } from '../mail/hand-off.ts';
import { unknownNameKey } from '../mail-links/mail-requests.ts';
import { canMailLinks } from '../mail-links/password-reset.ts';
import { hashPassword } from '../platform/passwords.ts';
import type { Refusal } from '../platform/throttle.ts';
import { isUniqueViolation, profileSchema, usernameSchema } from '../users/manage.ts';
import { chosenPasswordSchema, minimumPasswordLength, type PasswordPolicySettings } from '../users/password-policy.ts';

type Settings = MailLinkConfig & Pick<AppContext['config'], 'SIGN_UP' | 'SIGN_UP_EMAIL_DOMAINS'> & PasswordPolicySettings;
export type SignUpContext = Pick<AppContext, 'db' | 'now' | 'throttle' | 'mailer' | 'log'> & { config: Settings };

/** The sign-up form's rules, with the operator's minimum password length. */
export const signUpSchema = (minPasswordLength: number) =>
  z
    .object({
      username: usernameSchema,
      email: z.string().trim().min(1, 'Email is required').pipe(z.email('Email is not a valid address').max(254)),
      name: profileSchema.shape.name,
      password: chosenPasswordSchema(minPasswordLength),
      confirmPassword: z.string().min(1, 'enter the password again'),
    })
    .refine((p) => p.password === p.confirmPassword, { path: ['confirmPassword'], message: 'the two passwords do not match', params: { code: 'mismatch' } });

export type SignUpInput = z.input<ReturnType<typeof signUpSchema>>;
export const signUpFields = ['username', 'email', 'name', 'password', 'confirmPassword'] as const;

/** Whether this server offers sign-up: turned on, and able to mail the link the account needs. */
export const signUpOffered = (ctx: Pick<AppContext, 'mailer'> & { config: Pick<Settings, 'SIGN_UP'> }) => ctx.config.SIGN_UP === 'on' && canMailLinks(ctx);

/** The start-up log's line about sign-up, when it is turned on: open to whom, or why it is not offered after all. */
export function signUpStartupLine(ctx: Pick<AppContext, 'mailer'> & { config: Pick<Settings, 'SIGN_UP' | 'SIGN_UP_EMAIL_DOMAINS'> }): string | undefined {
  if (ctx.config.SIGN_UP !== 'on') return undefined;
  if (!signUpOffered(ctx)) return 'SIGN_UP=on, but this server sends no mail (SMTP_URL is not set): sign-up is NOT offered';
  const domains = ctx.config.SIGN_UP_EMAIL_DOMAINS;
  return `sign-up is on, for ${domains.length ? `addresses at ${domains.join(', ')}` : 'any email address'}`;
}

/** Whether SIGN_UP_EMAIL_DOMAINS lets `email` sign up: its domain, without case, is one of them (or there are none). */
export function emailDomainAllowed(email: string, domains: readonly string[]): boolean {
  if (domains.length === 0) return true;
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return domains.includes(domain);
}

/**
 * `sent`: the same for a new account and a taken address; `accountId` only for a
 * new account (the page binds it to the interaction, never shows it).
 * `failed`: the mail server refused or could not be reached; nothing was kept.
 */
export type SignUpOutcome =
  | { status: 'sent'; email: string; accountId?: string }
  | { status: 'failed'; email: string }
  | { status: 'throttled'; refusal: Refusal };

/** The app whose sign-in page the person came from, for the audit log. */
export type SignUpClient = { clientId?: string; clientName?: string };

/**
 * Creates the account and mails its verification link. Throws InvalidRequest
 * (its issues by field; an address outside SIGN_UP_EMAIL_DOMAINS under `email`), Conflict on `username`
 * (taken, in any case), Forbidden when sign-up is not offered. `locale`: the sign-up page's language,
 * which the mail (the link, or the note to a taken address's owner) is written in.
 */
export async function signUp(
  ctx: SignUpContext,
  input: SignUpInput,
  context: RequestContext,
  client: SignUpClient = {},
  locale: Locale = adminMailLocale(ctx.config),
): Promise<SignUpOutcome> {
  if (!signUpOffered(ctx)) throw new Forbidden('sign-up is off on this server');
  const domains = ctx.config.SIGN_UP_EMAIL_DOMAINS;
  // Beside the other rules, so a form shows every problem at once.
  const schema = signUpSchema(minimumPasswordLength(ctx.config)).refine((p) => emailDomainAllowed(p.email, domains), {
    path: ['email'],
    message: `sign-up is open to addresses at ${domains.join(', ')} only`,
    params: { code: 'email_domain', domains: domains.join(', ') },
  });
  const parsed = schema.safeParse(input);
  if (!parsed.success) return refuseWithUsername(ctx, parsed.error, input.username, context);
  const data = parsed.data;
  // Counted before anything is looked up: trying usernames costs the same as signing up.
  const check = await ctx.throttle.beforeSignUp(context.ip);
  if (!check.allowed) return { status: 'throttled', refusal: check };
  // Hashed whether or not the address is taken, so both answers take as long.
  const passwordHash = await hashPassword(data.password);
  if (await findUserByUsername(ctx.db, data.username)) throw takenUsername(data.username);
  const owner = await findUserIdByEmail(ctx.db, data.email);
  if (owner) return tellOwner(ctx, owner, data.email, context, client, locale);

  let user: { id: string; username: string };
  try {
    user = await insertUser(ctx.db, { username: data.username, email: data.email, name: data.name, passwordHash, role: 'user', requiresVerifiedEmail: true });
  } catch (error) {
    // A race with another sign-up or an admin: the same answers as above.
    if (isUniqueViolation(error, 'email')) return { status: 'sent', email: data.email };
    if ((error as { code?: string })?.code === 'P2002') throw takenUsername(data.username);
    throw error;
  }
  const sent = await sendEmailVerification(ctx, user, data.email, { template: signUpVerificationMail, requestId: context.requestId, locale, withCode: true });
  if (sent !== 'sent') {
    // Nothing half-made: the same sign-up works again once mail does.
    await deleteUser(ctx.db, user.id);
    return { status: 'failed', email: data.email };
  }
  const details = { email: data.email, ...client };
  await recordAuditBy(ctx.db, { actor: user, context }, { action: 'user.signed_up', target: userTarget(user), details });
  return { status: 'sent', email: data.email, accountId: user.id };
}

/**
 * A form with problems: every one of them at once, a taken username included, so the person does not fix
 * the form only to learn the name is taken. Looking the name up is counted as a sign-up is (the throttle
 * above), so trying usernames through refused forms costs the same as through accepted ones.
 */
async function refuseWithUsername(ctx: SignUpContext, error: z.ZodError, username: unknown, context: RequestContext): Promise<SignUpOutcome> {
  const wellFormed = usernameSchema.safeParse(username);
  let issues = error.issues;
  if (wellFormed.success && !issues.some((issue) => issue.path[0] === 'username')) {
    const check = await ctx.throttle.beforeSignUp(context.ip);
    if (!check.allowed) return { status: 'throttled', refusal: check };
    if (await findUserByUsername(ctx.db, wellFormed.data)) {
      issues = [
        ...issues,
        { code: 'custom', path: ['username'], message: 'this username is taken: choose another', params: { code: 'conflict' }, input: username },
      ];
    }
  }
  const all = new z.ZodError(issues);
  throw new InvalidRequest(describeIssues(all), { validation: all });
}

const takenUsername = (username: string) => new Conflict(`the username ${username} is taken: choose another`, { field: 'username' });

/** The address has an account: no new one; its owner is told, with the way back in. */
async function tellOwner(
  ctx: SignUpContext,
  owner: { id: string; username: string },
  email: string,
  context: RequestContext,
  client: SignUpClient,
  locale: Locale,
): Promise<SignUpOutcome> {
  const resetUrl = new URL('/password-reset', ctx.config.ISSUER).toString();
  try {
    await ctx.mailer.send({ to: email, ...signUpAttemptMail({ brand: mailBrand(ctx.config), locale, username: owner.username, email, resetUrl }) });
  } catch (error) {
    // The account's id and the failure, never the address.
    ctx.log.error({ account_id: owner.id, request_id: context.requestId ?? undefined, err: error }, 'a sign-up note could not be sent');
    return { status: 'failed', email };
  }
  await recordAuditBy(ctx.db, { actor: null, context }, { action: 'sign_up.address_taken', target: userTarget(owner), details: client });
  return { status: 'sent', email };
}

export type ResendOutcome = { status: 'sent' } | { status: 'throttled'; refusal: Refusal };

/**
 * "Send it again", from the page of an interaction waiting for a signed-up
 * account's address (`pending`: the account, and the address the sign-up named):
 * a new link (the old one stops working), throttled like password reset mails
 * (per source address and per account). Without an account (the sign-up named
 * a taken address) nothing is sent, and the answer is the same in its words and
 * its time: that address is counted under a pseudonym of its own
 * (lib/mail-links/mail-requests.ts), and the link is made and mailed after the
 * answer (a mail the server refuses is logged, and leaves no link).
 * `locale`: the language of the page that asked.
 */
export async function resendSignUpLink(
  ctx: SignUpContext,
  pending: { accountId?: string; email: string },
  context: RequestContext,
  locale: Locale = adminMailLocale(ctx.config),
): Promise<ResendOutcome> {
  const credentials = pending.accountId ? await findCredentialsById(ctx.db, pending.accountId) : undefined;
  const waiting = credentials && !credentials.disabled && credentials.awaitingEmail ? credentials : undefined;
  const pseudonym = await unknownNameKey(ctx.db, pending.email);
  const check = await ctx.throttle.beforeMailRequest({ ip: context.ip, accountId: waiting?.id ?? pseudonym });
  if (!check.allowed) return { status: 'throttled', refusal: check };
  const email = waiting?.awaitingEmail;
  if (waiting && email) {
    const account = { id: waiting.id, username: waiting.username };
    const options = { template: signUpVerificationMail, requestId: context.requestId, locale, withCode: true };
    sendAfterAnswer(ctx.mailer, ctx.log, 'a sign-up link', async () => void (await sendEmailVerification(ctx, account, email, options)));
  }
  return { status: 'sent' };
}
