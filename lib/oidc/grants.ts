/**
 * Which grant an authorization request finds already in place. A first-party
 * client (the portal, the organisation's own apps) is trusted to get what it
 * asks for, within its registered scopes, so the person is never shown a
 * consent screen for it; every other client needs the person's consent.
 */
import type { KoaContextWithOIDC } from 'oidc-provider';

export async function loadExistingGrant(ctx: KoaContextWithOIDC) {
  const { client, session, provider } = ctx.oidc;
  if (!client || !session) return undefined;
  const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  const existing = grantId ? await provider.Grant.find(grantId) : undefined;
  if (client.metadata().first_party !== true || !session.accountId) return existing;

  const grant = existing ?? new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
  // checkScope has already refused scopes outside the client's registered ones.
  grant.addOIDCScope([...ctx.oidc.requestParamOIDCScopes].join(' '));
  const id = await grant.save();
  session.grantIdFor(client.clientId, id);
  return grant;
}
