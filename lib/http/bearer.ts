/**
 * The one reader of `Authorization: Bearer` headers (RFC 6750 §2.1): Bearer
 * introspection (lib/oidc/extensions/bearer-introspection.ts) and the admin API
 * (lib/surfaces/admin-api/auth.ts) accept exactly the same syntax.
 */

/** The token of an `Authorization: Bearer` header, or undefined when the header is absent or says something else. */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  const match = authorization ? /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization) : null;
  return match?.[1];
}
