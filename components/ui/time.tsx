/**
 * Dates as the pages show them. `Time`: "5 minutes ago" in the page's language, with the exact moment in the
 * element's datetime (ISO) and title, in the person's time zone when the browser told it (lib/i18n/time-zone.ts),
 * otherwise in UTC, saying "UTC". UI only.
 */
import { useFormatter, useNow, useTimeZone, useTranslations } from 'next-intl';

/** The exact moment in the page's language and time zone, "UTC" after it when that is what it is in. */
export function useExactTime(): (date: Date) => string {
  const format = useFormatter();
  const utc = useTimeZone() === 'UTC';
  const t = useTranslations('time');
  return (date) => {
    const moment = format.dateTime(date, { dateStyle: 'medium', timeStyle: 'short' });
    return utc ? t('utc', { moment }) : moment;
  };
}

export function Time({ date }: { date: Date }) {
  const format = useFormatter();
  const exact = useExactTime();
  const now = useNow();
  // Under a minute either way reads as "now" rather than as a count of seconds.
  const relative = Math.abs(date.getTime() - now.getTime()) < 60_000 ? format.relativeTime(now, now) : format.relativeTime(date, now);
  return (
    <time dateTime={date.toISOString()} title={exact(date)}>
      {relative}
    </time>
  );
}

/** The exact moment as text (where a relative time would not do: a button's accessible name). */
export function ExactTime({ date }: { date: Date }) {
  return useExactTime()(date);
}
