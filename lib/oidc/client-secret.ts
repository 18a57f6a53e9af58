/**
 * Client secrets are 256-bit random values, stored only as their SHA-256: a
 * database dump alone does not reveal them, and a fast hash is enough for
 * secrets with that much entropy (a slow password hash on every token request
 * would cap the token endpoint). The provider's own comparison is replaced by
 * one that hashes the presented secret and compares in constant time, and
 * counts failures per client_id: past the throttle's limits the token,
 * introspection and revocation endpoints answer 429 with Retry-After before
 * comparing anything.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';
import { noReadCache, type ReadCache } from '../db/read-cache.ts';
import type { Refusal, Throttle } from '../services/throttle.ts';

export function generateClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function clientSecretMatches(storedHash: string | undefined, presented: unknown): boolean {
  if (typeof storedHash !== 'string' || typeof presented !== 'string') return false;
  const expected = Buffer.from(storedHash, 'hex');
  const actual = Buffer.from(hashClientSecret(presented), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** 429 in the provider's error shape: `too_many_requests`, with Retry-After on the answer. */
function tooManyRequests(refusal: Refusal): Error {
  Provider.ctx?.set('Retry-After', String(refusal.retryAfterSeconds));
  const error = new errors.CustomOIDCProviderError(
    'too_many_requests',
    `too many failed client authentications; try again in ${refusal.retryAfterSeconds} seconds`,
  );
  Object.assign(error, { status: 429, statusCode: 429 });
  return error;
}

/**
 * Makes the provider's client authentication compare against the stored hash, throttled per client_id.
 * Whether a client is made to wait is read on every token, introspection and revocation request; on
 * PostgreSQL the answer "no wait" is kept in the read cache (lib/db/read-cache.ts) until a failure on
 * any instance says otherwise: each failure is still counted where it happens, and every instance
 * forgets the answer as soon as PostgreSQL delivers the failing instance's notification.
 */
export function useHashedClientSecrets(provider: Provider, throttle: Throttle, cache: ReadCache = noReadCache): void {
  const prototype = provider.Client.prototype as unknown as {
    clientId: string;
    clientSecret?: string;
    compareClientSecret(actual: string): Promise<boolean>;
  };
  prototype.compareClientSecret = async function compareClientSecret(this: { clientId: string; clientSecret?: string }, actual: string) {
    const key = `ClientWait:${this.clientId}`;
    // A refusal is never kept: its Retry-After counts down.
    const check = (await cache.read(
      key,
      () => throttle.beforeClientAuthentication(this.clientId),
      (c) => (c.allowed ? null : 0),
    ))!;
    if (!check.allowed) throw tooManyRequests(check);
    const matches = clientSecretMatches(this.clientSecret, actual);
    if (!matches) {
      await throttle.clientAuthenticationFailed(this.clientId);
      await cache.publish(key);
    }
    return matches;
  };
}
