/**
 * A client, a user and a signing key in their wire names, the one serializer of each: what
 * `gatehouse ... --json` prints (cli/commands/) and what the admin API answers
 * (admin-api/dto/, which adds what only it knows and checks the result against
 * its schemas). Clients in RFC 7591's metadata names. Never a secret or a
 * password hash: the records these take carry neither (lib/db). Imports
 * nothing but types, so the CLI can load it without the provider.
 */
import type { ClientRecord } from '../clients/repository.ts';
import type { SigningKeyInfo } from '../keys/repository.ts';
import type { IdTokenSigningAlg } from '../oidc/algorithms.ts';
import type { UserRecord } from '../users/repository.ts';

export const clientType = (client: ClientRecord) => (client.confidential ? 'confidential' : 'public');

export function clientToWire(client: ClientRecord) {
  return {
    client_id: client.id,
    client_name: client.name,
    client_type: clientType(client),
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    grant_types: client.grantTypes,
    scope: client.scope,
    token_endpoint_auth_method: client.tokenEndpointAuthMethod,
    application_type: client.applicationType,
    logo_uri: client.logoUri,
    first_party: client.firstParty,
    resource_server: client.resourceServer,
    admin_api: client.adminApi,
    id_token_signed_response_alg: client.idTokenSignedResponseAlg,
    require_second_factor: client.requireSecondFactor,
    backchannel_logout_uri: client.backchannelLogoutUri,
    backchannel_logout_session_required: client.backchannelLogoutSessionRequired,
    registered_dynamically: client.registeredDynamically,
    approval_pending: client.approvalPending,
    require_pushed_authorization_requests: client.requirePushedAuthorizationRequests,
    request_object_signing_alg: client.requestObjectSigningAlg,
    jwks: client.jwks ? (JSON.parse(client.jwks) as { keys: Record<string, unknown>[] }) : null,
    dpop_bound_access_tokens: client.dpopBoundAccessTokens,
    subject_type: client.subjectType,
    sector_identifier_uri: client.sectorIdentifierUri,
    enabled: client.enabled,
    created_at: client.createdAt.toISOString(),
    updated_at: client.updatedAt.toISOString(),
  };
}

export function userToWire(user: UserRecord) {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    email_verified: user.emailVerified,
    name: user.name,
    role: user.role,
    disabled: user.disabled,
    invited: user.invited,
    created_at: user.createdAt.toISOString(),
    updated_at: user.updatedAt.toISOString(),
  };
}

/** A signing key's place in the rotation (lib/keys/signing-keys.ts): never key material, which the record does not carry. */
export function signingKeyToWire(key: SigningKeyInfo) {
  const at = (ms: number) => (ms ? new Date(ms).toISOString() : null);
  return {
    kid: key.kid,
    alg: key.alg as IdTokenSigningAlg,
    state: key.state,
    created_at: new Date(key.createdAt).toISOString(),
    activates_at: at(key.activatesAt),
    retire_after: key.state === 'previous' ? at(key.retireAfter) : null,
  };
}
