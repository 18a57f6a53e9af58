/**
 * Facts about a request path that every mount decides the same way. No
 * imports: proxy.ts and next.config.js load this file too.
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
 * it): the language of an interaction page comes from that interaction (lib/surfaces/locale.ts).
 * Set on every request the proxy sees, replacing whatever the client sent.
 */
export const PATHNAME_HEADER = 'x-gatehouse-pathname';

/**
 * The first path segments something answers: the app's routes (app/*, checked against the folder
 * by lib/http/paths.test.ts), the files of public/ and Next's own. Any other path can only be
 * answered by the 404 page, which then speaks the person's language (lib/surfaces/locale.ts).
 */
const ROUTED_SEGMENTS = new Set([
  '.well-known',
  'account',
  'admin',
  'api',
  'brand',
  'connections',
  'federation',
  'healthz',
  'http-error',
  'interaction',
  'invitation',
  'language',
  'metrics',
  'oauth',
  'password-reset',
  'readyz',
  'scim',
  'sign-in',
  'unlock',
  'verify-email',
  '_next',
  'favicon.svg',
  'logo.svg',
]);
export const ROUTED_SEGMENT_NAMES: ReadonlySet<string> = ROUTED_SEGMENTS;

/** Whether no route of the app can answer `pathname` (the landing page `/` is one). */
export function isUnroutedPath(pathname: string): boolean {
  const first = pathname.split('/')[1] ?? '';
  return first !== '' && !ROUTED_SEGMENTS.has(first);
}
