/**
 * OIDC Core §3.1.2.1 allows the authorization request as a form POST. The
 * provider's POST support needs SameSite=None session cookies, which browsers
 * keep only over https. On a plain-http issuer (local development) the same
 * parameters are sent on as a GET with 303, which a browser follows as a
 * top-level navigation that carries the SameSite=Lax session cookie. With an
 * https issuer the provider answers the POST itself (e2e/protocol/https-issuer.test.ts).
 */
import type Provider from 'oidc-provider';
import { routes } from '../configuration.ts';
import { readNodeFormBody } from '../form-body.ts';
import { respondWith } from './provider-context.ts';

export function useAuthorizationPostOverHttp(provider: Provider): void {
  if (new URL(provider.issuer).protocol !== 'http:') return;
  provider.use(async (ctx, next) => {
    if (ctx.method !== 'POST' || ctx.path !== routes.authorization) return next();
    const params = await readNodeFormBody(ctx.req);
    if (params instanceof Response) return respondWith(ctx, params);
    const location = new URL(routes.authorization, provider.issuer);
    location.search = params.toString();
    await respondWith(ctx, new Response(null, { status: 303, headers: { location: location.toString(), 'cache-control': 'no-store' } }));
  });
}
