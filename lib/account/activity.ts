/**
 * A person's recent account activity, from the audit log, as they should read
 * it: what happened, whether they did it themselves, an administrator or
 * someone not signed in (a failed sign-in with their username), from which
 * address and browser. Administrators are not named: the log is theirs.
 */
import type { Database } from '../db/database.ts';
import { auditActionLabels, auditEventsFor, isAuditAction } from '../audit/log.ts';
import type { AuditAction } from '../audit/events.ts';

export interface ActivityEntry {
  id: string;
  at: Date;
  /** What happened, in English (the admin's words); `action` is its code, which /account words in the person's language. */
  what: string;
  action: AuditAction | null;
  /** The app concerned (sign-in, consent), when there is one. */
  app: string | null;
  by: 'you' | 'administrator' | 'someone' | 'gatehouse';
  ip: string | null;
  /** The browser and system, in a few words, from the user agent. */
  browser: string | null;
  /** The same, in no language: /account words it ("Chrome on Linux"). */
  agent: UserAgentSummary | null;
}

export async function recentActivity(db: Database, holder: { id: string }, take = 10): Promise<ActivityEntry[]> {
  const events = await auditEventsFor(db, { involvingUserId: holder.id }, take);
  return events.map((event) => {
    const clientName = event.details.clientName;
    return {
      id: event.id,
      at: event.at,
      what: isAuditAction(event.action) ? auditActionLabels[event.action] : event.action,
      action: isAuditAction(event.action) ? event.action : null,
      app: typeof clientName === 'string' ? clientName : null,
      by: event.actor?.id === holder.id ? 'you' : event.actor ? 'administrator' : event.ip ? 'someone' : 'gatehouse',
      ip: event.ip,
      browser: describeUserAgent(event.userAgent),
      agent: summarizeUserAgent(event.userAgent),
    };
  });
}

const browsers: Array<[RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, 'Edge'],
  [/\b(?:OPR|Opera)\//, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\b(?:Headless)?Chrom(?:e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
];
const systems: Array<[RegExp, string]> = [
  [/\b(?:iPhone|iPad|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'macOS'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bLinux\b/, 'Linux'],
];

/** A user agent as a known browser and system (names that need no translating), or as it is, shortened. */
export type UserAgentSummary = { browser: string; system: string | null } | { other: string };

export function summarizeUserAgent(userAgent: string | null): UserAgentSummary | null {
  if (!userAgent) return null;
  const browser = browsers.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = systems.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser) return { browser, system: system ?? null };
  return { other: userAgent.length > 60 ? `${userAgent.slice(0, 59)}…` : userAgent };
}

/** "Chrome on Linux" in English (the admin portal); a user agent that is no known browser shows as it is, shortened. */
export function describeUserAgent(userAgent: string | null): string | null {
  const summary = summarizeUserAgent(userAgent);
  if (!summary) return null;
  if ('other' in summary) return summary.other;
  return summary.system ? `${summary.browser} on ${summary.system}` : summary.browser;
}
