/**
 * A person's Gatehouse sign-in sessions (the provider's Session artifacts)
 * and ending them. The session behind the current portal sign-in is marked
 * `current` and never ended from here: "sign out everywhere else" keeps it, and
 * ending it alone would be signing out, which is its own button. Ending a
 * session also ends the tokens bound to it (those issued without
 * offline_access: the provider checks their session on every use).
 */
import { destroySessionOfAccount, destroySessionsOfAccountExcept, listSessionsOfAccount } from './repository.ts';
import { signInsSince } from '../audit/repository.ts';
import { findClient } from '../clients/repository.ts';
import type { Database } from '../db/database.ts';
import { recordAuditBy, type AuditBy } from '../audit/log.ts';
import { describeUserAgent, summarizeUserAgent, type UserAgentSummary } from '../platform/user-agent.ts';

/** The person, and the uid of the Gatehouse session their portal sign-in came from (when known). */
export interface AccountHolder {
  id: string;
  username: string;
  sessionUid?: string;
}

export interface ActiveSession {
  uid: string;
  signedInAt: Date | null;
  /** The last time the session was used to sign in to an app (the provider saves it then, pushing its end back). */
  lastActiveAt: Date | null;
  expiresAt: Date | null;
  current: boolean;
  /** The apps signed in through this session, by name. */
  apps: string[];
  /** Where it was signed in from: "Chrome on Linux" and the address, from its sign-in's audit entry (null when not found). */
  browser: string | null;
  /** The same, in no language: /account words it. */
  agent: UserAgentSummary | null;
  ip: string | null;
}

/**
 * How far before the session's login time its sign-in's audit entry may be:
 * the entry is written as the interaction finishes, and the provider stamps the
 * login when the browser comes back to the authorization endpoint, a redirect later.
 */
const SIGN_IN_LEEWAY_SECONDS = 60;

/**
 * The audit entry of each session's sign-in: the newest `sign_in.succeeded` of
 * the account at or before its login time (within the leeway). The provider's
 * Session keeps no request data of its own; the log has the address and the user
 * agent of every sign-in, as long as AUDIT_RETENTION_DAYS keeps it: an older session shows neither.
 */
async function signInOrigins(db: Database, accountId: string, loginTimes: Array<number | null>) {
  const known = loginTimes.filter((t): t is number => t !== null);
  if (!known.length) return () => undefined;
  const entries = await signInsSince(db, accountId, new Date((Math.min(...known) - SIGN_IN_LEEWAY_SECONDS) * 1000));
  return (loginTs: number | null) =>
    loginTs === null ? undefined : entries.find((e) => e.at.getTime() <= (loginTs + 1) * 1000 && e.at.getTime() >= (loginTs - SIGN_IN_LEEWAY_SECONDS) * 1000);
}

const date = (epochSeconds: number | null) => (epochSeconds === null ? null : new Date(epochSeconds * 1000));

/** `sessionTtl`: SESSION_TTL, how long a session lives after its last use (when it was last used is derived from it). */
export async function activeSessions(db: Database, holder: AccountHolder, sessionTtl: number, now: number): Promise<ActiveSession[]> {
  const sessions = await listSessionsOfAccount(db, holder.id, now);
  const names = await clientNames(
    db,
    sessions.flatMap((s) => s.clientIds),
  );
  const ttl = sessionTtl;
  const origin = await signInOrigins(
    db,
    holder.id,
    sessions.map((s) => s.loginTs),
  );
  return sessions
    .map((s) => {
      const start = s.loginTs ?? s.iat;
      const signIn = origin(s.loginTs);
      // exp = last save + ttl.Session; clamped, in case SESSION_TTL changed since.
      const saved = s.exp === null ? start : Math.min(Math.floor(now / 1000), Math.max(start ?? 0, s.exp - ttl));
      return {
        uid: s.uid,
        signedInAt: date(start),
        lastActiveAt: date(saved),
        expiresAt: date(s.exp),
        current: s.uid === holder.sessionUid,
        apps: s.clientIds.map((id) => names.get(id) ?? id),
        browser: describeUserAgent(signIn?.userAgent ?? null),
        agent: summarizeUserAgent(signIn?.userAgent ?? null),
        ip: signIn?.ip ?? null,
      };
    })
    .sort((a, b) => Number(b.current) - Number(a.current));
}

async function clientNames(db: Database, ids: string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  const clients = await Promise.all(unique.map((id) => findClient(db, id)));
  return new Map(clients.flatMap((c) => (c ? [[c.id, c.name] as const] : [])));
}

const target = (holder: AccountHolder) => ({ type: 'user' as const, id: holder.id, label: holder.username });

/** "Sign out everywhere else": every session but the current one; returns how many ended. */
export async function endOtherSessions(db: Database, holder: AccountHolder, by?: AuditBy): Promise<number> {
  const count = await destroySessionsOfAccountExcept(db, holder.id, holder.sessionUid);
  if (count > 0) await recordAuditBy(db, by, { action: 'session.ended', target: target(holder), details: { count, scope: 'others' } });
  return count;
}

/**
 * Every session of the person, done by an administrator (the portal's user
 * page, the admin API): they sign in again at their next authorization
 * request. Grants and refresh tokens stay; tokens bound to a session end with it.
 */
export async function endAllSessions(db: Database, holder: AccountHolder, by?: AuditBy): Promise<number> {
  const count = await destroySessionsOfAccountExcept(db, holder.id);
  if (count > 0) await recordAuditBy(db, by, { action: 'session.ended', target: target(holder), details: { count, scope: 'all' } });
  return count;
}

export type SessionEnding = { status: 'ended' } | { status: 'current' } | { status: 'not_found' };

/** Ends one session of the person's (by uid), not the current one. */
export async function endOneSession(db: Database, holder: AccountHolder, uid: string, by?: AuditBy): Promise<SessionEnding> {
  if (!uid || uid.length > 100) return { status: 'not_found' };
  if (uid === holder.sessionUid) return { status: 'current' };
  const count = await destroySessionOfAccount(db, holder.id, uid);
  if (count === 0) return { status: 'not_found' };
  await recordAuditBy(db, by, { action: 'session.ended', target: target(holder), details: { count, scope: 'one' } });
  return { status: 'ended' };
}
