/**
 * The logouts a session's end owes: one per client signed in through it (the provider's Session payload
 * keeps them under `authorizations`, each with the `sid` that client's ID tokens carried).
 */
import type { PendingLogout } from './queue.ts';

/** A stored Session payload, as far as logouts need it; anything else in it is ignored. */
export interface EndedSession {
  accountId?: unknown;
  authorizations?: unknown;
}

export function logoutsOfSessions(sessions: readonly EndedSession[]): PendingLogout[] {
  const logouts: PendingLogout[] = [];
  for (const session of sessions) {
    if (typeof session.accountId !== 'string' || !session.authorizations || typeof session.authorizations !== 'object') continue;
    for (const [clientId, authorization] of Object.entries(session.authorizations as Record<string, unknown>)) {
      const sid = authorization && typeof authorization === 'object' ? (authorization as { sid?: unknown }).sid : undefined;
      logouts.push({ clientId, accountId: session.accountId, sid: typeof sid === 'string' ? sid : null });
    }
  }
  return logouts;
}
