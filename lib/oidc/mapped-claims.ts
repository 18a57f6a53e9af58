/**
 * A client's claim mapping (lib/claims) in its ID tokens and userinfo answers. oidc-provider releases only the claims its configuration names, fixed when it is built; the
 * mapped names are the admins', changed at any time. So the account's claims carry the client's mapped ones aside
 * (under MAPPED, where the provider's filter does not look), and they are added after that filter, in the one class
 * both the ID token and userinfo go through (Claims). Data only: a mapping names an attribute, no code runs.
 *
 * Discovery's claims_supported does not list the mapped names: no app asks for them (a mapping gives them to one
 * client, whatever it asks), and the discovery document is fixed for a provider's life (the npm start mount replays
 * it byte for byte: lib/oidc/mounts/node-documents.ts), while mappings change at any time.
 */
import type Provider from 'oidc-provider';
import type { AttributeValue } from '../claims/repository.ts';

/** Where an account's claims carry the client's mapped claims (lib/oidc/configuration.ts findAccount). */
export const MAPPED = Symbol('gatehouse.mappedClaims');

type ClaimsMask = { available: Record<PropertyKey, unknown>; rejectedClaims?: string[] };

export function useMappedClaims(provider: Provider): void {
  const prototype = provider.Claims.prototype as unknown as { result(this: ClaimsMask): Promise<Record<string, unknown>> };
  const result = prototype.result;
  prototype.result = async function mappedResult(this: ClaimsMask) {
    const claims = await result.call(this);
    const mapped = this.available[MAPPED] as Record<string, AttributeValue> | undefined;
    // Only beside a subject: an ID token or userinfo about a person, never a logout token.
    return mapped && claims.sub !== undefined ? { ...mapped, ...claims } : claims;
  };
}
