/**
 * Which language a request is answered in. The order, first match wins:
 * 0. the language the person chose with the sign-in pages' switcher (LOCALE_COOKIE): their own
 *    choice on this page outranks what the app or the browser guessed for them;
 * 1. the authorization request's `ui_locales` (OIDC Core §3.1.2.1: the end-user's preferred
 *    languages, a space-separated list of BCP47 tags in order of preference), on the pages of
 *    that request (/interaction/{uid});
 * 2. the browser's Accept-Language (RFC 9110 §12.5.4), by its q-values;
 * 3. DEFAULT_LOCALE (lib/config/env.ts).
 * A tag matches a supported language by its primary subtag (`de-CH` is `de`). Pure: nothing is
 * kept between requests.
 */

/** The languages with a complete catalog (lib/i18n/messages/{locale}.json). The first is the fallback of last resort. */
export const SUPPORTED_LOCALES = ['en', 'de'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];

/** Each language in its own words, as the language switcher offers it. */
export const LOCALE_NAMES: Record<Locale, string> = { en: 'English', de: 'Deutsch' };

/** The cookie that keeps the language a person chose (app/language/route.ts sets it). */
export const LOCALE_COOKIE = 'gatehouse_locale';

export const isLocale = (value: unknown): value is Locale => typeof value === 'string' && (SUPPORTED_LOCALES as readonly string[]).includes(value);

/** The supported language a BCP47 tag names, by its primary subtag (case-insensitive), if any. */
export function supportedLocaleOf(tag: string): Locale | undefined {
  const primary = tag.trim().split(/[-_]/)[0].toLowerCase();
  return isLocale(primary) ? primary : undefined;
}

/** The first supported language of a `ui_locales` value (space-separated, in order of preference). */
export function fromUiLocales(uiLocales: string | undefined): Locale | undefined {
  for (const tag of (uiLocales ?? '').slice(0, 1000).split(' ')) {
    const locale = tag ? supportedLocaleOf(tag) : undefined;
    if (locale) return locale;
  }
  return undefined;
}

/**
 * The supported language an Accept-Language header prefers: the highest q-value wins, the header's
 * order breaks ties; `q=0` means "not this one"; `*` matches nothing in particular.
 */
export function fromAcceptLanguage(header: string | null | undefined): Locale | undefined {
  const ranges = (header ?? '')
    .slice(0, 2000)
    .split(',')
    .slice(0, 50)
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((r) => r.tag && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of ranges) {
    const locale = supportedLocaleOf(tag);
    if (locale) return locale;
  }
  return undefined;
}

export function negotiateLocale({
  chosen,
  uiLocales,
  acceptLanguage,
  defaultLocale,
}: {
  /** LOCALE_COOKIE's value, if any. */
  chosen?: string;
  uiLocales?: string;
  acceptLanguage?: string | null;
  defaultLocale: Locale;
}): Locale {
  return (isLocale(chosen) ? chosen : undefined) ?? fromUiLocales(uiLocales) ?? fromAcceptLanguage(acceptLanguage) ?? defaultLocale;
}
