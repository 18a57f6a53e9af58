/**
 * Signing keys: generated with the CSPRNG, stored sealed in the database, and
 * loaded by every instance, so all of them publish one JWKS and verify each
 * other's tokens. RS256 is OIDC's default algorithm (Core §3.1.3.7) and stays
 * available; ES256 signs much faster (bench/results). Each algorithm has its
 * own rotation (lib/keys/signing-keys.ts); the provider is built on the
 * published keys, the signing one of each algorithm first.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import type { Database } from '../db/database.ts';
import { insertSigningKeyIfNone, listActiveSigningKeys, serverSecret } from '../db/secrets.ts';
import { listSigningKeyInfo, signingKeysVersion } from '../keys/repository.ts';
import { ID_TOKEN_SIGNING_ALGS, type IdTokenSigningAlg } from './algorithms.ts';

/** A new private JWK for `alg`, with a random kid. */
export function generateSigningJwk(alg: IdTokenSigningAlg): JWK & { kid: string } {
  const { privateKey } = alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  // A random kid is unique and opaque (an RFC 7638 thumbprint would add nothing). Hex, not
  // base64url: a kid beginning with '-' would read as an option to `gatehouse keys retire <kid>`.
  const kid = randomBytes(16).toString('hex');
  return { ...jwk, kid, alg, use: 'sig' };
}

/**
 * The published private JWKs, the signing ones first, and the version of the
 * rotation state they were read at (read before them: a change in between
 * shows as a newer version, never a missed one). Creates a current key for an
 * algorithm that has none, for a process that did not run the rotation's check
 * first (the start-up does, and audits it).
 */
export async function loadSigningKeys(db: Database): Promise<{ jwks: JWK[]; version: string }> {
  const version = signingKeysVersion(await listSigningKeyInfo(db));
  const keys = await listActiveSigningKeys(db);
  const missing = ID_TOKEN_SIGNING_ALGS.filter((alg) => !keys.some((k) => k.alg === alg && k.state === 'current'));
  if (missing.length === 0) return { jwks: keys.map((k) => k.privateJwk as JWK), version };
  for (const alg of missing) {
    const jwk = generateSigningJwk(alg);
    const now = new Date();
    // Unless another process made one meanwhile: one current key per algorithm.
    await insertSigningKeyIfNone(db, {
      kid: jwk.kid,
      alg,
      privateJwk: jwk as unknown as Record<string, unknown>,
      state: 'current',
      createdAt: now,
      activatesAt: now,
    });
  }
  return loadSigningKeys(db);
}

/** Keys for the provider's signed cookies: the environment's, or generated once and shared through the database. */
export async function loadCookieKeys(db: Database, configured: string[] | undefined): Promise<string[]> {
  if (configured?.length) return configured;
  const value = await serverSecret(db, 'cookie_keys', () => randomBytes(32).toString('base64url'));
  return value.split(',');
}
