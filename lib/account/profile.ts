/**
 * A person edits their own name and email (/account). The rules are the ones
 * admins and the CLI use (`profileSchema`, `updateProfile` in
 * lib/users/manage.ts, which records user.updated); a taken email comes back
 * as a message on the email field.
 *
 * A new address does not replace the old one at once: when the server can send
 * mail, it gets a verification link (lib/mail-links/email-verification.ts) and
 * becomes the account's email once that is used, so nobody with a session left
 * open can point the account (and its password resets) at their own mailbox.
 * Without mail, the address changes at once, unverified, as admins' do.
 */
import type { AppContext } from '../context.ts';
import { findUserByUsernameOrEmail } from '../users/repository.ts';
import type { AuditBy } from '../audit/log.ts';
import { type MailLinkConfig, sendEmailVerification } from '../mail-links/email-verification.ts';
import type { Locale } from '../i18n/locale.ts';
import { fieldProblems, formProblems, formText, type FieldProblems } from '../platform/forms.ts';
import { canMailLinks } from '../mail-links/password-reset.ts';
import { existingUser as existingUserById, profileSchema, updateProfile } from '../users/manage.ts';

export interface ProfileValues {
  name: string;
  email: string;
}

const fields = ['name', 'email'] as const;

export type ProfileState = {
  status: 'editing' | 'saved';
  values: ProfileValues;
  /** In no language: the form words them (lib/i18n/problems.ts). */
  errors: FieldProblems<(typeof fields)[number]>;
  /** A new address waiting for its verification link (mailed to it). */
  pendingEmail?: string;
};

type Context = Pick<AppContext, 'db' | 'now' | 'mailer' | 'log'> & { config: MailLinkConfig };

export function profileValues(user: { name: string | null; email: string | null }): ProfileValues {
  return { name: user.name ?? '', email: user.email ?? '' };
}

export async function updateOwnProfile(ctx: Context, user: { id: string }, form: FormData, by?: AuditBy, locale?: Locale): Promise<ProfileState> {
  const values: ProfileValues = { name: formText(form, 'name', 500), email: formText(form, 'email', 500) };
  const parsed = profileSchema.safeParse(values);
  if (!parsed.success) return { status: 'editing', values, errors: fieldProblems(parsed.error, fields) };
  const current = await existingUserById(ctx.db, user.id);
  const newEmail = parsed.data.email;
  const changing = newEmail !== null && newEmail.toLowerCase() !== (current.email ?? '').toLowerCase() && canMailLinks(ctx);
  try {
    if (!changing) {
      const saved = await updateProfile(ctx.db, user.id, values, by);
      return { status: 'saved', values: profileValues(saved), errors: {} };
    }
    const holder = await findUserByUsernameOrEmail(ctx.db, newEmail);
    if (holder && holder.id !== user.id) return { status: 'editing', values, errors: { email: [{ code: 'conflict' }] } };
    const sent = await sendEmailVerification(ctx, current, newEmail, { locale, requestId: by?.context?.requestId });
    if (sent !== 'sent') {
      return { status: 'editing', values, errors: { email: [{ code: 'mail_failed' }] } };
    }
    // The name now; the address when its link is used.
    const saved = await updateProfile(ctx.db, user.id, { name: values.name, email: current.email ?? '' }, by);
    return { status: 'saved', values: profileValues(saved), errors: {}, pendingEmail: newEmail };
  } catch (error) {
    return { status: 'editing', values, errors: formProblems(error, fields) };
  }
}
