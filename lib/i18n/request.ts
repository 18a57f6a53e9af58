// next-intl's request configuration (next.config.js names this file): the page's language, its catalog, its time zone.
// No locale in the URL: the protocol fixes the paths (/interaction/{uid}); lib/surfaces/locale.ts decides per request.
import { cookies } from 'next/headers';
import { getRequestConfig } from 'next-intl/server';
import { isLocale } from './locale.ts';
import { catalogs } from './messages.ts';
import { pageLocale } from '../surfaces/locale.ts';
import { FALLBACK_TIME_ZONE, TIME_ZONE_COOKIE, validTimeZone } from './time-zone.ts';

export default getRequestConfig(async ({ locale: asked }) => {
  // A locale a page asks for by name (getTranslations({ locale })), as the 403 and 404 pages do inside an English area.
  const locale = isLocale(asked) ? asked : await pageLocale();
  // The browser's time zone when its script told us (lib/i18n/time-zone.ts); UTC otherwise, which the pages then name.
  const timeZone = validTimeZone(safeDecode((await cookies()).get(TIME_ZONE_COOKIE)?.value)) ?? FALLBACK_TIME_ZONE;
  return { locale, messages: catalogs[locale], timeZone };
});

/** The cookie's value as set (percent-encoded by the script); undefined when it does not decode. */
function safeDecode(value: string | undefined): string | undefined {
  if (value === undefined || !value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
