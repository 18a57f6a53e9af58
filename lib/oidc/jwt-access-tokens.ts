/**
 * Introspection and revocation of an API's JWT access tokens (RFC 9068). oidc-provider stores such a
 * token under its `jti` and looks tokens up by the value presented, which for a JWT is the whole JWT:
 * it would answer every JWT `{"active": false}` (RFC 7662 §2.2), so a revoked grant could not be seen,
 * nor a JWT revoked (RFC 7009). Here a presented JWT is first verified against the provider's own keys
 * (issuer, `typ`, signature, expiry), and only then its stored record found by `jti`, through the
 * provider's own lookup (expiry, the grant's and session's bindings).
 */
import { createLocalJWKSet, jwtVerify } from 'jose';
import type Provider from 'oidc-provider';
import type { JWK } from 'oidc-provider';

/** Three base64url parts: a JWS compact serialization. */
const JWS_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

/** A private JWK's public members only. */
function publicPart(jwk: JWK): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, k: _k, ...rest } = jwk as JWK & Record<string, unknown>;
  return rest as JWK;
}

interface TokenModel {
  find(value: unknown, options?: { ignoreExpiration?: boolean }): Promise<unknown>;
}

/** The `jti` of a JWT access token this provider signed (issuer, typ, signature, expiry checked); undefined for anything else. */
export type JwtAccessTokenId = (value: string) => Promise<string | undefined>;

export function jwtAccessTokenIds(jwks: readonly JWK[], issuer: string): JwtAccessTokenId {
  const keys = createLocalJWKSet({ keys: jwks.map(publicPart) as never });
  return async (value) => {
    if (!JWS_SHAPE.test(value)) return undefined;
    try {
      const { payload } = await jwtVerify(value, keys, { issuer, typ: 'at+jwt' });
      return typeof payload.jti === 'string' ? payload.jti : undefined;
    } catch {
      return undefined;
    }
  };
}

/** Token lookups by value (Gatehouse's Bearer introspection and admin API checks) find a JWT access token by its verified jti. */
export function useJwtAccessTokens(provider: Provider, jtiOf: JwtAccessTokenId): void {
  for (const Model of [provider.AccessToken, provider.ClientCredentials] as unknown as TokenModel[]) {
    const find = Model.find.bind(Model);
    Model.find = async (value, options) => {
      if (typeof value !== 'string' || !JWS_SHAPE.test(value)) return find(value, options);
      const jti = await jtiOf(value);
      return jti ? find(jti, options) : undefined;
    };
  }
}
