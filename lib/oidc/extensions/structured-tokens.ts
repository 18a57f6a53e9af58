/**
 * oidc-provider refuses a JWT at its introspection and revocation endpoints (unsupported_token_type:
 * it expects resource servers to verify JWT access tokens themselves). Gatehouse's APIs may still
 * introspect one (RFC 7662 §2.2, to learn of a revoked grant before the JWT expires) and a client may
 * revoke one (RFC 7009). The provider's refusal is a check of the `token` parameter's shape, before
 * any lookup: here a JWT is handed on in a form that passes it (its base64url parts joined by `~`, which
 * no opaque token contains), and the lookup (../jwt-access-tokens.ts) takes it back apart and verifies it.
 * Anything else goes on untouched. The form is read here and handed on parsed, which the provider accepts
 * (it warns once, in its own log, that a body was parsed before it).
 */
import type Provider from 'oidc-provider';
import { bearerToken } from '../../http/bearer.ts';
import { routes } from '../configuration.ts';
import { readNodeFormBody } from '../form-body.ts';
import { respondWith } from './provider-context.ts';

const JWS_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]+$/;

export function useStructuredTokenLookup(provider: Provider): void {
  provider.use(async (ctx, next) => {
    const route = ctx.method === 'POST' && (ctx.path === routes.introspection || ctx.path === routes.revocation);
    // Bearer introspection answers itself, through the same lookup (./bearer-introspection.ts).
    if (!route || !ctx.is('application/x-www-form-urlencoded') || bearerToken(ctx.get('authorization'))) return next();
    const params = await readNodeFormBody(ctx.req);
    if (params instanceof Response) return respondWith(ctx, params);
    const tokens = params.getAll('token');
    if (tokens.length === 1 && JWS_SHAPE.test(tokens[0])) params.set('token', tokens[0].replaceAll('.', '~'));
    const body: Record<string, string | string[]> = {};
    for (const key of new Set(params.keys())) {
      const values = params.getAll(key);
      body[key] = values.length > 1 ? values : values[0];
    }
    (ctx.request as unknown as { body: unknown }).body = body;
    return next();
  });
}
