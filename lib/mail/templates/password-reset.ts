/**
 * The password reset mail: the link, how long it works, and where the request came from (so a person who did not ask can tell),
 * in the language of the page it was asked from; the time in UTC, written the language's way.
 */
import type { Locale } from '../../i18n/locale.ts';
import { formatUtc, translator } from '../../i18n/messages.ts';
import { summarizeUserAgent } from '../../platform/user-agent.ts';
import { type MailBrand, render } from './layout.ts';

export interface PasswordResetMail {
  brand: MailBrand;
  locale: Locale;
  username: string;
  url: string;
  validMinutes: number;
  requestedAt: Date;
  ip: string | null;
  userAgent: string | null;
}

/** "Chrome on Linux" as /account words it; a user agent that names no known browser quoted as it is, shortened. */
function browserText(locale: Locale, userAgent: string | null): string | null {
  const agent = summarizeUserAgent(userAgent);
  if (!agent) return null;
  if ('other' in agent) return translator(locale, 'mail.passwordReset')('quotedBrowser', { browser: agent.other });
  return agent.system ? translator(locale, 'portal')('agent', { browser: agent.browser, system: agent.system }) : agent.browser;
}

export function passwordResetMail(mail: PasswordResetMail) {
  const t = translator(mail.locale, 'mail.passwordReset');
  const browser = browserText(mail.locale, mail.userAgent) ?? t('unknownBrowser');
  return render(
    mail.brand,
    {
      subject: t('subject', { product: mail.brand.name }),
      paragraphs: [
        t('asked', { username: mail.username }),
        t('origin', { when: formatUtc(mail.locale, mail.requestedAt), ip: mail.ip ?? t('unknownAddress'), browser }),
        t('link', { minutes: mail.validMinutes }),
      ],
      action: { label: t('action'), url: mail.url },
      footnotes: [t('notYou')],
    },
    mail.locale,
  );
}
