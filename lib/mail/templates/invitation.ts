/** The mail that invites a person an admin created without a password: the link lets them choose it. */
import type { Locale } from '../../i18n/locale.ts';
import { translator } from '../../i18n/messages.ts';
import { type MailBrand, render } from './layout.ts';

export interface InvitationMail {
  brand: MailBrand;
  locale: Locale;
  username: string;
  url: string;
  validDays: number;
}

export function invitationMail(mail: InvitationMail) {
  const t = translator(mail.locale, 'mail.invitation');
  return render(
    mail.brand,
    {
      subject: t('subject', { product: mail.brand.name }),
      paragraphs: [t('created', { username: mail.username, product: mail.brand.name }), t('link', { days: mail.validDays })],
      action: { label: t('action'), url: mail.url },
      footnotes: [t('notExpected'), t('expired')],
    },
    mail.locale,
  );
}
