/** The mail that confirms an address: sent when an account gets one (an admin, or the person changing theirs). */
import type { Locale } from '../../i18n/locale.ts';
import { translator } from '../../i18n/messages.ts';
import { type MailBrand, render } from './layout.ts';

export interface EmailVerificationMail {
  brand: MailBrand;
  locale: Locale;
  username: string;
  email: string;
  url: string;
  validHours: number;
  /** The code mailed beside the link (lib/mail-links/codes.ts), and how long it works. */
  code?: string;
  codeMinutes?: number;
}

/** The code beside the link, when the mail has one. */
export function codeBlock(mail: Pick<EmailVerificationMail, 'locale' | 'code' | 'codeMinutes'>) {
  if (!mail.code) return {};
  return { code: { lead: translator(mail.locale, 'mail')('codeLead', { minutes: mail.codeMinutes ?? 0 }), value: mail.code } };
}

export function emailVerificationMail(mail: EmailVerificationMail) {
  const t = translator(mail.locale, 'mail.emailVerification');
  return render(
    mail.brand,
    {
      subject: t('subject', { product: mail.brand.name }),
      paragraphs: [t('confirm', { email: mail.email, username: mail.username }), t('link', { hours: mail.validHours })],
      action: { label: t('action'), url: mail.url },
      ...codeBlock(mail),
      footnotes: [t('notYou')],
    },
    mail.locale,
  );
}
