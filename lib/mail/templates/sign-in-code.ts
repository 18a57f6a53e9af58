/** The mail with a code alone that signs in (lib/sign-in/email-codes.ts): no link, so a mail scanner cannot use it. */
import type { Locale } from '../../i18n/locale.ts';
import { translator } from '../../i18n/messages.ts';
import { type MailBrand, render } from './layout.ts';

export interface SignInCodeMail {
  brand: MailBrand;
  locale: Locale;
  username: string;
  code: string;
  validMinutes: number;
}

export function signInCodeMail(mail: SignInCodeMail) {
  const t = translator(mail.locale, 'mail.signInCode');
  return render(
    mail.brand,
    {
      subject: t('subject', { product: mail.brand.name }),
      paragraphs: [t('asked', { product: mail.brand.name, username: mail.username })],
      code: { lead: t('codeLead', { minutes: mail.validMinutes }), value: mail.code },
      footnotes: [t('notYou')],
    },
    mail.locale,
  );
}
