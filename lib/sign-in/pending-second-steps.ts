/**
 * "The password step of interaction <uid> passed for account <id>": kept
 * server-side, in the provider's artifact table under a model name of its own
 * (`PendingSecondStep`), keyed by the interaction's uid. Nothing of it reaches
 * the browser, so it cannot be forged; it is only ever looked up after the
 * provider found the interaction through the browser's signed `_interaction`
 * cookie (lib/oidc/interaction.ts), so it is bound to that browser; it expires
 * no later than the interaction, and it is deleted when the step is done.
 * Disabling the account deletes it with the account's other artifacts.
 */
import { destroyArtifact, findArtifact, upsertArtifact } from '../db/artifacts.ts';
import type { Database } from '../db/database.ts';
import type { FirstFactor } from '../oidc/authentication-context.ts';

const MODEL = 'PendingSecondStep';

export interface PendingSecondStep {
  accountId: string;
  /** "Keep me signed in", as ticked with the password: the session the second step opens follows it. */
  remember?: boolean;
  /** The first step was a mailed code, not a password (lib/oidc/authentication-context.ts loginResult). */
  first?: FirstFactor;
}

export async function savePendingSecondStep(db: Database, interactionUid: string, pending: PendingSecondStep, expiresAt: number): Promise<void> {
  await upsertArtifact(db.sql, MODEL, interactionUid, { accountId: pending.accountId, remember: pending.remember, first: pending.first }, expiresAt);
}

export async function findPendingSecondStep(db: Database, interactionUid: string, now: number): Promise<PendingSecondStep | undefined> {
  const payload = await findArtifact(db.sql, MODEL, interactionUid, now);
  if (typeof payload?.accountId !== 'string') return undefined;
  return {
    accountId: payload.accountId,
    ...(typeof payload.remember === 'boolean' ? { remember: payload.remember } : {}),
    ...(payload.first === 'email_code' || payload.first === 'fed' ? { first: payload.first } : {}),
  };
}

export async function deletePendingSecondStep(db: Database, interactionUid: string): Promise<void> {
  await destroyArtifact(db.sql, MODEL, interactionUid);
}
