/**
 * How large a request body Gatehouse accepts, per kind of request, and the
 * rewrites that refuse larger ones before anything reads them.
 *
 * Our own readers (lib/oidc/form-body.ts for the interaction forms and the
 * requests Gatehouse answers itself, lib/oidc/extensions/body-limit.ts in front of the
 * provider) check Content-Length first and count a chunked body as it streams.
 * Next.js's readers (server actions, next-auth's handler) and the admin API's run
 * before any code of ours could look: they are guarded here, by Next's router,
 * from the request headers alone. A body whose Content-Length is too large is
 * refused with 413 (RFC 9110 §15.5.14); one without Content-Length (chunked) with
 * 411 (§15.5.12), since its size is known only once it has been read. No browser
 * sends a chunked form post.
 *
 * No imports: next.config.js loads this file before anything is built.
 */

export const BODY_LIMITS = {
  /** oidc-provider's own limit for the bodies it parses (pinned version; e2e/protocol/request-limits.test.ts checks both sides of it). */
  provider: 56 * 1024,
  /** The sign-in form: a username of 64 and a password of 256 characters, each up to 12 bytes percent-encoded. */
  interactionForm: 4 * 1024,
  /**
   * The sign-in page's passkey form: one WebAuthn assertion as JSON (a credential
   * ID of up to 1023 bytes, authenticator data, client data, a signature, a user
   * handle), base64url and percent-encoded: under 8 KB, with room to spare.
   */
  passkeyForm: 16 * 1024,
  /**
   * Server actions of /admin and /account (next.config.js sets serverActions.bodySizeLimit
   * to this): the largest form is a client's, two lists of redirect URIs of up to
   * 10,000 characters each plus multipart framing.
   */
  portalForm: 64 * 1024,
  /** next-auth's sign-in and sign-out posts: a CSRF token and a callback URL. */
  nextAuth: 8 * 1024,
  /** The admin API's JSON bodies: its reader (lib/surfaces/admin-api/http.ts) stops at the same size. */
  adminApi: 64 * 1024,
} as const;

/**
 * An import file sent to the admin API (POST /api/admin/users/import, lib/surfaces/admin-api/import.ts):
 * its reader streams it and stops at the same size. Apart from BODY_LIMITS, so proxy.ts never copies a
 * body this large: a larger Content-Length than LARGEST_BODY passes by it (unproxiedRequests).
 */
export const ADMIN_IMPORT_LIMIT = 16 * 1024 * 1024;

/** The largest body any route accepts (proxy.ts runs only for requests that declare at most this). */
export const LARGEST_BODY = Math.max(...Object.values(BODY_LIMITS));

/**
 * A regular expression (anchored by Next) matching the decimal integers larger
 * than `limit`, leading zeros allowed (RFC 9110 §8.6: Content-Length = 1*DIGIT).
 */
export function largerThan(limit: number): string {
  const digits = String(limit);
  const alternatives = [`[1-9]\\d{${digits.length},}`];
  for (let i = 0; i < digits.length; i++) {
    const digit = Number(digits[i]);
    if (digit === 9) continue;
    const higher = digit === 8 ? '9' : `[${digit + 1}-9]`;
    const rest = digits.length - i - 1;
    alternatives.push(`${digits.slice(0, i)}${higher}${rest > 1 ? `\\d{${rest}}` : rest === 1 ? '\\d' : ''}`);
  }
  return `0*(?:${alternatives.join('|')})`;
}

/** The decimal integers from 0 to `limit`. */
export function atMost(limit: number): string {
  return `(?!${largerThan(limit)}$)\\d+`;
}

/** Where refused requests are rewritten to: app/http-error/[...reason]/route.ts. */
export const REFUSED_ROUTE = '/http-error';

interface Guard {
  source: string;
  limit: number;
}

/**
 * Next's pages, where a POST is a server action: everything but the provider
 * and the interaction forms' targets (our readers guard them), the APIs (their
 * own entries) and the refusals themselves (Next applies every rewrite that
 * matches, one after another).
 */
const PAGES = '/:path((?!oauth/|\\.well-known/|api/|interaction/[^/]+/(?:login|confirm|abort)$|http-error/).*)';

const guards: Guard[] = [
  { source: '/api/auth/:path*', limit: BODY_LIMITS.nextAuth },
  { source: '/api/admin/users/import', limit: ADMIN_IMPORT_LIMIT },
  { source: '/api/admin', limit: BODY_LIMITS.adminApi },
  { source: '/api/admin/:path((?!users/import$).*)', limit: BODY_LIMITS.adminApi },
  { source: PAGES, limit: BODY_LIMITS.portalForm },
];

interface Rewrite {
  source: string;
  has: { type: 'header'; key: string; value?: string }[];
  destination: string;
}

/** next.config.js's `rewrites().beforeFiles`: they run before any route reads a body. */
export function bodyLimitRewrites(): Rewrite[] {
  return guards.flatMap(({ source, limit }) => [
    { source, has: [{ type: 'header', key: 'content-length', value: largerThan(limit) }], destination: `${REFUSED_ROUTE}/413/${limit}` },
    { source, has: [{ type: 'header', key: 'transfer-encoding' }], destination: `${REFUSED_ROUTE}/411` },
  ]);
}

/**
 * The requests proxy.ts does not run for, as next.config.js's `has`/`missing` conditions: the
 * complement of its matcher (a chunked body; a Content-Length over LARGEST_BODY). Not the
 * provider's paths, whose answers carry their own headers.
 */
export function unproxiedRequests(): { source: string; has: { type: 'header'; key: string; value?: string }[]; missing?: { type: 'header'; key: string }[] }[] {
  const source = '/:path((?!oauth/|\\.well-known/).*)';
  return [
    { source, has: [{ type: 'header', key: 'transfer-encoding' }], missing: [{ type: 'header', key: 'content-length' }] },
    { source, has: [{ type: 'header', key: 'content-length', value: largerThan(LARGEST_BODY) }] },
  ];
}
