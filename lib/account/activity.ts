/**
 * A person's recent account activity, from the audit log, as they should read
 * it: what happened, whether they did it themselves, an administrator or
 * someone not signed in (a failed sign-in with their username), from which
 * address and browser. Administrators are not named: the log is theirs.
 */
import { describeUserAgent, summarizeUserAgent, type UserAgentSummary } from '../platform/user-agent.ts';
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
