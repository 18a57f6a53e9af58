/**
 * The mails of a sign-up (lib/services/sign-up.ts): the link that confirms the
 * new account's address, and the note to an address that already has an
 * account (so the sign-up page can answer both alike without saying which).
 */
import type { EmailVerificationMail } from './email-verification.ts';
import { type MailBrand, render } from './layout.ts';

export function signUpVerificationMail(mail: EmailVerificationMail) {
  return render(mail.brand, {
    subject: `Confirm your email address to finish signing up for ${mail.brand.name}`,
    paragraphs: [
      `Welcome, ${mail.username}. Please confirm that ${mail.email} is your email address: your new account can sign in once it is confirmed.`,
      `The link works once, for ${mail.validHours} hours. Afterwards, go back to the page where you signed up and continue, or sign in.`,
    ],
    action: { label: 'Confirm my email address', url: mail.url },
    footnotes: ['If you did not sign up, ignore this mail: the account cannot be used without the link.'],
  });
}

export interface SignUpAttemptMail {
  brand: MailBrand;
  /** The account that has the address already. */
  username: string;
  email: string;
  /** Where a forgotten password is reset. */
  resetUrl: string;
}

export function signUpAttemptMail(mail: SignUpAttemptMail) {
  return render(mail.brand, {
    subject: `Someone tried to sign up for ${mail.brand.name} with your email address`,
    paragraphs: [
      `Someone tried to create a new ${mail.brand.name} account with ${mail.email}. This address already belongs to your account ${mail.username}, so no new account was created.`,
      'If it was you, sign in with that account instead. If you forgot its password, you can choose a new one:',
    ],
    action: { label: 'Reset my password', url: mail.resetUrl },
    footnotes: ['If it was not you, ignore this mail: nothing changed, and your account stays as it is.'],
  });
}
