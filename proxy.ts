/**
 * Runs in front of Next's routes (Next 16's proxy, formerly middleware): a
 * Content-Security-Policy with a fresh nonce for every page, which Next reads
 * from the request's header and puts on its own scripts; HSTS; and a 400 for a
 * path that does not decode, which Next would answer with a 500; and the page's own
 * path in a request header, for its language (lib/surfaces/locale.ts).
 */
import { NextResponse, type NextRequest } from 'next/server';
import { brand, imageOrigins } from '@/lib/config/brand';
import { env } from '@/lib/config/env';
import { isProviderPath, isWellFormedPath, MALFORMED_PATH_ERROR, PATHNAME_HEADER } from '@/lib/http/paths';
import { CLIENT_LOGO_SOURCES, pagePolicy, transportSecurity } from '@/lib/http/security-headers';

export function proxy(request: NextRequest): NextResponse {
  // The path as sent: nextUrl may already be normalised.
  const { pathname } = new URL(request.url);
  const security = transportSecurity(env().ISSUER);
  if (!isWellFormedPath(pathname)) {
    const response = NextResponse.json(MALFORMED_PATH_ERROR, { status: 400, headers: { 'cache-control': 'no-store' } });
    for (const [name, value] of security) response.headers.set(name, value);
    return response;
  }
  // The provider's answers carry their own headers (lib/oidc/extensions/provider-headers.ts).
  if (isProviderPath(pathname)) return NextResponse.next();

  // The sign-in, sign-up and consent pages and /account's apps show the relying party's logo (lib/http/security-headers.ts CLIENT_LOGO_SOURCES).
  const showsClientLogos = pathname.startsWith('/interaction/') || pathname === '/account/apps';
  const images = [...imageOrigins(brand()), ...(showsClientLogos ? CLIENT_LOGO_SOURCES : [])];
  const policy = pagePolicy(nonce(), process.env.NODE_ENV === 'development', images);
  const headers = new Headers(request.headers);
  headers.set('content-security-policy', policy);
  headers.set(PATHNAME_HEADER, pathname);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set('content-security-policy', policy);
  for (const [name, value] of security) response.headers.set(name, value);
  return response;
}

/** 128 random bits, base64 (CSP3 §2.3.1 nonce-source). */
function nonce(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
}

export const config = {
  matcher: [
    // Requests without a body: every page, asset and GET.
    {
      source: '/:path*',
      missing: [
        { type: 'header', key: 'content-length' },
        { type: 'header', key: 'transfer-encoding' },
      ],
    },
    // Requests with a body, which Next copies for the proxy and waits for in
    // full: only those that declare at most LARGEST_BODY (lib/http/body-limits.ts).
    // Larger and chunked ones are refused unread by its rewrites or by our own
    // readers, without the proxy. Next needs a literal here;
    // lib/http/body-limits.test.ts checks that it is atMost(LARGEST_BODY).
    {
      source: '/:path*',
      has: [{ type: 'header', key: 'content-length', value: '(?!0*(?:[1-9]\\d{5,}|[7-9]\\d{4}|6[6-9]\\d{3}|65[6-9]\\d{2}|655[4-9]\\d|6553[7-9])$)\\d+' }],
    },
  ],
};
