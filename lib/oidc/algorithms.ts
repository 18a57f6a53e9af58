/**
 * JWS algorithms a client may have its ID tokens signed with, in a module of
 * their own (like scopes.ts) so the CLI, services and forms can name them
 * without loading oidc-provider. Asymmetric only: client secrets are stored
 * hashed, so they cannot key an HMAC. The provider holds a key for each.
 */

/**
 * `id_token_signed_response_alg` values (OIDC Dynamic Client Registration §2).
 * RS256 is that section's default and what many relying parties accept without
 * configuration (openid-client 5 / next-auth 4); ES256 signs much faster (bench/results).
 */
export const ID_TOKEN_SIGNING_ALGS = ['ES256', 'RS256'] as const;

export type IdTokenSigningAlg = (typeof ID_TOKEN_SIGNING_ALGS)[number];

/** What a newly registered client gets unless it asks for RS256. */
export const DEFAULT_ID_TOKEN_SIGNING_ALG: IdTokenSigningAlg = 'ES256';

/** What a client registered before the choice existed has (the column's default). */
export const LEGACY_ID_TOKEN_SIGNING_ALG: IdTokenSigningAlg = 'RS256';
