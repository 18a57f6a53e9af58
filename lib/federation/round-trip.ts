/**
 * What a federated sign-in keeps between its requests, server-side in the provider's artifact table
 * (as lib/sign-in/pending-second-steps.ts does), never in the browser:
 * - `FederationState`, keyed by the random `state` sent upstream: the Gatehouse interaction it belongs
 *   to, the nonce and PKCE verifier, and the SHA-256 of a random value held in this browser's
 *   `gatehouse_federation` cookie. Taken (deleted) by the first callback that names it, so a replayed
 *   callback finds nothing; a callback from another browser lacks the cookie's value.
 * - `FederationResult`, keyed by the interaction's uid: who the upstream said signed in, from the
 *   callback (which cannot see the interaction's cookie, scoped to /interaction/:uid) to the step on
 *   /interaction/:uid/federation that finishes the interaction.
 * - `FederationLink`, keyed by the interaction's uid: an identity waiting for the person to prove the
 *   local account it would be linked to (lib/federation/linking.ts).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { takeArtifact, upsertArtifact } from '../db/artifacts.ts';
import type { Database } from '../db/database.ts';

export const STATE_MODEL = 'FederationState';
export const RESULT_MODEL = 'FederationResult';
export const LINK_MODEL = 'FederationLink';

/** The cookie binding a round trip to the browser that started it. */
export const BINDING_COOKIE = 'gatehouse_federation';
export const CALLBACK_PATH = '/federation/callback';

/** How long the person may spend at the upstream: at most this, and never beyond the interaction. */
export const ROUND_TRIP_TTL_MS = 10 * 60 * 1000;

const digest = (value: string) => createHash('sha256').update(value).digest();

export const randomValue = () => randomBytes(32).toString('base64url');

const stateSchema = z.object({
  uid: z.string().min(1).max(200),
  connectionId: z.string().min(1).max(200),
  nonce: z.string().min(1).max(200),
  codeVerifier: z.string().min(1).max(200),
  binding: z.string().length(64),
  /**
   * What the Gatehouse request asked of the sign-in's freshness, passed upstream and checked against the
   * ID token's auth_time when it has one: `maxAge` (seconds, the request's max_age), `since` (epoch ms:
   * prompt=login, the upstream must have signed the person in after the round trip started).
   */
  maxAge: z.number().int().min(0).optional(),
  since: z.number().optional(),
  /** A round trip started on /account to link another identity to this signed-in person (lib/federation/account-link.ts), not a sign-in. */
  link: z.object({ userId: z.string(), sessionUid: z.string() }).optional(),
});
export type StoredState = Omit<z.output<typeof stateSchema>, 'binding'>;

export async function saveState(db: Database, state: string, value: StoredState, binding: string, expiresAt: number): Promise<void> {
  await upsertArtifact(db.sql, STATE_MODEL, state, { ...value, binding: digest(binding).toString('hex') }, expiresAt);
}

/**
 * Takes the round trip `state` names, once; undefined when unknown, expired, used, or when this
 * browser's binding cookie is not the one it was started with (compared in constant time).
 * `found` says whether the state existed at all, for the audit log.
 */
export async function takeState(db: Database, state: string, binding: string | undefined, now: number): Promise<{ trip?: StoredState; found: boolean }> {
  const payload = stateSchema.safeParse(await takeArtifact(db.sql, STATE_MODEL, state, now));
  if (!payload.success) return { found: false };
  const { binding: expected, ...trip } = payload.data;
  const same = binding !== undefined && timingSafeEqual(digest(binding), Buffer.from(expected, 'hex'));
  return same ? { trip, found: true } : { found: true };
}

export const profileSchema = z.object({
  connectionId: z.string(),
  issuer: z.string(),
  subject: z.string(),
  email: z.string().nullable(),
  emailVerified: z.boolean(),
  name: z.string().nullable(),
  username: z.string().nullable(),
  amr: z.array(z.string()),
  acr: z.string().nullable(),
  tokens: z
    .object({ access_token: z.string(), refresh_token: z.string().optional(), expires_at: z.number().optional(), id_token: z.string().optional() })
    .optional(),
});
export type StoredProfile = z.output<typeof profileSchema>;

export async function saveResult(db: Database, uid: string, profile: StoredProfile, expiresAt: number): Promise<void> {
  await upsertArtifact(db.sql, RESULT_MODEL, uid, profile as unknown as Record<string, unknown>, expiresAt);
}

export async function takeResult(db: Database, uid: string, now: number): Promise<StoredProfile | undefined> {
  const parsed = profileSchema.safeParse(await takeArtifact(db.sql, RESULT_MODEL, uid, now));
  return parsed.success ? parsed.data : undefined;
}
