/**
 * Introspection and revocation of an API's JWT access tokens (RFC 9068). oidc-provider keeps no record of
 * a JWT access token and looks tokens up by the value presented: every JWT would be `{"active": false}`
 * (RFC 7662 §2.2), a revoked grant invisible, and a JWT impossible to revoke (RFC 7009). Here each JWT is
 * also recorded (below), and a presented JWT is verified against the provider's own keys (issuer, `typ`,
 * signature, expiry) before its record is looked up by `jti`.
 */
import { createLocalJWKSet, jwtVerify } from 'jose';
import type Provider from 'oidc-provider';
import type { JWK } from 'oidc-provider';

/** Three base64url parts: a JWS compact serialization. */
const JWS_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;
/** The same parts joined by `~`, which no opaque token contains (they are base64url). */
const HANDED_ON_SHAPE = /^[\w-]+~[\w-]+~[\w-]+$/;

/** A private JWK's public members only. */
function publicPart(jwk: JWK): JWK {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, oth: _oth, k: _k, ...rest } = jwk as JWK & Record<string, unknown>;
  return rest as JWK;
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

interface StoredToken {
  jti: string;
  format?: string;
  remainingTTL: number;
  adapter: { upsert(id: string, payload: Record<string, unknown>, ttl: number): Promise<void> };
  getValueAndPayload(): Promise<{ value: string; payload?: Record<string, unknown> }>;
}

interface TokenModel {
  prototype: StoredToken & { save(): Promise<string> };
  find(value: unknown, options?: { ignoreExpiration?: boolean }): Promise<unknown>;
  verify(stored: Record<string, unknown>, options?: { ignoreExpiration?: boolean }): Promise<Record<string, unknown>>;
  instantiate(payload: Record<string, unknown>): unknown;
  adapter: { find(id: string): Promise<Record<string, unknown> | undefined> };
}

/**
 * oidc-provider keeps no record of a JWT access token (it is self-contained), so nothing could say it
 * was revoked. Here each is also stored as the provider stores an opaque token, under its `jti`, marked
 * `jwt`: the provider's own lookup refuses such a record (its opaque format check), so the bare `jti`,
 * which anyone who saw the JWT knows, never stands for the token; only the verified JWT finds it.
 * Revoking the grant, the client or the person deletes it with the rest.
 */
export function useJwtAccessTokens(provider: Provider, jtiOf: JwtAccessTokenId): void {
  for (const Model of [provider.AccessToken, provider.ClientCredentials] as unknown as TokenModel[]) {
    const save = Model.prototype.save;
    Model.prototype.save = async function (this: StoredToken) {
      const value = await save.call(this);
      if (this.format !== 'jwt') return value;
      // The opaque format's payload (the same claims, `extra` included), recorded beside the JWT.
      this.format = 'opaque';
      try {
        const { payload } = await this.getValueAndPayload();
        if (payload) await this.adapter.upsert(this.jti, { ...payload, jwt: true }, this.remainingTTL);
      } finally {
        this.format = 'jwt';
      }
      return value;
    };
    const find = Model.find.bind(Model);
    Model.find = async (value, options) => {
      // `~`: a JWT as ./extensions/structured-tokens.ts hands it past the provider's refusal of JWTs.
      const jwt = typeof value === 'string' && HANDED_ON_SHAPE.test(value) ? value.replaceAll('~', '.') : value;
      if (typeof jwt !== 'string' || !JWS_SHAPE.test(jwt)) return find(value, options);
      const jti = await jtiOf(jwt);
      const stored = jti ? await Model.adapter.find(jti) : undefined;
      if (!stored || stored.jwt !== true) return undefined;
      const { jwt: _marker, ...record } = stored;
      try {
        // The provider's checks of a stored token (expiry, consumption).
        return Model.instantiate(await Model.verify(record, options));
      } catch {
        return undefined;
      }
    };
  }
}
