/**
 * Facts about a request path that every mount decides the same way. No
 * imports: proxy.ts and next.config.ts load this file too.
 */

/** The paths oidc-provider owns (app/oauth and app/.well-known under Next, lib/oidc/mounts/node.ts under `npm start`). */
export function isProviderPath(pathname: string): boolean {
  return pathname.startsWith('/oauth/') || pathname.startsWith('/.well-known/');
}

/**
 * Whether every percent-encoding in the path decodes to UTF-8 (RFC 3986 §2.1,
 * §2.5). Next.js fails on the others while matching a dynamic segment and
 * answers 500; they are the client's mistake, a 400.
 */
export function isWellFormedPath(pathname: string): boolean {
  if (!pathname.includes('%')) return true;
  try {
    decodeURIComponent(pathname);
    return true;
  } catch {
    return false;
  }
}

/** The answer to a path that does not decode, in the shape of every JSON error (RFC 6749 §5.2). */
export const MALFORMED_PATH_ERROR = {
  error: 'invalid_request',
  error_description: 'the request path is not valid percent-encoded UTF-8',
} as const;

/**
 * The request header in which proxy.ts hands a page its own path (a server component is not told
 * it): the language of an interaction page comes from that interaction (lib/i18n/server.ts).
 * Set on every request the proxy sees, replacing whatever the client sent.
 */
export const PATHNAME_HEADER = 'x-gatehouse-pathname';
