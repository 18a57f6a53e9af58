/**
 * How long what the provider signs stays valid, in a module of its own (like
 * algorithms.ts) so the key rotation (lib/keys/signing-keys.ts) and the CLI
 * can use it without loading oidc-provider.
 */

/** ID token lifetime in seconds (ttl.IdToken, lib/oidc/configuration.ts). */
export const ID_TOKEN_TTL = 3600;

/** Relying parties accept a token a little past its `exp` when their clocks run behind (OIDC Core §3.1.3.7 allows "a few minutes"). */
const CLOCK_TOLERANCE = 300;

/**
 * The longest a signature of a signing key has to verify after the key stops
 * signing, in seconds: an ID token's lifetime and the clock tolerance. The
 * other JWTs it signs last no longer: an API's JWT access tokens (RFC 9068) live
 * at most as long (lib/authorization/manage.ts caps them), other access tokens are
 * opaque (their introspection answers are signed at the time they are asked for),
 * and back-channel logout tokens are not enabled.
 */
export const LONGEST_SIGNED_LIFETIME = ID_TOKEN_TTL + CLOCK_TOLERANCE;
