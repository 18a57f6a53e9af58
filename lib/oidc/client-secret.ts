/**
 * Client secrets are 256-bit random values, stored only as their SHA-256: a
 * database dump alone does not reveal them, and a fast hash is enough for
 * secrets with that much entropy (a slow password hash on every token request
 * would cap the token endpoint). The provider's own comparison is replaced by
 * one that hashes the presented secret and compares in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type Provider from 'oidc-provider';

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

/** Makes the provider's client authentication compare against the stored hash. */
export function useHashedClientSecrets(provider: Provider): void {
  const prototype = provider.Client.prototype as unknown as {
    clientSecret?: string;
    compareClientSecret(actual: string): Promise<boolean> | boolean;
  };
  prototype.compareClientSecret = function compareClientSecret(this: { clientSecret?: string }, actual: string) {
    return clientSecretMatches(this.clientSecret, actual);
  };
}
