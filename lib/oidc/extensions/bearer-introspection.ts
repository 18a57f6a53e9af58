/**
 * POST /oauth/introspect with `Authorization: Bearer` is answered here
 * (lib/oidc/introspection.ts says who may), inside the provider's chain: after
 * the security headers and the body limit, like every other answer of the
 * provider. Every other introspection request goes on to the provider.
 */
import type Provider from 'oidc-provider';
import { bearerToken } from '../../http/bearer.ts';
import { routes } from '../configuration.ts';
import { readNodeFormBody } from '../form-body.ts';
import { introspectWithBearer } from '../introspection.ts';
import { serverErrorResponse, type ErrorLog } from '../server-errors.ts';
import { respondWith } from './provider-context.ts';

export function useBearerIntrospection(provider: Provider, log: ErrorLog): void {
  provider.use(async (ctx, next) => {
    const bearer = ctx.method === 'POST' && ctx.path === routes.introspection ? bearerToken(ctx.get('authorization')) : undefined;
    if (!bearer) return next();
    const response = await introspectWithBearer(provider, bearer, () => readNodeFormBody(ctx.req)).catch((error: unknown) =>
      serverErrorResponse(log, ctx.get('x-request-id'), error),
    );
    await respondWith(ctx, response);
  });
}
