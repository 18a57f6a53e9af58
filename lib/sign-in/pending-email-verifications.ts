/**
 * "In interaction <uid>, the password of account <id> was typed (at sign-up, or
 * at sign-in of a signed-up account), and only its address's verification is
 * missing": kept server-side, in the provider's artifact table under a model
 * name of its own (`PendingEmailVerification`), keyed by the interaction's uid,
 * like lib/sign-in/pending-second-steps.ts. It is only read after the provider found
 * the interaction through the browser's signed `_interaction` cookie, so only
 * that browser can continue, and only as that account; it expires with the
 * interaction. `email` is where the link went, for the page to say;
 * `accountId` is absent when the sign-up named an address another account
 * already has (lib/sign-in/sign-up.ts): the page looks the same, and nothing
 * can continue from it.
 */
import { destroyArtifact, findArtifact, upsertArtifact } from '../db/artifacts.ts';
import type { Database } from '../db/database.ts';

const MODEL = 'PendingEmailVerification';

export interface PendingEmailVerification {
  accountId?: string;
  email: string;
  /** How the person got here: they just signed up, or signed in before confirming. */
  via: 'sign_up' | 'sign_in';
}

export async function savePendingEmailVerification(db: Database, interactionUid: string, pending: PendingEmailVerification, expiresAt: number): Promise<void> {
  await upsertArtifact(db.sql, MODEL, interactionUid, { ...pending }, expiresAt);
}

export async function findPendingEmailVerification(db: Database, interactionUid: string, now: number): Promise<PendingEmailVerification | undefined> {
  const payload = await findArtifact(db.sql, MODEL, interactionUid, now);
  if (typeof payload?.email !== 'string') return undefined;
  return {
    ...(typeof payload.accountId === 'string' ? { accountId: payload.accountId } : {}),
    email: payload.email,
    via: payload.via === 'sign_in' ? 'sign_in' : 'sign_up',
  };
}

export async function deletePendingEmailVerification(db: Database, interactionUid: string): Promise<void> {
  await destroyArtifact(db.sql, MODEL, interactionUid);
}

/**
 * Forgets every interaction bound to the account: its password changed (a reset by the
 * address's owner, say), so what the old password started must not finish.
 */
export async function deletePendingEmailVerificationsOf(db: Database, accountId: string): Promise<number> {
  return db.sql.run('DELETE FROM oidc_model_instances WHERE model = ? AND account_id = ?', [MODEL, accountId]);
}
