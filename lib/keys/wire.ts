/**
 * A signing key in its wire names, the one serializer: what `gatehouse key --json` prints (cli/commands/) and what the
 * admin API answers (lib/surfaces/admin-api/dto/, which adds what only it knows and checks the result against its
 * schemas). Never a secret or key material: the record this takes carries none. Imports nothing but types, so the CLI can load
 * it without the provider.
 */
import type { IdTokenSigningAlg } from '../oidc/algorithms.ts';
import type { SigningKeyInfo } from './repository.ts';

/** A signing key's place in the rotation (lib/keys/signing-keys.ts): never key material, which the record does not carry. */
export function signingKeyToWire(key: SigningKeyInfo) {
  const at = (ms: number) => (ms ? new Date(ms).toISOString() : null);
  return {
    kid: key.kid,
    alg: key.alg as IdTokenSigningAlg,
    state: key.state,
    created_at: new Date(key.createdAt).toISOString(),
    activates_at: at(key.activatesAt),
    retire_after: key.state === 'previous' ? at(key.retireAfter) : null,
  };
}
