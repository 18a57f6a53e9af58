/**
 * The language of the request being answered (lib/i18n/locale.ts decides; this reads the request).
 * Nothing is kept per process: React's cache holds the answer for one request only.
 */
import 'server-only';
import { cookies, headers } from 'next/headers';
import { cache } from 'react';
import { env } from '../config/env.ts';
import { isUnroutedPath, PATHNAME_HEADER } from '../http/paths.ts';
import { interactionUiLocales } from './interaction/page.ts';
import { type Locale, LOCALE_COOKIE, negotiateLocale } from '../i18n/locale.ts';

const INTERACTION_PATH = /^\/interaction\/([^/]{1,128})(?:\/|$)/;

/**
 * The pages whose every string is in the catalogs: the sign-in pages (sign-up too), the mailed links'
 * pages, /account and /admin with the portal's sign-in trouble page (no ui_locales there: the browser's
 * language), and the 404 page of a path no route answers. The others (the bare provider pages) are English,
 * and say so in `<html lang>`.
 */
const LOCALISED_PAGES = [INTERACTION_PATH, /^\/(?:password-reset|verify-email|invitation|account|admin|sign-in)(?:\/|$)/, { test: isUnroutedPath }];

/**
 * The language this request asks for: the one the person chose (LOCALE_COOKIE), then on an interaction
 * page its authorization request's ui_locales, then Accept-Language, then DEFAULT_LOCALE. Mails caused by the request use it.
 */
export const requestLocale = cache(async (): Promise<Locale> => {
  const request = await headers();
  const jar = await cookies();
  const uid = INTERACTION_PATH.exec(request.get(PATHNAME_HEADER) ?? '')?.[1];
  const uiLocales = uid ? await interactionUiLocales(decodeURIComponent(uid), jar.toString() || null) : undefined;
  const chosen = jar.get(LOCALE_COOKIE)?.value;
  return negotiateLocale({ chosen, uiLocales, acceptLanguage: request.get('accept-language'), defaultLocale: env().DEFAULT_LOCALE });
});

/** Whether this page is in the person's language, and so offers the language switcher (components/interaction/language-switcher.tsx). */
export const languageChoiceOffered = cache(async (): Promise<boolean> => {
  const path = (await headers()).get(PATHNAME_HEADER) ?? '';
  return LOCALISED_PAGES.some((page) => page.test(path));
});

/** The language the page is rendered in: the request's on a translated page, English on the others; `<html lang>` (app/layout.tsx) says which. */
export const pageLocale = cache(async (): Promise<Locale> => {
  const path = (await headers()).get(PATHNAME_HEADER) ?? '';
  return LOCALISED_PAGES.some((page) => page.test(path)) ? requestLocale() : 'en';
});
