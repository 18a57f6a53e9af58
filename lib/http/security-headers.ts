/**
 * The security headers of every Gatehouse answer, defined once: next.config.js
 * gives the static ones to everything Next serves, proxy.ts adds the page
 * policy with a fresh nonce and HSTS, and lib/oidc/extensions/provider-headers.ts gives all of
 * them to the provider's answers, which `npm start` serves without Next.
 *
 * No imports: next.config.js loads this file before anything is built.
 */

/** Headers that never depend on the request or the configuration. */
export const STATIC_SECURITY_HEADERS: ReadonlyArray<readonly [string, string]> = [
  ['X-Content-Type-Options', 'nosniff'],
  // same-origin, not no-referrer: under no-referrer browsers send `Origin: null`
  // on our own form posts, which the interaction routes' Origin check refuses.
  // Other origins (the client's redirect_uri) still get no Referer.
  ['Referrer-Policy', 'same-origin'],
  // For browsers without CSP frame-ancestors.
  ['X-Frame-Options', 'DENY'],
];

/**
 * RFC 6797 §6.1: two years, subdomains included. Sent only when the issuer is
 * https: over plain http a browser ignores it (§8.1), and a development
 * instance on http://localhost must not pin localhost to https.
 */
export const HSTS = ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'] as const;

export function transportSecurity(issuer: string): ReadonlyArray<readonly [string, string]> {
  return issuer.startsWith('https:') ? [HSTS] : [];
}

export interface PolicySources {
  /** script-src: a nonce for Next's pages, a hash for the provider's one inline script. */
  script: string[];
  style: string[];
  /** img-src beyond 'self' and data: (the brand's logo origin, lib/config/brand.ts). */
  images?: string[];
}

/**
 * img-src of the sign-in and consent pages (/interaction/*) beyond the brand's: the logo each
 * relying party registered (logo_uri, which registration and the page accept only as https).
 * Any https origin rather than the client's own: the proxy answers before the page has read
 * the interaction, so it cannot know which client's origin to name without a lookup per request.
 * What that allows is small: an image runs nothing, scripts still need the page's nonce, React
 * escapes every value a page shows (no injected markup to carry a beacon), and Referrer-Policy
 * same-origin sends the logo's host no Referer (so no interaction uid).
 */
export const CLIENT_LOGO_SOURCES: readonly string[] = ['https:'];

/**
 * Content-Security-Policy (CSP Level 3). No `'unsafe-inline'` scripts:
 * injected markup cannot run. What it leaves out on purpose: `form-action`,
 * because the sign-in form's 303 chain ends at the client's redirect_uri on
 * another origin and Chromium applies form-action to the redirects after a
 * form submission.
 */
export function contentSecurityPolicy(sources: PolicySources): string {
  return [
    "default-src 'self'",
    `script-src ${sources.script.join(' ')}`,
    `style-src ${sources.style.join(' ')}`,
    ["img-src 'self' data:", ...(sources.images ?? [])].join(' '),
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The policy of Next's pages. Next takes the nonce from this header on the
 * request and puts it on its own scripts and styles; 'strict-dynamic' lets
 * those scripts load the chunks they import. `next dev` needs eval for React's
 * development build and injects styles without the nonce; production never does.
 */
export function pagePolicy(nonce: string, development = false, images: string[] = []): string {
  const script = ["'self'", `'nonce-${nonce}'`, "'strict-dynamic'"];
  if (development) script.push("'unsafe-eval'");
  return contentSecurityPolicy({ script, style: ["'self'", development ? "'unsafe-inline'" : `'nonce-${nonce}'`], images });
}

/**
 * The policy of answers to requests proxy.ts never sees (its matcher: a chunked body, or one
 * larger than LARGEST_BODY, which Next would copy for it): a refusal from the body-limit
 * rewrites, a 404 page, whatever a route answers. Set by next.config.js's headers() from the
 * request's headers alone, so without a nonce: no script runs on those answers.
 */
export const UNPROXIED_PAGE_POLICY = contentSecurityPolicy({ script: ["'none'"], style: ["'self'"] });
