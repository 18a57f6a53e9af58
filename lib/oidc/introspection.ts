/**
 * Introspection authorised by a Bearer access token (RFC 7662 §2.1 allows any
 * means of authorising the caller; RFC 6750 for the Bearer scheme).
 * oidc-provider only knows client authentication, so this path answers the
 * request itself (inside the provider's chain: lib/oidc/extensions/bearer-introspection.ts),
 * with the same response the provider gives a client-authenticated
 * resource server (the integration tests compare the two). The caller's token
 * must be active, a client_credentials token (RFC 6749 §4.4: issued to the client
 * itself, never to a person) carrying the `introspect` scope, of a confidential
 * resource server (lib/oidc/client-policy.ts). A person's token never authorises
 * introspection, whatever its scope: the scope is refused to them at registration
 * and at issuance (lib/clients/repository.ts), and refused here again.
 */
import type Provider from 'oidc-provider';
import { isConfidentialResourceServer } from './client-policy.ts';
import { INTROSPECT_SCOPE } from './scopes.ts';
import { oauthError } from './errors.ts';

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

const challenge = (issuer: string, error: string, description: string) => `Bearer realm="${issuer}", error="${error}", error_description="${description}"`;

/**
 * The answer to an introspection request authorised by `bearer`. The form is read
 * (`readForm`, lib/oidc/form-body.ts) only once the caller is known to be allowed.
 */
export async function introspectWithBearer(provider: Provider, bearer: string, readForm: () => Promise<URLSearchParams | Response>): Promise<Response> {
  const caller = await activeToken(provider, bearer, 'access_token');
  if (!caller || caller.kind === 'RefreshToken') {
    const description = 'the access token is invalid, expired or revoked';
    return oauthError(401, 'invalid_token', description, { 'www-authenticate': challenge(provider.issuer, 'invalid_token', description) });
  }
  const callerClient = await provider.Client.find(caller.clientId);
  const scopes = new Set((caller.scope ?? '').split(' '));
  const clientToken = caller.kind === 'ClientCredentials' && !caller.accountId;
  if (!callerClient || !clientToken || !isConfidentialResourceServer(callerClient) || !scopes.has(INTROSPECT_SCOPE)) {
    // RFC 6750 §3.1: a valid token that does not cover the request is insufficient_scope.
    const description = `only a confidential resource server's client_credentials token with the ${INTROSPECT_SCOPE} scope may introspect`;
    return oauthError(403, 'insufficient_scope', description, {
      'www-authenticate': challenge(provider.issuer, 'insufficient_scope', description),
    });
  }

  const params = await readForm();
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
