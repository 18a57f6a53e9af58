/**
 * What every answer for the provider's paths carries, on both mounts (`npm start`
 * serves them without Next): the headers of lib/http/security-headers.ts with the
 * provider's own page policy, the X-Request-Id the mount stamped on the request,
 * and a 400 for a path that does not decode.
 */
import type Provider from 'oidc-provider';
import { isWellFormedPath, MALFORMED_PATH_ERROR } from '../../http/paths.ts';
import { contentSecurityPolicy, STATIC_SECURITY_HEADERS, transportSecurity } from '../../http/security-headers.ts';
import { type Brand, imageOrigins } from '../../config/brand.ts';
import { providerPages } from '../html.ts';

/**
 * The provider's pages (logout confirmation, errors; lib/oidc/html.ts) run no
 * script and have one inline style, which depends on the brand; images come from
 * here or from the brand's logo origin. Set before the provider answers: its
 * form_post response adds the hash of its one inline script to script-src.
 */
export function providerPolicy(brand: Brand): string {
  return contentSecurityPolicy({ script: ["'none'"], style: [providerPages(brand).styleSource], images: imageOrigins(brand) });
}

export function useSecurityHeaders(provider: Provider, brand: Brand): void {
  const headers = [...STATIC_SECURITY_HEADERS, ...transportSecurity(provider.issuer), ['Content-Security-Policy', providerPolicy(brand)] as const];
  provider.use(async (ctx, next) => {
    for (const [name, value] of headers) ctx.set(name, value);
    const requestId = ctx.get('x-request-id');
    if (requestId) ctx.set('X-Request-Id', requestId);
    if (!isWellFormedPath(ctx.path)) {
      ctx.status = 400;
      ctx.body = MALFORMED_PATH_ERROR;
      return;
    }
    await next();
  });
}
