/**
 * Adding a person with a password, as every admin surface does it (portal,
 * CLI, admin API): the user is created (lib/services/users.ts createUser), and
 * an address given gets its verification link (lib/services/email-verification.ts),
 * since an address is verified by its reader, not by whoever typed it. Adding
 * one without a password is an invitation (lib/services/invitations.ts), whose
 * link verifies the address itself.
 */
import type { AppContext } from '../context.ts';
import type { UserRecord } from '../db/users.ts';
import type { AuditBy } from './audit.ts';
import { sendEmailVerification, type MailLinkConfig, type VerificationSend } from './email-verification.ts';
import { createUser, type NewUserInput } from './users.ts';

type Context = Pick<AppContext, 'db' | 'now' | 'mailer'> & { config: MailLinkConfig };

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
  return user.email ? { user, verification: await sendEmailVerification(ctx, user, user.email) } : { user };
}
