/**
 * A client's claim mapping (lib/claims) in its ID tokens and userinfo answers. oidc-provider releases only the claims its configuration names, fixed when it is built; the
 * mapped names are the admins', changed at any time. So the account's claims carry the client's mapped ones aside
 * (under MAPPED, where the provider's filter does not look), and they are added after that filter, in the one class
 * both the ID token and userinfo go through (Claims). Data only: a mapping names an attribute, no code runs.
 *
 * Discovery's claims_supported lists the mapped names too (OpenID Connect Discovery 1.0 §3: the claims an app can
 * be given). The provider fixes claims_supported when it is built, while admins map claims at any time, from any
 * instance or the CLI; so they are added to the provider's answer here, read from the database each time the
 * provider answers discovery. The npm start mount keeps a replayed discovery document only briefly for the same
 * reason (lib/oidc/mounts/node-documents.ts), so that read happens a few times a minute, not per request.
 */
import type Provider from 'oidc-provider';
import type { Database } from '../db/database.ts';
import { type AttributeValue, mappedClaimNames } from '../claims/repository.ts';

/** Where an account's claims carry the client's mapped claims (lib/oidc/configuration.ts findAccount). */
export const MAPPED = Symbol('gatehouse.mappedClaims');

type ClaimsMask = { available: Record<PropertyKey, unknown>; rejectedClaims?: string[] };

export function useMappedClaims(provider: Provider, db: Database): void {
  provider.use(async (ctx, next) => {
    await next();
    // ctx.oidc exists only on the provider's own routes; both discovery documents (OpenID and RFC 8414) are this route.
    if ((ctx.oidc as { route?: string } | undefined)?.route !== 'discovery' || ctx.status !== 200) return;
    const body = ctx.body as { claims_supported?: unknown } | undefined;
    if (!body || !Array.isArray(body.claims_supported)) return;
    body.claims_supported = [...new Set([...body.claims_supported, ...(await mappedClaimNames(db))])];
  });
  const prototype = provider.Claims.prototype as unknown as { result(this: ClaimsMask): Promise<Record<string, unknown>> };
  const result = prototype.result;
  prototype.result = async function mappedResult(this: ClaimsMask) {
    const claims = await result.call(this);
    const mapped = this.available[MAPPED] as Record<string, AttributeValue> | undefined;
    // Only beside a subject: an ID token or userinfo about a person, never a logout token.
    return mapped && claims.sub !== undefined ? { ...mapped, ...claims } : claims;
  };
}
