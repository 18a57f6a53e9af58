/**
 * Which grant an authorization request finds already in place. A first-party
 * client (the portal, the organisation's own apps) is trusted to get what it
 * asks for, within its registered scopes, so the person is never shown a
 * consent screen for it; every other client gets what the person consented to
 * before (lib/consents/repository.ts), in any session and any browser: the
 * consent prompt then asks only for what the request adds, or again with
 * prompt=consent (the provider's requestable check). A native client is asked
 * every time whatever was consented (oidc-provider's `native_client_prompt`:
 * another app can claim its redirect URI, RFC 8252 §8.6).
 */
import type { KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../db/database.ts';
import { findConsent } from '../consents/repository.ts';

type Grant = InstanceType<KoaContextWithOIDC['oidc']['provider']['Grant']>;

export function existingGrantLoader(db: Database) {
  return async function loadExistingGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
    const { client, session, provider } = ctx.oidc;
    if (!client || !session) return undefined;
    const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
    const existing = grantId ? await provider.Grant.find(grantId) : undefined;
    const accountId = session.accountId;
    if (!accountId) return existing;

    if (client.metadata().first_party === true) {
      const grant = existing ?? new provider.Grant({ clientId: client.clientId, accountId });
      // checkScope has already refused scopes outside the client's registered ones.
      grant.addOIDCScope([...ctx.oidc.requestParamOIDCScopes].join(' '));
      // An API's permissions too, as far as the person's roles grant them (./resource-indicators.ts resolved them so).
      for (const [indicator, resourceServer] of Object.entries(ctx.oidc.resourceServers ?? {})) {
        const permissions = [...ctx.oidc.requestParamScopes].filter((scope) => resourceServer.scopes.has(scope));
        if (permissions.length) grant.addResourceScope(indicator, permissions.join(' '));
      }
      session.grantIdFor(client.clientId, await grant.save());
      return grant;
    }

    const consent = await findConsent(db, accountId, client.clientId);
    if (!consent) return existing;
    const grant = existing ?? new provider.Grant({ clientId: client.clientId, accountId });
    // Only what the client may still ask for: a scope an admin took away since stays away.
    const registered = client.scope === undefined ? undefined : new Set(client.scope.split(' '));
    const scopes = consent.scopes.filter((scope) => !registered || registered.has(scope));
    const scopesBefore = grant.getOIDCScopeEncountered();
    const claimsBefore = grant.getOIDCClaimsEncountered().length;
    if (scopes.length) grant.addOIDCScope(scopes.join(' '));
    if (consent.claims.length) grant.addOIDCClaims(consent.claims);
    // An API's permissions consented to before, as far as the person's roles still grant them (./resource-indicators.ts).
    let resourcesChanged = false;
    for (const [indicator, resourceServer] of Object.entries(ctx.oidc.resourceServers ?? {})) {
      const permissions = (consent.resources[indicator] ?? []).filter((scope) => resourceServer.scopes.has(scope));
      const before = grant.getResourceScopeEncountered(indicator);
      if (permissions.length) grant.addResourceScope(indicator, permissions.join(' '));
      resourcesChanged ||= grant.getResourceScopeEncountered(indicator) !== before;
    }
    if (!existing || resourcesChanged || grant.getOIDCScopeEncountered() !== scopesBefore || grant.getOIDCClaimsEncountered().length !== claimsBefore) {
      session.grantIdFor(client.clientId, await grant.save());
    }
    return grant;
  };
}
