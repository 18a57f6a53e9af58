/**
 * Resource indicators (RFC 8707) over the APIs admins register (lib/authorization): a `resource`
 * on authorize and token names an API by its identifier; its access token carries that audience,
 * only the permissions the person's roles (or, for client_credentials, the client's grants) give,
 * the API's lifetime, and, for APIs that choose it, the JWT format of RFC 9068 signed with the
 * provider's current key of the API's algorithm (verifiable from the JWKS alone).
 * With no API registered nothing here changes a token: a request without `resource` resolves
 * none, and one with it gets `invalid_target`, as before.
 */
import { errors, type KoaContextWithOIDC } from 'oidc-provider';
import type { Database } from '../db/database.ts';
import { accessOf, apiForToken, permissionsGranted } from '../authorization/repository.ts';

type Ctx = KoaContextWithOIDC;

/** Whose permissions a token for an API carries: a machine client's own, or the person's of the code, refresh token or session. */
function holderOf(ctx: Ctx, clientId: string | undefined): { userId: string } | { clientId: string } | undefined {
  if (ctx.oidc.route === 'token' && ctx.oidc.params?.grant_type === 'client_credentials' && clientId) return { clientId };
  const { Account, AuthorizationCode, RefreshToken } = ctx.oidc.entities;
  const userId = Account?.accountId ?? AuthorizationCode?.accountId ?? RefreshToken?.accountId ?? ctx.oidc.session?.accountId;
  return typeof userId === 'string' ? { userId } : undefined;
}

export function resourceIndicators(db: Database) {
  return {
    enabled: true,
    // RFC 8707 §2.2: a code redemption or refresh that names no resource gets the one its grant was
    // for, so a refresh keeps the audience; a grant for several must name one (invalid_target).
    useGrantedResource: async () => true,
    async getResourceServerInfo(ctx: Ctx, indicator: string, client: { clientId: string } | undefined) {
      const api = await apiForToken(db, indicator);
      // RFC 8707 §2: an unknown resource is invalid_target.
      if (!api) throw new errors.InvalidTarget('the resource is not an API registered here');
      const holder = holderOf(ctx, client?.clientId);
      // Before sign-in the person is unknown: the permissions are resolved again once they are
      // (the authorization request resumes), and nothing is granted before the consent step.
      const permissions = holder ? await permissionsGranted(db, api.id, holder) : api.permissions.map((p) => p.name);
      if (holder && 'clientId' in holder && permissions.length === 0) {
        throw new errors.InvalidTarget('this client is granted no permission of the resource');
      }
      return {
        audience: api.identifier,
        scope: permissions.join(' '),
        accessTokenTTL: api.tokenLifetime,
        accessTokenFormat: api.tokenFormat,
        ...(api.tokenFormat === 'jwt' ? { jwt: { sign: { alg: api.signingAlg } } } : {}),
      };
    },
  };
}

/**
 * What an API's access token carries beyond the provider's own claims (RFC 9068 §2.2): when and
 * how the person signed in (auth_time, acr, amr, from the code or refresh token it came from),
 * and their roles and groups when the API asks for them. Introspection answers the same (RFC 7662
 * §2.2 copies the token's extras).
 */
export async function apiTokenClaims(
  db: Database,
  ctx: Ctx,
  token: { resourceServer?: { identifier(): string }; accountId?: string },
): Promise<Record<string, unknown> | undefined> {
  const identifier = token.resourceServer?.identifier();
  if (!identifier) return undefined;
  // The API as getResourceServerInfo read it (the provider keeps only the fields it knows of): from the read cache.
  const api = await apiForToken(db, identifier);
  if (!api) return undefined;
  const claims: Record<string, unknown> = {};
  const source = ctx.oidc.entities.AuthorizationCode ?? ctx.oidc.entities.RefreshToken;
  if (source && token.accountId) {
    if (source.authTime) claims.auth_time = source.authTime;
    if (source.acr) claims.acr = source.acr;
    if (source.amr?.length) claims.amr = source.amr;
  }
  if (api.rolesInToken && token.accountId) Object.assign(claims, await accessOf(db, token.accountId));
  return claims;
}
