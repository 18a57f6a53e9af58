// next-intl's request configuration (next.config.ts names this file): the page's language and its catalog.
// No locale in the URL: the protocol fixes the paths (/interaction/{uid}); lib/i18n/server.ts decides per request.
import { getRequestConfig } from 'next-intl/server';
import { isLocale } from './locale.ts';
import { catalogs } from './messages.ts';
import { pageLocale } from './server.ts';

export default getRequestConfig(async ({ locale: asked }) => {
  // A locale a page asks for by name (getTranslations({ locale })), as the 403 and 404 pages do inside an English area.
  const locale = isLocale(asked) ? asked : await pageLocale();
  // Times on the pages are in UTC unless a page knows the person's time zone (and says which it shows).
  return { locale, messages: catalogs[locale], timeZone: 'UTC' };
});
