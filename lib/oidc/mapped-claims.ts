/**
 * A client's claim mapping (lib/claims) in its ID tokens and userinfo answers, and the mapped names in discovery's
 * claims_supported. oidc-provider releases only the claims its configuration names, fixed when it is built; the
 * mapped names are the admins', changed at any time. So the account's claims carry the client's mapped ones aside
 * (under MAPPED, where the provider's filter does not look), and they are added after that filter, in the one class
 * both the ID token and userinfo go through (Claims). Data only: a mapping names an attribute, no code runs.
 */
import type Provider from 'oidc-provider';
import type { AttributeValue } from '../claims/repository.ts';

/** Where an account's claims carry the client's mapped claims (lib/oidc/configuration.ts findAccount). */
export const MAPPED = Symbol('gatehouse.mappedClaims');

type ClaimsMask = { available: Record<PropertyKey, unknown>; rejectedClaims?: string[] };

export function useMappedClaims(provider: Provider, mappedNames: () => Promise<string[]>): void {
  const prototype = provider.Claims.prototype as unknown as { result(this: ClaimsMask): Promise<Record<string, unknown>> };
  const result = prototype.result;
  prototype.result = async function mappedResult(this: ClaimsMask) {
    const claims = await result.call(this);
    const mapped = this.available[MAPPED] as Record<string, AttributeValue> | undefined;
    // Only beside a subject: an ID token or userinfo about a person, never a logout token.
    return mapped && claims.sub !== undefined ? { ...mapped, ...claims } : claims;
  };
  // OpenID Connect Discovery 1.0 §3: claims_supported lists the claims an app can be given.
  provider.use(async (ctx, next) => {
    await next();
    if (ctx.oidc?.route !== 'discovery' || ctx.status !== 200) return;
    const body = ctx.body as { claims_supported?: string[] } | undefined;
    if (!body?.claims_supported) return;
    body.claims_supported = [...new Set([...body.claims_supported, ...(await mappedNames())])];
  });
}
