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
}

export function emailVerificationMail(mail: EmailVerificationMail) {
  const t = translator(mail.locale, 'mail.emailVerification');
  return render(
    mail.brand,
    {
      subject: t('subject', { product: mail.brand.name }),
      paragraphs: [t('confirm', { email: mail.email, username: mail.username }), t('link', { hours: mail.validHours })],
      action: { label: t('action'), url: mail.url },
      footnotes: [t('notYou')],
    },
    mail.locale,
  );
}
