/**
 * Introspection authorised by a Bearer access token (RFC 7662 §2.1 allows any
 * means of authorising the caller; RFC 6750 for the Bearer scheme).
 * oidc-provider only knows client authentication, so this path answers the
 * request itself, with the same response the provider gives a client-authenticated
 * resource server (the integration tests compare the two). The caller's token
 * must be active, carry the `introspect` scope, and belong to a resource server.
 */
import type Provider from 'oidc-provider';
import { INTROSPECT_SCOPE } from './scopes.ts';
import { oauthError } from './errors.ts';
import { readFormBody } from './form-body.ts';

export type AnyToken = Awaited<ReturnType<Provider['AccessToken']['find']>> & {
  kind: string;
  clientId: string;
  accountId?: string;
  grantId?: string;
  scope?: string;
  extra?: Record<string, unknown>;
  sid?: string;
  aud?: string | string[];
  tokenType?: string;
  isValid: boolean;
};

/** The token of an `Authorization: Bearer` header (RFC 6750 §2.1 syntax), if that is what the request carries. */
export function bearerToken(authorization: string | null | undefined): string | undefined {
  const match = authorization ? /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization) : null;
  return match?.[1];
}

async function findToken(provider: Provider, value: string, hint: string | null): Promise<AnyToken | undefined> {
  const access = () =>
    Promise.all([provider.AccessToken.find(value), provider.ClientCredentials.find(value)]).then(([a, c]) => (a ?? c) as AnyToken | undefined);
  const refresh = () => provider.RefreshToken.find(value) as Promise<AnyToken | undefined>;
  if (hint === 'refresh_token') return (await refresh()) ?? access();
  return (await access()) ?? refresh();
}

/** The token if it is valid and its grant still stands (as the provider checks). Also the admin API's Bearer check. */
export async function activeToken(provider: Provider, value: string, hint: string | null): Promise<AnyToken | undefined> {
  const token = await findToken(provider, value, hint);
  if (!token?.isValid) return undefined;
  if (token.grantId) {
    const grant = await provider.Grant.find(token.grantId, { ignoreExpiration: true });
    if (!grant || grant.isExpired || grant.clientId !== token.clientId || grant.accountId !== token.accountId) return undefined;
  }
  return token;
}

const challenge = (issuer: string, error: string, description: string) =>
  `Bearer realm="${issuer}", error="${error}", error_description="${description}"`;

export async function introspectWithBearer(provider: Provider, request: Request, bearer: string): Promise<Response> {
  const caller = await activeToken(provider, bearer, 'access_token');
  if (!caller || caller.kind === 'RefreshToken') {
    const description = 'the access token is invalid, expired or revoked';
    return oauthError(401, 'invalid_token', description, { 'www-authenticate': challenge(provider.issuer, 'invalid_token', description) });
  }
  const callerClient = await provider.Client.find(caller.clientId);
  const scopes = new Set((caller.scope ?? '').split(' '));
  if (!callerClient || callerClient.metadata().resource_server !== true || !scopes.has(INTROSPECT_SCOPE)) {
    const description = `the access token lacks the ${INTROSPECT_SCOPE} scope of a resource server`;
    return oauthError(403, 'insufficient_scope', description, {
      'www-authenticate': challenge(provider.issuer, 'insufficient_scope', description),
    });
  }

  const params = await readFormBody(request);
  if (params instanceof Response) return params;
  for (const name of ['token', 'token_type_hint']) {
    if (params.getAll(name).length > 1) return oauthError(400, 'invalid_request', `'${name}' parameter must not be provided twice`);
  }
  const value = params.get('token');
  if (!value) return oauthError(400, 'invalid_request', "missing required parameter 'token'");

  const token = await activeToken(provider, value, params.get('token_type_hint'));
  const body = token ? describe(provider, token, value) : { active: false };
  return Response.json(body, { headers: { 'cache-control': 'no-store', pragma: 'no-cache' } });
}

/** RFC 7662 §2.2, field for field as oidc-provider's introspection endpoint writes it. */
function describe(provider: Provider, token: AnyToken, value: string) {
  const jti = (token as { jti?: string }).jti;
  return JSON.parse(
    JSON.stringify({
      ...(token.accountId ? { sub: token.accountId } : {}),
      ...token.extra,
      active: true,
      client_id: token.clientId,
      exp: (token as { exp?: number }).exp,
      iat: (token as { iat?: number }).iat,
      sid: token.sid,
      iss: provider.issuer,
      jti: jti !== value ? jti : undefined,
      aud: token.aud,
      scope: token.scope || undefined,
      token_type: token.kind !== 'RefreshToken' ? token.tokenType : undefined,
    }),
  ) as Record<string, unknown>;
}
