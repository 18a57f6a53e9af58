/**
 * What an access token presented to the admin JSON API (/api/admin) is worth,
 * checked against the provider as introspection checks it (RFC 6750 §3.1 for
 * the outcomes): only a client_credentials token, still active, of a client
 * still enabled and flagged `admin_api`, carrying the `admin` scope, lets the
 * client act. A person's access token never does, whatever its scope: the
 * admin scope is refused to them at issuance (lib/clients/manage.ts and the
 * client metadata validator), and refused here again.
 */
import type Provider from 'oidc-provider';
import { activeToken } from './introspection.ts';
import { ADMIN_SCOPE } from './scopes.ts';

export type AdminTokenCheck =
  /** Unknown, expired, revoked, a refresh token, or its client is gone or disabled: RFC 6750 invalid_token. */
  | { kind: 'invalid' }
  /** Active, but not an admin-API client's client_credentials token with the admin scope: RFC 6750 insufficient_scope. */
  | { kind: 'insufficient_scope' }
  | { kind: 'client'; clientId: string };

export async function checkAdminToken(provider: Provider, value: string): Promise<AdminTokenCheck> {
  const token = await activeToken(provider, value, 'access_token');
  if (!token || token.kind === 'RefreshToken') return { kind: 'invalid' };
  // A disabled client is unknown to the provider (lib/clients/repository.ts), and its tokens were revoked with it.
  const client = await provider.Client.find(token.clientId);
  if (!client) return { kind: 'invalid' };
  const scopes = new Set((token.scope ?? '').split(' '));
  if (token.kind !== 'ClientCredentials' || token.accountId || client.metadata().admin_api !== true || !scopes.has(ADMIN_SCOPE)) {
    return { kind: 'insufficient_scope' };
  }
  return { kind: 'client', clientId: token.clientId };
}
