/**
 * Signing keys: generated with the CSPRNG on first start, stored in the
 * database, and loaded by every instance, so all of them publish one JWKS and
 * verify each other's tokens. RS256 is OIDC's default algorithm (Core §3.1.3.7)
 * and stays available; ES256 signs much faster (bench/results).
 */
import { generateKeyPairSync, randomBytes, createHash } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import type { Database } from '../db/database.ts';
import { insertSigningKey, listActiveSigningKeys, serverSecret } from '../db/secrets.ts';

const algorithms = ['RS256', 'ES256'] as const;

function generateJwk(alg: (typeof algorithms)[number]): JWK {
  const { privateKey } = alg === 'RS256' ? generateKeyPairSync('rsa', { modulusLength: 2048 }) : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' }) as JWK;
  // RFC 7638-style thumbprint input is overkill here: a random kid is unique and opaque.
  const kid = createHash('sha256').update(randomBytes(32)).digest('base64url').slice(0, 22);
  return { ...jwk, kid, alg, use: 'sig' };
}

/** Active private JWKs, creating the missing algorithms' keys on first start. */
export async function loadSigningKeys(db: Database): Promise<JWK[]> {
  let keys = await listActiveSigningKeys(db);
  const missing = algorithms.filter((alg) => !keys.some((k) => k.alg === alg));
  if (missing.length) {
    for (const alg of missing) {
      const jwk = generateJwk(alg);
      await insertSigningKey(db, { kid: jwk.kid as string, alg, privateJwk: jwk as Record<string, unknown> });
    }
    keys = await listActiveSigningKeys(db);
  }
  return keys.map((k) => k.privateJwk as JWK);
}

/** Keys for the provider's signed cookies: the environment's, or generated once and shared through the database. */
export async function loadCookieKeys(db: Database, configured: string[] | undefined): Promise<string[]> {
  if (configured?.length) return configured;
  const value = await serverSecret(db, 'cookie_keys', () => randomBytes(32).toString('base64url'));
  return value.split(',');
}
