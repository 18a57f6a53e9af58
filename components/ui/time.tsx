/** Dates as the pages show them: UTC, and "5 minutes ago" with the exact UTC time in the element's datetime and title. UI only. */

export function formatDate(date: Date): string {
  return `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;
}

const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400],
  ['month', 30 * 86_400],
  ['week', 7 * 86_400],
  ['day', 86_400],
  ['hour', 3600],
  ['minute', 60],
];

export function relativeTime(date: Date, now = Date.now()): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  if (Math.abs(seconds) < 60) return seconds <= 0 ? 'just now' : 'in less than a minute';
  const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  const [unit, size] = units.find(([, s]) => Math.abs(seconds) >= s)!;
  return format.format(Math.round(seconds / size), unit);
}

export function Time({ date }: { date: Date }) {
  return (
    <time dateTime={date.toISOString()} title={formatDate(date)}>
      {relativeTime(date)}
    </time>
  );
}
