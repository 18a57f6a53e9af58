/**
 * The page's words in a browser spec that runs in more than one language: a text of the message catalogs
 * (lib/i18n/messages/{locale}.json) by its path, formatted as the pages format it (ICU plurals and
 * placeholders by use-intl), its tags dropped, as a person reads it on the page.
 */
import { readFileSync } from 'node:fs';
import { createTranslator } from 'use-intl/core';

export type Language = 'en' | 'de';

const load = (language: Language) => JSON.parse(readFileSync(new URL(`../../lib/i18n/messages/${language}.json`, import.meta.url), 'utf8'));
const keep = (chunks: string) => chunks;
/** The tags the catalogs mark words with: each keeps its words. */
const tags = { strong: keep, em: keep, b: keep, code: keep, link: keep };

/** `text('interaction.secondFactor.trustDevice', { count: 30 })` in `language`. */
export function catalog(language: Language) {
  const t = createTranslator({ locale: language, messages: load(language) });
  return (path: string, values: Record<string, string | number> = {}): string => t.markup(path as never, { ...tags, ...values } as never);
}

/** The browser's language for a catalog's (Accept-Language, navigator.language). */
export const browserLocale = (language: Language) => (language === 'de' ? 'de-DE' : 'en-US');
