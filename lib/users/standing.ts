/**
 * Where a user stands beside their profile: a lock that failed password checks
 * put on them, their second step (never its secrets) and an invitation still
 * open. Every admin surface shows the three together.
 */
import type { Database } from '../db/database.ts';
import type { Throttle } from '../platform/throttle.ts';
import { invitationOf } from './invitations.ts';
import { lockOf, secondFactorsOf, type SecondFactors } from './manage.ts';
import type { UserRecord } from './repository.ts';

export interface UserStanding {
  lockedUntil: Date | null;
  secondFactors: SecondFactors;
  /** When a pending invitation runs out; null when it has run out, undefined when they were not invited. */
  invitation: Date | null | undefined;
}

export async function userStanding(db: Database, throttle: Pick<Throttle, 'lockState'>, user: Pick<UserRecord, 'id' | 'invited'>): Promise<UserStanding> {
  const [lockedUntil, secondFactors, invitation] = await Promise.all([lockOf(throttle, user.id), secondFactorsOf(db, user.id), invitationOf(db, user)]);
  return { lockedUntil, secondFactors, invitation };
}
