/**
 * The mails of a sign-up (lib/sign-in/sign-up.ts): the link that confirms the
 * new account's address, and the note to an address that already has an
 * account (so the sign-up page can answer both alike without saying which).
 * Both in the language of the sign-up page the person used.
 */
import type { Locale } from '../../i18n/locale.ts';
import { translator } from '../../i18n/messages.ts';
import { codeBlock, type EmailVerificationMail } from './email-verification.ts';
import { type MailBrand, render } from './layout.ts';

export function signUpVerificationMail(mail: EmailVerificationMail) {
  const t = translator(mail.locale, 'mail.signUp');
  return render(
    mail.brand,
    {
      subject: t('subject', { product: mail.brand.name }),
      paragraphs: [t('welcome', { username: mail.username, email: mail.email }), t('link', { hours: mail.validHours })],
      action: { label: t('action'), url: mail.url },
      ...codeBlock(mail),
      footnotes: [t('notYou')],
    },
    mail.locale,
  );
}

export interface SignUpAttemptMail {
  brand: MailBrand;
  locale: Locale;
  /** The account that has the address already. */
  username: string;
  email: string;
  /** Where a forgotten password is reset. */
  resetUrl: string;
}

export function signUpAttemptMail(mail: SignUpAttemptMail) {
  const t = translator(mail.locale, 'mail.signUpAttempt');
  return render(
    mail.brand,
    {
      subject: t('subject', { product: mail.brand.name }),
      paragraphs: [t('tried', { product: mail.brand.name, email: mail.email, username: mail.username }), t('reset')],
      action: { label: t('action'), url: mail.resetUrl },
      footnotes: [t('notYou')],
    },
    mail.locale,
  );
}
