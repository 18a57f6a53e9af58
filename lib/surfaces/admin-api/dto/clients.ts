/**
 * Clients on the wire, in RFC 7591's metadata names (serialized by
 * lib/clients/wire.ts, lib/users/wire.ts, lib/keys/wire.ts, as `gatehouse client list --json` prints them). Request fields are the registration schema's own
 * (newClientSchema in lib/clients/manage.ts, shared with the CLI and the
 * portal), renamed; its cross-field rules run in the use case, and their
 * issues are named back with `clientFieldNames`.
 */
import { adminRoleSchema } from '../../../admin-roles/roles.ts';
import { z } from 'zod';
import type { ClientRecord } from '../../../clients/repository.ts';
import { grantTypes, idTokenSigningAlgs, newClientSchema, supportedScopes, type NewClientInput } from '../../../clients/manage.ts';
import { clientToWire, splitScope } from '../../../clients/wire.ts';
import { REQUEST_OBJECT_SIGNING_ALGS } from '../../../clients/protocol-features.ts';
import { SUBJECT_TYPES } from '../../../clients/repository.ts';
import { pageOf, timestamp } from './common.ts';

const field = newClientSchema.shape;
/** RFC 7517 §5 as JSON on the wire; stored as its text (lib/clients/protocol-features.ts checks the keys are public). */
const jwksObject = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });
const authMethods = field.tokenEndpointAuthMethod.unwrap().options;

export const clientSchema = z
  .strictObject({
    client_id: z.string(),
    client_name: z.string(),
    client_type: z.enum(['confidential', 'public']),
    redirect_uris: z.array(z.string()),
    post_logout_redirect_uris: z.array(z.string()),
    grant_types: z.array(z.enum(grantTypes)),
    scope: z.string().meta({ description: 'The scopes the client may request, space-separated.' }),
    token_endpoint_auth_method: z.enum(authMethods),
    application_type: z.enum(['web', 'native']),
    logo_uri: z.string().nullable(),
    first_party: z.boolean(),
    resource_server: z.boolean(),
    admin_api: z.boolean(),
    admin_role: adminRoleSchema.meta({ description: 'What an admin-API client may do in this API: the admin role it acts with (see the docs, Admin roles).' }),
    id_token_signed_response_alg: z.enum(idTokenSigningAlgs).meta({ description: 'The JWS alg of its ID tokens (OIDC Dynamic Client Registration §2).' }),
    require_second_factor: z.boolean().meta({ description: 'Every sign-in for it ends with a second factor (acr urn:gatehouse:acr:mfa).' }),
    backchannel_logout_uri: z
      .string()
      .nullable()
      .meta({ description: 'Where logout tokens go when a session it signed in through ends (OpenID Connect Back-Channel Logout 1.0); null: none.' }),
    backchannel_logout_session_required: z.boolean().meta({ description: "Its logout tokens and ID tokens carry the session's sid." }),
    registered_dynamically: z.boolean().meta({ description: 'The client registered itself at /oauth/register (RFC 7591).' }),
    approval_pending: z.boolean().meta({ description: 'A self-registered client waiting for an admin to approve it: it signs no one in until then.' }),
    require_pushed_authorization_requests: z.boolean().meta({ description: 'Authorization requests only through /oauth/par (RFC 9126 §6).' }),
    request_object_signing_alg: z.enum(REQUEST_OBJECT_SIGNING_ALGS).nullable().meta({ description: 'Every request object signed with this alg (RFC 9101).' }),
    jwks: jwksObject.nullable().meta({ description: "The client's public keys (RFC 7591 §2), for its request objects." }),
    dpop_bound_access_tokens: z.boolean().meta({ description: 'Tokens only with a DPoP proof (RFC 9449 §5.2).' }),
    subject_type: z.enum(SUBJECT_TYPES).meta({ description: 'public, or pairwise: a sub per sector (OIDC Core §8).' }),
    sector_identifier_uri: z.string().nullable().meta({ description: 'OIDC Core §8.1; its host is the sector.' }),
    enabled: z.boolean(),
    managed: z.boolean().meta({ description: 'Gatehouse manages this client itself (the admin portal signs in with it): read only.' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Client', description: 'A registered client. Never its secret, which is stored only as a hash.' });

export const clientListSchema = pageOf(clientSchema).meta({ id: 'ClientList' });

export const createdClientSchema = clientSchema
  .extend({
    client_secret: z.string().optional().meta({ description: 'Confidential clients only. Shown in this answer and never again.' }),
  })
  .meta({ id: 'CreatedClient' });

export const clientSecretSchema = z
  .strictObject({
    client_id: z.string(),
    client_secret: z.string().meta({ description: 'The new secret, shown in this answer and never again; the old one no longer works.' }),
  })
  .meta({ id: 'ClientSecret' });

const scopeField = z
  .string()
  .max(1000)
  .meta({ description: `Space-separated scopes the client may request, among: ${supportedScopes.join(', ')}.` });

/** The registration's fields without their defaults: a PATCH leaves out what it does not change. */
const clientFields = {
  client_name: field.name,
  client_type: field.type.unwrap(),
  redirect_uris: field.redirectUris.unwrap(),
  post_logout_redirect_uris: field.postLogoutRedirectUris.unwrap(),
  grant_types: field.grantTypes.unwrap(),
  scope: scopeField,
  token_endpoint_auth_method: field.tokenEndpointAuthMethod.unwrap(),
  logo_uri: field.logoUri.unwrap(),
  first_party: field.firstParty.unwrap(),
  resource_server: field.resourceServer.unwrap(),
  admin_api: field.adminApi.unwrap(),
  admin_role: adminRoleSchema.meta({
    description: 'The admin role an admin-API client acts with: owner, admin (the default), user_manager or auditor. Only an owner gives owner.',
  }),
  id_token_signed_response_alg: field.idTokenSignedResponseAlg.unwrap().meta({
    description: 'ES256 (the default for new clients) or RS256, for relying parties that accept only RS256 (e.g. next-auth v4 without configuration).',
  }),
  require_second_factor: field.requireSecondFactor.unwrap().meta({
    description:
      'Every sign-in for the client ends with a second factor (acr urn:gatehouse:acr:mfa), as if it asked with acr_values; ' +
      'a person without one cannot sign in to it (unmet_authentication_requirements). Default false.',
  }),
  backchannel_logout_uri: field.backchannelLogoutUri.unwrap().meta({
    description:
      'https URL (http on a loopback address) Gatehouse posts logout tokens to when a session the client signed in through ends ' +
      '(OpenID Connect Back-Channel Logout 1.0); sent only when the instance runs with BACKCHANNEL_LOGOUT=on. null: none.',
  }),
  backchannel_logout_session_required: field.backchannelLogoutSessionRequired.unwrap().meta({
    description: "The client's logout tokens and ID tokens carry the session's sid. Default false.",
  }),
  require_pushed_authorization_requests: field.requirePushedAuthorizationRequests.unwrap().meta({
    description: 'Authorization requests only by a request_uri from /oauth/par (RFC 9126 §6). Default false.',
  }),
  request_object_signing_alg: field.requestObjectSigningAlg.unwrap().meta({
    description: 'Every authorization request a request object signed with this alg by a key in jwks (RFC 9101). Default null.',
  }),
  jwks: jwksObject.nullable().meta({ description: "The client's public keys (RFC 7591 §2): needed with request_object_signing_alg." }),
  dpop_bound_access_tokens: field.dpopBoundAccessTokens.unwrap().meta({ description: 'Tokens only with a DPoP proof (RFC 9449 §5.2). Default false.' }),
  subject_type: field.subjectType.unwrap().meta({ description: 'public (default) or pairwise (OIDC Core §8).' }),
  sector_identifier_uri: field.sectorIdentifierUri.unwrap().meta({
    description: 'Pairwise only: an https URL answering a JSON array holding every redirect URI (OIDC Core §8.1), fetched when saved.',
  }),
};

export const newClientBodySchema = z
  .strictObject({ ...clientFields })
  .partial()
  .required({ client_name: true })
  .meta({
    id: 'NewClient',
    description:
      'Defaults: confidential, authorization_code + refresh_token, scope "openid profile email offline_access", ' +
      'id_token_signed_response_alg ES256. ' +
      'Only confidential clients can be resource servers; only resource servers may have the introspect scope, and only admin-API clients the admin scope, ' +
      'each with client_credentials alone.',
  });

export const clientPatchSchema = z
  .strictObject({ ...clientFields })
  .partial()
  .meta({ id: 'ClientPatch', description: 'The fields to change; the others stay. client_type cannot change.' });

export type NewClientBody = z.output<typeof newClientBodySchema>;
export type ClientPatch = z.output<typeof clientPatchSchema>;

/** The registration schema's field names as the wire names them, for its issues. */
export const clientFieldNames: Record<string, string> = {
  name: 'client_name',
  type: 'client_type',
  redirectUris: 'redirect_uris',
  postLogoutRedirectUris: 'post_logout_redirect_uris',
  grantTypes: 'grant_types',
  scopes: 'scope',
  tokenEndpointAuthMethod: 'token_endpoint_auth_method',
  logoUri: 'logo_uri',
  firstParty: 'first_party',
  resourceServer: 'resource_server',
  adminApi: 'admin_api',
  adminRole: 'admin_role',
  idTokenSignedResponseAlg: 'id_token_signed_response_alg',
  requireSecondFactor: 'require_second_factor',
  backchannelLogoutUri: 'backchannel_logout_uri',
  backchannelLogoutSessionRequired: 'backchannel_logout_session_required',
  requirePushedAuthorizationRequests: 'require_pushed_authorization_requests',
  requestObjectSigningAlg: 'request_object_signing_alg',
  jwks: 'jwks',
  dpopBoundAccessTokens: 'dpop_bound_access_tokens',
  subjectType: 'subject_type',
  sectorIdentifierUri: 'sector_identifier_uri',
};

/** A wire body as the registration's input: given fields over `base` (the client as it is, for a PATCH). */
export function clientInput(body: ClientPatch, base: Partial<NewClientInput> = {}): NewClientInput {
  const given = <T>(value: T | undefined, fallback: T) => (value === undefined ? fallback : value);
  return {
    ...base,
    name: given(body.client_name, base.name ?? ''),
    type: given(body.client_type, base.type),
    redirectUris: given(body.redirect_uris, base.redirectUris),
    postLogoutRedirectUris: given(body.post_logout_redirect_uris, base.postLogoutRedirectUris),
    grantTypes: given(body.grant_types, base.grantTypes),
    scopes: body.scope === undefined ? base.scopes : splitScope(body.scope),
    tokenEndpointAuthMethod: given(body.token_endpoint_auth_method, base.tokenEndpointAuthMethod),
    logoUri: given(body.logo_uri, base.logoUri),
    firstParty: given(body.first_party, base.firstParty),
    resourceServer: given(body.resource_server, base.resourceServer),
    adminApi: given(body.admin_api, base.adminApi),
    adminRole: given(body.admin_role, base.adminRole),
    idTokenSignedResponseAlg: given(body.id_token_signed_response_alg, base.idTokenSignedResponseAlg),
    requireSecondFactor: given(body.require_second_factor, base.requireSecondFactor),
    backchannelLogoutUri: given(body.backchannel_logout_uri, base.backchannelLogoutUri),
    backchannelLogoutSessionRequired: given(body.backchannel_logout_session_required, base.backchannelLogoutSessionRequired),
    requirePushedAuthorizationRequests: given(body.require_pushed_authorization_requests, base.requirePushedAuthorizationRequests),
    requestObjectSigningAlg: given(body.request_object_signing_alg, base.requestObjectSigningAlg),
    jwks: body.jwks === undefined ? base.jwks : body.jwks && JSON.stringify(body.jwks),
    dpopBoundAccessTokens: given(body.dpop_bound_access_tokens, base.dpopBoundAccessTokens),
    subjectType: given(body.subject_type, base.subjectType),
    sectorIdentifierUri: given(body.sector_identifier_uri, base.sectorIdentifierUri),
  };
}

/** The one serializer of a client (lib/clients/wire.ts, lib/users/wire.ts, lib/keys/wire.ts, shared with the CLI) and `managed`; route.ts checks its enums against the schema. */
export function clientDto(client: ClientRecord, managed: boolean): z.input<typeof clientSchema> {
  return { ...clientToWire(client), managed } as z.input<typeof clientSchema>;
}
