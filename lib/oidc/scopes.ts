/**
 * Scope names shared by the provider configuration and the services, in a
 * module of their own so the CLI and services can name them without loading
 * oidc-provider.
 */

/**
 * Lets a confidential resource server's client_credentials token call the
 * introspection endpoint; never in a person's token (lib/oidc/client-policy.ts).
 */
export const INTROSPECT_SCOPE = 'introspect';

/**
 * Lets a client call the admin JSON API (/api/admin) as itself: only clients
 * flagged `admin_api`, only through client_credentials (never in a person's token).
 */
export const ADMIN_SCOPE = 'admin';

/** Every scope the provider knows; discovery's scopes_supported. */
/** `phone` releases phone_number and phone_number_verified (OIDC Core §5.4). */
export const SUPPORTED_SCOPES = ['openid', 'offline_access', 'profile', 'email', 'phone', INTROSPECT_SCOPE, ADMIN_SCOPE] as const;
