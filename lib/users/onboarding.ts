/**
 * Adding a person with a password, and changing their address, as every admin
 * surface does it (portal, CLI, admin API): the user is created or changed
 * (lib/users/manage.ts), and an address given gets its verification link
 * (lib/mail-links/email-verification.ts), since an address is verified by its
 * reader, not by whoever typed it. Adding one without a password is an
 * invitation (lib/users/invitations.ts), whose link verifies the address itself.
 */
import type { AppContext } from '../context.ts';
import { findUserById, type UserRecord } from './repository.ts';
import type { AuditBy } from '../audit/log.ts';
import { sendEmailVerification, type MailLinkConfig, type VerificationSend } from '../mail-links/email-verification.ts';
import { NotFound } from '../platform/errors.ts';
import { createUser, type NewUserInput, type ProfileInput, updateProfile } from './manage.ts';

type Context = Pick<AppContext, 'db' | 'now' | 'mailer' | 'log'> & { config: MailLinkConfig };

/**
 * `verification`: what became of the link's mail, absent without an address. A
 * failed send keeps the user (the admin sends the link again from their page).
 */
export async function addUser(
  ctx: Context,
  input: NewUserInput,
  by?: AuditBy,
  options: { generated?: boolean } = {},
): Promise<{ user: UserRecord; verification?: VerificationSend }> {
  const user = await createUser(ctx.db, input, by, options);
  return user.email ? { user, verification: await sendEmailVerification(ctx, user, user.email, { requestId: by?.context?.requestId }) } : { user };
}

/**
 * An admin's change of a user's name or email. A new address is unverified
 * (lib/users/repository.ts updateUserProfile) and gets its link at once, as a new
 * user's does; `verification` is absent when the address did not change
 * or was removed. A failed send keeps the change (the admin sends it again).
 */
export async function changeProfile(
  ctx: Context,
  id: string,
  input: ProfileInput,
  by?: AuditBy,
): Promise<{ user: UserRecord; verification?: VerificationSend }> {
  const before = await findUserById(ctx.db, id);
  if (!before) throw new NotFound(`no user ${id}`);
  const user = await updateProfile(ctx.db, id, input, by);
  if (!user.email || user.email === before.email || user.emailVerified) return { user };
  return { user, verification: await sendEmailVerification(ctx, user, user.email, { requestId: by?.context?.requestId }) };
}
