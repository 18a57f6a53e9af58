/**
 * The message catalogs (lib/i18n/messages/{locale}.json, ICU message syntax) and a translator for
 * code outside React (the mails). Pages get theirs from next-intl (lib/i18n/request.ts).
 */
import { createTranslator, type NamespaceKeys, type NestedKeyOf } from 'use-intl/core';
import de from './messages/de.json' with { type: 'json' };
import en from './messages/en.json' with { type: 'json' };
import type { Locale } from './locale.ts';

export type Messages = typeof en;

export const catalogs: Record<Locale, Messages> = { en, de };

/** Translates the messages under `namespace` (e.g. `mail.passwordReset`) in `locale`. */
export function translator<const Namespace extends NamespaceKeys<Messages, NestedKeyOf<Messages>>>(locale: Locale, namespace: Namespace) {
  return createTranslator<Messages, Namespace>({ locale, messages: catalogs[locale], namespace });
}

/** A moment as the person reads it in `locale`, in UTC (the mails know no one's time zone; the text says "UTC"). */
export function formatUtc(locale: Locale, date: Date): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date);
}
