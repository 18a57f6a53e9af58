/**
 * The sign-in pages' language switcher: the other languages as buttons of a plain form posted to
 * /language (app/language/route.ts), which keeps the choice and sends the browser back to the same
 * page, so the request being answered (an authorization request's sign-in, a mailed link's page)
 * continues in that language, with or without JavaScript. Each language is named in its own words
 * and marked as such (`lang`). Shown only on the pages that are in the person's language.
 */
import { getLocale, getTranslations } from 'next-intl/server';
import { LOCALE_NAMES, SUPPORTED_LOCALES } from '@/lib/i18n/locale';
import { languageChoiceOffered } from '@/lib/surfaces/locale';
import { focusRing } from '../ui/button';
import { ReturnField } from './return-field';

export async function LanguageSwitcher() {
  if (!(await languageChoiceOffered())) return null;
  const current = await getLocale();
  const t = await getTranslations('languages');
  return (
    <form method="post" action="/language" className="mt-4 flex flex-wrap items-center justify-center gap-x-3 gap-y-1 text-sm text-slate-600">
      <ReturnField />
      <span id="language-label">{t('label')}</span>
      <span aria-labelledby="language-label" role="group" className="flex flex-wrap gap-x-3">
        {SUPPORTED_LOCALES.map((locale) =>
          locale === current ? (
            <span key={locale} lang={locale} aria-current="true" className="font-semibold text-slate-900">
              {LOCALE_NAMES[locale]}
            </span>
          ) : (
            <button
              key={locale}
              type="submit"
              name="locale"
              value={locale}
              lang={locale}
              className={`rounded-sm font-medium text-accent-text underline-offset-2 hover:underline ${focusRing}`}
            >
              {LOCALE_NAMES[locale]}
            </button>
          ),
        )}
      </span>
    </form>
  );
}
