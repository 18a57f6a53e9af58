/**
 * WebAuthn challenges waiting for their answer, kept server-side in the
 * provider's artifact table under model names of their own, like the pending
 * second step (lib/sign-in/pending-second-steps.ts):
 *
 * - `PasskeySignIn`, keyed by the interaction's uid: the challenge the sign-in
 *   page handed the browser, and for a second step whose passkey it must be.
 *   Only looked up after the provider found the interaction through the
 *   browser's signed cookie, so it is bound to that browser.
 * - `PasskeyRegistration`, keyed by the account's id: the challenge /account
 *   handed out after the person's password was checked, with the name they gave.
 *
 * Each is taken (deleted as it is read) by the one answer it gets, right or
 * wrong: an assertion cannot be replayed, and a second try starts over.
 */
import { takeArtifact, upsertArtifact } from '../db/artifacts.ts';
import type { Database } from '../db/database.ts';

export interface SignInChallenge {
  challenge: string;
  /** Set for a second step: the account whose passkey must answer. Absent: any person's (passwordless). */
  accountId?: string;
}

export interface RegistrationChallenge {
  challenge: string;
  /** The name the person gave the passkey. */
  name: string;
}

const SIGN_IN = 'PasskeySignIn';
const REGISTRATION = 'PasskeyRegistration';

export async function saveSignInChallenge(db: Database, interactionUid: string, challenge: SignInChallenge, expiresAt: number): Promise<void> {
  await upsertArtifact(db.sql, SIGN_IN, interactionUid, { ...challenge }, expiresAt);
}

export async function takeSignInChallenge(db: Database, interactionUid: string, now: number): Promise<SignInChallenge | undefined> {
  const payload = await takeArtifact(db.sql, SIGN_IN, interactionUid, now);
  if (typeof payload?.challenge !== 'string') return undefined;
  return { challenge: payload.challenge, accountId: typeof payload.accountId === 'string' ? payload.accountId : undefined };
}

export async function saveRegistrationChallenge(db: Database, accountId: string, challenge: RegistrationChallenge, expiresAt: number): Promise<void> {
  await upsertArtifact(db.sql, REGISTRATION, accountId, { ...challenge, accountId }, expiresAt);
}

export async function takeRegistrationChallenge(db: Database, accountId: string, now: number): Promise<RegistrationChallenge | undefined> {
  const payload = await takeArtifact(db.sql, REGISTRATION, accountId, now);
  if (typeof payload?.challenge !== 'string' || typeof payload.name !== 'string') return undefined;
  return { challenge: payload.challenge, name: payload.name };
}
