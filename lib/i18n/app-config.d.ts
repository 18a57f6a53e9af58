// next-intl's types for this app: its locales and the English catalog's keys, so a missing key or argument fails tsc.
import type { Locale } from './locale.ts';
import type { Messages } from './messages.ts';

declare module 'use-intl' {
  interface AppConfig {
    Locale: Locale;
    Messages: Messages;
  }
}
