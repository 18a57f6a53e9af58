/** Where a session was signed in from, as /account and an admin's user page both say it, in the page's language (`portal`). */
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';

/** "Signed in <when> from 203.0.113.7", without the address when the sign-in's is not known; `when` null: at an unknown time. */
export function SignedInFrom({ when, ip }: { when: ReactNode | null; ip: string | null }) {
  const t = useTranslations('portal');
  const moment = () => when ?? t('unknownTime');
  return ip
    ? t.rich('signedInFrom', { when: moment, ip, mono: (chunks) => <span className="font-mono text-xs">{chunks}</span> })
    : t.rich('signedInWhen', { when: moment });
}
