/**
 * A moment in the admin's lists and pages: the exact date and time in the page's language and in the browser's
 * time zone (the cookie app/layout.tsx's script sets, lib/i18n/time-zone.ts), "UTC" after it when the zone is not
 * known (no JavaScript, or the first page before the script ran). The ISO instant is in `datetime` for machines.
 * The one way the portal shows an exact moment (components/ui/time.tsx useExactTime). UI only.
 */
import { getFormatter, getTimeZone, getTranslations } from 'next-intl/server';
import { useExactTime } from '../ui/time';

export function When({ date, className }: { date: Date; className?: string }) {
  return (
    <time dateTime={date.toISOString()} className={className}>
      {useExactTime()(date)}
    </time>
  );
}

/** The same, the day over the time (a narrow column: the audit log's). */
export function WhenStacked({ date }: { date: Date }) {
  const text = useExactTime()(date);
  const cut = text.indexOf(', ');
  return (
    <time dateTime={date.toISOString()}>
      {cut < 0 ? (
        text
      ) : (
        <>
          <span className="block whitespace-nowrap">{text.slice(0, cut)}</span>
          <span className="block whitespace-nowrap">{text.slice(cut + 2)}</span>
        </>
      )}
    </time>
  );
}

/**
 * For an async page that words a moment inside a sentence (t('lockedUntil', { date })): the same text as `When`,
 * from the request's formatter (hooks are not for async components).
 */
export async function exactTimes(): Promise<(date: Date) => string> {
  const [format, zone, t] = await Promise.all([getFormatter(), getTimeZone(), getTranslations('time')]);
  return (date) => {
    const moment = format.dateTime(date, { dateStyle: 'medium', timeStyle: 'short' });
    return zone === 'UTC' ? t('utc', { moment }) : moment;
  };
}
