/**
 * A moment in the admin's lists and pages: the exact date and time in the page's language and in the browser's
 * time zone (the cookie app/layout.tsx's script sets, lib/i18n/time-zone.ts), "UTC" after it when the zone is not
 * known (no JavaScript, or the first page before the script ran). The ISO instant is in `datetime` for machines.
 * The one way the portal shows an exact moment (components/ui/time.tsx useExactTime). UI only.
 */
import { useExactTime } from '../ui/time';

export function When({ date, className }: { date: Date; className?: string }) {
  return (
    <time dateTime={date.toISOString()} className={className}>
      {useExactTime()(date)}
    </time>
  );
}
