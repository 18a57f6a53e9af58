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
import { adminSessionAccess } from './portal/session.ts';
import { type Locale, LOCALE_COOKIE, negotiateLocale } from '../i18n/locale.ts';

const INTERACTION_PATH = /^\/interaction\/([^/]{1,128})(?:\/|$)/;

/**
 * The pages whose every string is in the catalogs: the sign-in pages (sign-up too), the mailed links'
 * pages and /account with the portal's sign-in trouble page (no ui_locales there: the browser's language),
 * and the 404 page of a path no route answers. The others (the admin portal) are English for now, and
 * say so in `<html lang>`.
 */
const LOCALISED_PAGES = [INTERACTION_PATH, /^\/(?:password-reset|verify-email|invitation|account|sign-in)(?:\/|$)/, { test: isUnroutedPath }];

/** The admin area's pages behind requireAdmin (not its sign-in route nor its signed-out page, which anyone may see). */
const ADMIN_PAGES = /^\/admin(?:$|\/(?!(?:sign-in|signed-out)(?:\/|$)))/;

/**
 * Whether this admin page is answered with the 403 page (app/forbidden.tsx: signed in, not an admin), which is
 * in the person's language. The root layout renders beside the page and cannot see its forbidden(), so it asks
 * the same question requireAdmin asks (once per request: React's cache).
 */
const refusedAdmin = cache(async (): Promise<boolean> => (await adminSessionAccess()).kind === 'forbidden');

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

/**
 * The language the page is rendered in: the request's on a translated page, English on the others (for now),
 * but for the 403 page inside the admin area, which is translated: `<html lang>` (app/layout.tsx) says which.
 */
export const pageLocale = cache(async (): Promise<Locale> => {
  const path = (await headers()).get(PATHNAME_HEADER) ?? '';
  if (LOCALISED_PAGES.some((page) => page.test(path))) return requestLocale();
  return ADMIN_PAGES.test(path) && (await refusedAdmin()) ? requestLocale() : 'en';
});
