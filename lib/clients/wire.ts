/**
 * A client in its wire names, the one serializer: what `gatehouse client --json` prints (cli/commands/) and what the
 * admin API answers (lib/surfaces/admin-api/dto/, which adds what only it knows and checks the result against its
 * schemas). In RFC 7591's metadata names. Never a secret or a secret's hash: the record this takes carries none. Imports nothing but types, so the CLI can load
 * it without the provider.
 */
import type { NewClientInput } from './manage.ts';
import type { ClientRecord } from './repository.ts';

export const clientType = (client: ClientRecord) => (client.confidential ? 'confidential' : 'public');

type Registration = Required<NewClientInput>;

/** A `scope` string as the registration's list of scopes. */
export const splitScope = (scope: string) => scope.split(/\s+/).filter(Boolean) as Registration['scopes'];

/**
 * A stored client as the registration's input: what an update that changes some fields only starts from (the admin
 * API's PATCH), and what the portal's edit form shows.
 */
export function registrationOf(client: ClientRecord): Registration {
  return {
    name: client.name,
    type: clientType(client),
    redirectUris: client.redirectUris,
    postLogoutRedirectUris: client.postLogoutRedirectUris,
    grantTypes: client.grantTypes as Registration['grantTypes'],
    scopes: splitScope(client.scope),
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod as Registration['tokenEndpointAuthMethod'],
    logoUri: client.logoUri,
    firstParty: client.firstParty,
    resourceServer: client.resourceServer,
    adminApi: client.adminApi,
    adminRole: client.adminRole,
    idTokenSignedResponseAlg: client.idTokenSignedResponseAlg,
    requireSecondFactor: client.requireSecondFactor,
    backchannelLogoutUri: client.backchannelLogoutUri,
    backchannelLogoutSessionRequired: client.backchannelLogoutSessionRequired,
    requirePushedAuthorizationRequests: client.requirePushedAuthorizationRequests,
    requestObjectSigningAlg: client.requestObjectSigningAlg as Registration['requestObjectSigningAlg'],
    jwks: client.jwks,
    dpopBoundAccessTokens: client.dpopBoundAccessTokens,
    subjectType: client.subjectType,
    sectorIdentifierUri: client.sectorIdentifierUri,
  };
}

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
    admin_role: client.adminRole,
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
