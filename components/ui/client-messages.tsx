/**
 * The catalog's namespaces that the client components below it read (useTranslations), with the page's
 * language, time zone and clock: only those, so a page's payload carries no more of the catalog than it shows.
 */
import { NextIntlClientProvider } from 'next-intl';
import { getMessages } from 'next-intl/server';
import type { ReactNode } from 'react';
import type { Messages } from '@/lib/i18n/messages';

export async function ClientMessages({ namespaces, children }: { namespaces: Array<keyof Messages>; children: ReactNode }) {
  const messages = await getMessages();
  const picked = Object.fromEntries(namespaces.map((namespace) => [namespace, messages[namespace]]));
  return <NextIntlClientProvider messages={picked}>{children}</NextIntlClientProvider>;
}
