/**
 * Client secrets are 256-bit random values, stored only as their SHA-256: a
 * database dump alone does not reveal them, and a fast hash is enough for
 * secrets with that much entropy (a slow password hash on every token request
 * would cap the token endpoint). The provider's own comparison is replaced by
 * one that hashes the presented secret and compares in constant time.
 *
 * The comparison comes first and a right secret is always accepted: a guess
 * at 256 random bits cannot succeed, so counting failures per client_id (as
 * until issue 21) protected nothing and let anyone who knows a client_id,
 * such as the portal's fixed `gatehouse-portal`, switch that client off. A
 * wrong secret is counted against the address it came from (and a high
 * global cap); past the throttle's limits it is answered 429 with
 * Retry-After instead of 401, so a guesser only slows themself.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import Provider, { errors } from 'oidc-provider';
import { clientIp } from '../platform/request-context.ts';
import type { Refusal, Throttle } from '../platform/throttle.ts';

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
    `too many failed client authentications from this address; try again in ${refusal.retryAfterSeconds} seconds`,
  );
  Object.assign(error, { status: 429, statusCode: 429 });
  return error;
}

/** Makes the provider's client authentication compare against the stored hash; wrong secrets are throttled per source. */
export function useHashedClientSecrets(provider: Provider, throttle: Throttle): void {
  const prototype = provider.Client.prototype as unknown as {
    clientId: string;
    clientSecret?: string;
    compareClientSecret(actual: string): Promise<boolean>;
  };
  prototype.compareClientSecret = async function compareClientSecret(this: { clientId: string; clientSecret?: string }, actual: string) {
    // The happy path reads and writes nothing beyond the comparison.
    if (clientSecretMatches(this.clientSecret, actual)) return true;
    const ctx = Provider.ctx;
    const ip = ctx ? clientIp({ get: (name: string) => ctx.get(name) || null }) : null;
    const check = await throttle.clientAuthenticationFailed({ clientId: this.clientId, ip });
    if (!check.allowed) throw tooManyRequests(check);
    return false;
  };
}
