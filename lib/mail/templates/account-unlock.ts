/**
 * The unlock mail: sent to an account's verified address when failed passwords lock a browser, an address or every new
 * browser out of it. It says where the failures came from, and its link lifts the lock and makes the browser that opens it
 * a known one (lib/mail-links/account-unlock.ts). In the server's default language; the time in UTC.
 */
import type { Locale } from '../../i18n/locale.ts';
import { formatUtc, translator } from '../../i18n/messages.ts';
import { type MailBrand, render } from './layout.ts';

export interface AccountUnlockMail {
  brand: MailBrand;
  locale: Locale;
  username: string;
  url: string;
  validHours: number;
  lockedAt: Date;
  ip: string | null;
}

export function accountUnlockMail(mail: AccountUnlockMail) {
  const t = translator(mail.locale, 'mail.accountUnlock');
  return render(
    mail.brand,
    {
      subject: t('subject', { product: mail.brand.name }),
      paragraphs: [
        t('locked', { username: mail.username, when: formatUtc(mail.locale, mail.lockedAt), ip: mail.ip ?? t('unknownAddress') }),
        t('link', { hours: mail.validHours }),
      ],
      action: { label: t('action'), url: mail.url },
      footnotes: [t('notYou')],
    },
    mail.locale,
  );
}
