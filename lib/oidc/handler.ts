/**
 * What the /oauth/* and /.well-known/* route handlers call: picks the two
 * requests oidc-provider cannot serve as they are, and bridges the rest.
 */
import 'server-only';
import { randomUUID } from 'node:crypto';
import { env } from '../config/env.ts';
import { callProvider } from './bridge.ts';
import { routes } from './configuration.ts';
import { readFormBody } from './form-body.ts';
import { bearerToken, introspectWithBearer } from './introspection.ts';
import { getProvider } from './provider.ts';
import { serverErrorResponse } from './server-errors.ts';

export async function handleProviderRequest(request: Request): Promise<Response> {
  const requestId = randomUUID();
  try {
    const provider = await getProvider();
    const issuer = new URL(env().ISSUER);
    const { pathname } = new URL(request.url);

    if (request.method === 'POST' && pathname === routes.authorization && issuer.protocol === 'http:') {
      return await authorizationPostOverHttp(request, issuer);
    }
    const bearer = request.method === 'POST' && pathname === routes.introspection ? bearerToken(request.headers.get('authorization')) : undefined;
    if (bearer) {
      const response = await introspectWithBearer(provider, request, bearer);
      response.headers.set('x-request-id', requestId);
      return response;
    }
    return await callProvider(provider, request, { issuer, requestId });
  } catch (error) {
    return serverErrorResponse(requestId, error);
  }
}

/**
 * OIDC Core §3.1.2.1 allows the authorization request as a form POST. The
 * provider's POST support needs SameSite=None session cookies, which browsers
 * keep only over https. On a plain-http issuer (local development) the same
 * parameters are sent on as a GET with 303, which a browser follows as a
 * top-level navigation that carries the SameSite=Lax session cookie.
 */
async function authorizationPostOverHttp(request: Request, issuer: URL): Promise<Response> {
  const params = await readFormBody(request);
  if (params instanceof Response) return params;
  const location = new URL(routes.authorization, issuer);
  location.search = params.toString();
  return new Response(null, { status: 303, headers: { location: location.toString(), 'cache-control': 'no-store' } });
}
