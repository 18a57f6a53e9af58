/**
 * The OpenAPI 3.1 document of the protocol endpoints (GET /api/protocol/openapi.json), beside the admin
 * API's (./openapi.ts): what oidc-provider serves under /oauth (lib/oidc/configuration.ts `routes`),
 * discovery, and the interaction pages a person goes through. Built from the instance's settings, so an
 * endpoint that is off (DEVICE_FLOW, PUSHED_AUTHORIZATION_REQUESTS, DYNAMIC_REGISTRATION) is absent here
 * as it is from discovery, and the parameters and schemes of one that is on (REQUEST_OBJECTS, DPOP,
 * CLAIMS_PARAMETER) appear only then. Every status listed is one the server answers
 * (e2e/protocol/protocol-openapi.test.ts provokes each and checks the body against its schema).
 * Errors keep the RFCs' words: {"error", "error_description"} (RFC 6749 §5.2).
 */
import { z } from 'zod';
import type { ProtocolFeatures } from '../../oidc/protocol-features.ts';
import type { RegistrationMode } from '../../oidc/registration.ts';
import { routes } from '../../oidc/configuration.ts';
import { Components } from './openapi.ts';

export interface ProtocolDocumentSettings {
  issuer: string;
  features: ProtocolFeatures;
  registration: RegistrationMode;
}

type Json = Record<string, unknown>;

const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
const timestamp = z.number().int().meta({ description: 'Seconds since the epoch.' });
const audience = z.union([z.string(), z.array(z.string())]);

const errorResponse = z
  .strictObject({
    error: z.string().meta({ description: "The RFC's error code, e.g. invalid_request, invalid_client, invalid_grant, invalid_token." }),
    error_description: z.string().optional(),
  })
  .meta({ id: 'ErrorResponse', description: 'RFC 6749 §5.2. Never anything the caller is not meant to see: an unexpected error is server_error.' });

function tokenResponse(dpop: boolean) {
  return z
    .strictObject({
      access_token: z.string(),
      token_type: z.enum(dpop ? ['Bearer', 'DPoP'] : ['Bearer']).meta({ description: "DPoP when the token is bound to the proof's key (RFC 9449 §5)." }),
      expires_in: z.number().int(),
      refresh_token: z.string().optional().meta({ description: 'With offline_access, for a client allowed refresh_token.' }),
      id_token: z.string().optional().meta({ description: 'With scope openid (OIDC Core §3.1.3.3).' }),
      scope: z.string().optional(),
    })
    .meta({ id: 'TokenResponse', description: 'RFC 6749 §5.1. Cache-Control: no-store.' });
}

const introspectionResponse = z
  .strictObject({
    active: z.boolean(),
    client_id: z.string().optional(),
    scope: z.string().optional(),
    token_type: z.string().optional(),
    username: z.string().optional(),
    sub: z.string().optional(),
    aud: audience.optional(),
    iss: z.string().optional(),
    jti: z.string().optional(),
    exp: timestamp.optional(),
    iat: timestamp.optional(),
    nbf: timestamp.optional(),
    sid: z.string().optional(),
    cnf: z.looseObject({ jkt: z.string().optional() }).optional().meta({ description: 'The DPoP key a bound token is tied to (RFC 9449 §6.2).' }),
  })
  .meta({
    id: 'IntrospectionResponse',
    description: 'RFC 7662 §2.2. {"active": false} alone for a token that is not active or that the caller may not introspect.',
  });

const userInfo = z
  .looseObject({
    sub: z.string(),
    name: z.string().optional(),
    preferred_username: z.string().optional(),
    email: z.string().optional(),
    email_verified: z.boolean().optional(),
  })
  .meta({ id: 'UserInfo', description: 'OIDC Core §5.3.2: the claims of the scopes the person granted (see claims_supported in discovery).' });

const jwks = z
  .strictObject({ keys: z.array(z.looseObject({ kty: z.string(), kid: z.string(), use: z.string().optional(), alg: z.string().optional() })) })
  .meta({ id: 'JWKSet', description: 'RFC 7517 §5: the public keys tokens are signed with, retired ones while their tokens live.' });

const discovery = z
  .looseObject({
    issuer: z.string(),
    authorization_endpoint: z.string(),
    token_endpoint: z.string(),
    userinfo_endpoint: z.string(),
    jwks_uri: z.string(),
    introspection_endpoint: z.string(),
    revocation_endpoint: z.string(),
    end_session_endpoint: z.string(),
    device_authorization_endpoint: z.string().optional(),
    pushed_authorization_request_endpoint: z.string().optional(),
    registration_endpoint: z.string().optional(),
    grant_types_supported: z.array(z.string()),
    scopes_supported: z.array(z.string()),
  })
  .meta({ id: 'ProviderMetadata', description: 'OpenID Connect Discovery 1.0 §3: lists exactly what this instance has on.' });

const deviceAuthorizationResponse = z
  .strictObject({
    device_code: z.string(),
    user_code: z.string().meta({ description: 'Eight consonants as XXXX-XXXX.' }),
    verification_uri: z.string(),
    verification_uri_complete: z.string(),
    expires_in: z.number().int(),
    interval: z.number().int().optional().meta({ description: 'Seconds the device waits between polls (RFC 8628 §3.5: slow_down adds 5).' }),
  })
  .meta({ id: 'DeviceAuthorizationResponse', description: 'RFC 8628 §3.2.' });

const pushedAuthorizationResponse = z
  .strictObject({ request_uri: z.string(), expires_in: z.number().int() })
  .meta({ id: 'PushedAuthorizationResponse', description: 'RFC 9126 §2.2: single use.' });

const clientMetadata = z
  .looseObject({
    redirect_uris: z.array(z.string()).optional(),
    client_name: z.string().optional(),
    grant_types: z.array(z.string()).optional(),
    response_types: z.array(z.string()).optional(),
    scope: z.string().optional(),
    token_endpoint_auth_method: z.string().optional(),
  })
  .meta({ id: 'ClientMetadata', description: "RFC 7591 §2; within the initial access token's limits." });

const clientInformation = z
  .looseObject({
    client_id: z.string(),
    client_secret: z.string().optional(),
    client_id_issued_at: timestamp.optional(),
    client_secret_expires_at: timestamp.optional(),
    registration_access_token: z.string().optional().meta({ description: 'For RFC 7592 management of this client; shown once.' }),
    registration_client_uri: z.string().optional(),
    redirect_uris: z.array(z.string()).optional(),
    grant_types: z.array(z.string()).optional(),
  })
  .meta({ id: 'ClientInformation', description: 'RFC 7591 §3.2.1 and RFC 7592 §3.' });

const html = { 'text/html': { schema: { type: 'string' } } };
const location = { Location: { schema: { type: 'string' }, description: 'Where the browser goes next.' } };
const bearerChallenge = { 'WWW-Authenticate': { schema: { type: 'string' }, description: 'RFC 6750 §3 (or RFC 9449 §7.1) challenge.' } };

/** The protocol's document for an instance with `settings`. */
export function protocolOpenApiDocument(settings: ProtocolDocumentSettings) {
  const { issuer, features, registration } = settings;
  const components = new Components();
  const plainHttp = new URL(issuer).protocol === 'http:';
  const json = (schema: z.ZodType, io: 'input' | 'output' = 'output', media = 'application/json') => ({ [media]: { schema: components.add(schema, io) } });
  const error = (description: string, headers?: Json) => ({ description, ...(headers ? { headers } : {}), content: json(errorResponse) });
  const form = (properties: Json, required: string[]) => ({
    required: true,
    content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties, required } } },
  });
  const string = (description: string) => ({ type: 'string', description });
  const clientAuth = [{ clientSecretBasic: [] }, { clientSecretPost: [] }];
  const publicOrClientAuth = [...clientAuth, { none: [] }];
  const tokenHolder = [{ bearer: [] }, ...(features.dPoP ? [{ dpop: [] }] : [])];
  const dpopHeader = features.dPoP
    ? [{ name: 'DPoP', in: 'header', required: false, schema: { type: 'string' }, description: 'A DPoP proof (RFC 9449 §4) for a sender-constrained token.' }]
    : [];

  const grantTypes = ['authorization_code', 'refresh_token', 'client_credentials', ...(features.deviceFlow ? [DEVICE_CODE_GRANT] : [])];
  type Parameter = [name: string, required: boolean, description: string];
  const authorizationParameters: Parameter[] = [
    ['client_id', true, 'The client.'],
    ['response_type', false, 'code (the only response type).'],
    ['redirect_uri', false, "One of the client's registered redirect URIs."],
    ['scope', false, 'openid and the other scopes asked for.'],
    ['state', false, 'Returned unchanged.'],
    ['nonce', false, 'Returned in the ID token.'],
    ['code_challenge', false, 'PKCE (RFC 7636), required for public clients.'],
    ['code_challenge_method', false, 'S256.'],
    ['prompt', false, 'none, login, consent or select_account.'],
    ['max_age', false, 'Seconds since the last sign-in after which the person signs in again.'],
    ['acr_values', false, 'Asks for a stronger sign-in (a second factor).'],
    ['resource', false, 'RFC 8707: the API the access token is for.'],
    ...(features.pushedAuthorizationRequests ? [['request_uri', false, 'RFC 9126: the request_uri /oauth/par answered.'] as Parameter] : []),
    ...(features.requestObjects ? [['request', false, 'RFC 9101: a signed request object (never alg none).'] as Parameter] : []),
    ...(features.claimsParameter ? [['claims', false, 'OIDC Core §5.5: the claims asked for, as JSON.'] as Parameter] : []),
    ...(features.dPoP ? [['dpop_jkt', false, 'RFC 9449 §10: the thumbprint of the key the code is bound to.'] as Parameter] : []),
  ];
  const authorization = (method: 'get' | 'post') => ({
    operationId: method === 'get' ? 'authorize' : 'authorizePost',
    tags: ['authorization'],
    summary: 'Authorization endpoint (RFC 6749 §3.1, OIDC Core §3.1.2)',
    ...(method === 'get'
      ? {
          parameters: authorizationParameters.map(([name, required, description]) => ({
            name,
            in: 'query',
            required,
            schema: { type: 'string' },
            description,
          })),
        }
      : { requestBody: form(Object.fromEntries(authorizationParameters.map(([name, , description]) => [name, string(description)])), ['client_id']) }),
    responses:
      method === 'post' && plainHttp
        ? // lib/oidc/extensions/authorization-post.ts: over plain http the form is sent on as a GET, which keeps the SameSite=Lax cookie.
          { 303: { description: 'The same parameters as a GET of this endpoint.', headers: location } }
        : {
            303: {
              description: 'To the interaction (/interaction/{uid}) where the person signs in and consents, or back to the redirect URI with code or error.',
              headers: location,
            },
            400: { description: 'Unknown client or unregistered redirect URI: shown to the person, never redirected (RFC 6749 §4.1.2.1).', content: html },
          },
  });

  const paths: Record<string, Record<string, unknown>> = {
    '/.well-known/openid-configuration': {
      get: { operationId: 'discovery', tags: ['discovery'], summary: 'Provider metadata', responses: { 200: { description: 'OK', content: json(discovery) } } },
    },
    [routes.jwks]: {
      get: {
        operationId: 'jwks',
        tags: ['discovery'],
        summary: 'Public signing keys',
        responses: { 200: { description: 'OK', content: json(jwks, 'output', 'application/jwk-set+json') } },
      },
    },
    [routes.authorization]: { get: authorization('get'), post: authorization('post') },
    [routes.token]: {
      post: {
        operationId: 'token',
        tags: ['tokens'],
        summary: 'Token endpoint (RFC 6749 §3.2)',
        security: publicOrClientAuth,
        parameters: dpopHeader,
        requestBody: form(
          {
            grant_type: { type: 'string', enum: grantTypes },
            code: string('authorization_code: the code.'),
            redirect_uri: string('authorization_code: as in the authorization request.'),
            code_verifier: string('authorization_code: the PKCE verifier.'),
            refresh_token: string('refresh_token: the refresh token.'),
            scope: string('client_credentials and refresh_token: the scopes asked for.'),
            resource: string('RFC 8707: the API the access token is for.'),
            ...(features.deviceFlow ? { device_code: string('device_code: the device code from /oauth/device/auth.') } : {}),
            client_id: string('client_secret_post and public clients.'),
            client_secret: string('client_secret_post.'),
          },
          ['grant_type'],
        ),
        responses: {
          200: { description: 'Tokens', content: json(tokenResponse(features.dPoP)) },
          400: error(
            `invalid_request, invalid_grant, unsupported_grant_type, invalid_scope${features.deviceFlow ? '; device_code: authorization_pending, slow_down, expired_token, access_denied' : ''}${features.dPoP ? '; invalid_dpop_proof, use_dpop_nonce' : ''}.`,
          ),
          401: error('invalid_client: unknown client or wrong credentials.', { 'WWW-Authenticate': bearerChallenge['WWW-Authenticate'] }),
        },
      },
    },
    [routes.userinfo]: Object.fromEntries(
      (['get', 'post'] as const).map((method) => [
        method,
        {
          operationId: method === 'get' ? 'userinfo' : 'userinfoPost',
          tags: ['tokens'],
          summary: 'UserInfo endpoint (OIDC Core §5.3)',
          security: tokenHolder,
          parameters: dpopHeader,
          responses: {
            200: { description: 'The claims', content: json(userInfo) },
            401: error('invalid_token: missing, expired, revoked, or presented without its DPoP proof.', bearerChallenge),
          },
        },
      ]),
    ),
    [routes.introspection]: {
      post: {
        operationId: 'introspect',
        tags: ['tokens'],
        summary: 'Token introspection (RFC 7662)',
        security: clientAuth,
        requestBody: form({ token: string('The token.'), token_type_hint: string('access_token or refresh_token.') }, ['token']),
        responses: {
          200: { description: 'What the token is', content: json(introspectionResponse) },
          400: error('invalid_request: no token.'),
          401: error('invalid_client.'),
        },
      },
    },
    [routes.revocation]: {
      post: {
        operationId: 'revoke',
        tags: ['tokens'],
        summary: 'Token revocation (RFC 7009)',
        security: publicOrClientAuth,
        requestBody: form({ token: string('The token.'), token_type_hint: string('access_token or refresh_token.') }, ['token']),
        responses: {
          200: { description: 'Revoked, or nothing to revoke (RFC 7009 §2.2): an empty body.' },
          400: error('invalid_request: no token.'),
          401: error('invalid_client.'),
        },
      },
    },
    '/interaction/{uid}': {
      get: {
        operationId: 'interaction',
        tags: ['interaction'],
        summary: 'The interaction entry: the sign-in or consent step of one authorization request',
        parameters: [{ name: 'uid', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 200: { description: 'The page of the current step, or one saying the request expired and how to start again.', content: html } },
      },
    },
    '/interaction/{uid}/confirm': {
      post: {
        operationId: 'interactionConfirm',
        tags: ['interaction'],
        summary: "The consent form's Allow",
        description: 'A form the interaction page posts, with the Origin of this issuer.',
        parameters: [{ name: 'uid', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 303: { description: 'Back to the authorization endpoint to finish, or to the interaction page with the error.', headers: location } },
      },
    },
    [routes.end_session]: {
      // GET only: oidc-provider 9 serves RP-initiated logout as a GET; its confirmation form posts to /oauth/logout/confirm.
      get: {
        operationId: 'logout',
        tags: ['logout'],
        summary: 'RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0 §2)',
        parameters: ['id_token_hint', 'client_id', 'post_logout_redirect_uri', 'state', 'ui_locales', 'logout_hint'].map((name) => ({
          name,
          in: 'query',
          required: false,
          schema: { type: 'string' },
        })),
        responses: {
          200: { description: 'The page asking the person to confirm signing out.', content: html },
          400: error('invalid_request: a bad id_token_hint, or a post_logout_redirect_uri the client did not register.'),
        },
      },
    },
  };

  if (features.deviceFlow) {
    paths[routes.device_authorization] = {
      post: {
        operationId: 'deviceAuthorization',
        tags: ['device'],
        summary: 'Device authorization (RFC 8628 §3.1)',
        security: publicOrClientAuth,
        requestBody: form({ client_id: string('The client.'), scope: string('The scopes asked for.') }, []),
        responses: {
          200: { description: 'The codes; the device then polls the token endpoint with grant_type device_code.', content: json(deviceAuthorizationResponse) },
          400: error('invalid_request, invalid_scope, or a client without the device_code grant (unauthorized_client).'),
          401: error('invalid_client.'),
        },
      },
    };
    paths[routes.code_verification] = {
      get: {
        operationId: 'deviceVerification',
        tags: ['device'],
        summary: 'Where the person types the user code (RFC 8628 §3.3)',
        parameters: [{ name: 'user_code', in: 'query', required: false, schema: { type: 'string' }, description: 'From verification_uri_complete.' }],
        responses: { 200: { description: 'The code entry, or the confirmation naming the app.', content: html } },
      },
      post: {
        operationId: 'deviceVerificationPost',
        tags: ['device'],
        summary: 'The user code typed or confirmed',
        responses: {
          200: { description: 'The confirmation, or the entry again saying why the code was refused.', content: html },
          429: { description: 'Too many wrong codes from this address; Retry-After says how long to wait.', content: html },
        },
      },
    };
  }

  if (features.pushedAuthorizationRequests) {
    paths[routes.pushed_authorization_request] = {
      post: {
        operationId: 'pushedAuthorizationRequest',
        tags: ['authorization'],
        summary: 'Pushed authorization request (RFC 9126)',
        security: publicOrClientAuth,
        requestBody: form(Object.fromEntries(authorizationParameters.filter(([name]) => name !== 'request_uri').map(([name, , d]) => [name, string(d)])), [
          'client_id',
        ]),
        responses: {
          201: { description: 'The request_uri to send to the authorization endpoint', content: json(pushedAuthorizationResponse) },
          400: error('invalid_request, invalid_redirect_uri, invalid_scope, invalid_request_object.'),
          401: error('invalid_client.'),
        },
      },
    };
  }

  if (registration !== 'off') {
    const registrationSecurity = registration === 'token' ? [{ bearer: [] }] : [{ bearer: [] }, {}];
    paths[routes.registration] = {
      post: {
        operationId: 'register',
        tags: ['registration'],
        summary: 'Dynamic client registration (RFC 7591)',
        description:
          registration === 'token'
            ? 'Needs an initial access token an admin issued, as a Bearer token; the client is registered within its limits.'
            : 'Open: an initial access token is optional; registrations without one are counted per source address.',
        security: registrationSecurity,
        requestBody: { required: true, content: json(clientMetadata, 'input') },
        responses: {
          201: { description: "Registered (perhaps waiting for an admin's approval)", content: json(clientInformation) },
          400: error("invalid_client_metadata or invalid_redirect_uri, e.g. past the initial access token's limits."),
          401: error('invalid_token: no, an unknown, expired or used-up initial access token.', bearerChallenge),
        },
      },
    };
    const clientId = [{ name: 'client_id', in: 'path', required: true, schema: { type: 'string' } }];
    const managed = (operationId: string, summary: string, ok: Json, extra: Json = {}) => ({
      operationId,
      tags: ['registration'],
      summary,
      security: [{ bearer: [] }],
      parameters: clientId,
      ...extra,
      responses: { ...ok, 401: error("invalid_token: not this client's registration access token.", bearerChallenge) },
    });
    paths[`${routes.registration}/{client_id}`] = {
      get: managed('readRegistration', 'Read a registration (RFC 7592 §2.1)', { 200: { description: 'OK', content: json(clientInformation) } }),
      put: managed(
        'updateRegistration',
        'Replace a registration (RFC 7592 §2.2)',
        { 200: { description: 'OK', content: json(clientInformation) }, 400: error('invalid_client_metadata or invalid_redirect_uri.') },
        { requestBody: { required: true, content: json(clientMetadata, 'input') } },
      ),
      delete: managed('deleteRegistration', 'Delete a registration (RFC 7592 §2.3)', { 204: { description: 'Deleted' } }),
    };
  }

  return {
    openapi: '3.1.1',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Gatehouse OpenID Connect endpoints',
      version: '1',
      description:
        'The protocol endpoints of this instance, as discovery lists them (/.well-known/openid-configuration); endpoints that are off here are absent. ' +
        'Errors are {"error", "error_description"} in the RFCs\' words. The admin API has its own document at /api/admin/openapi.json.',
    },
    servers: [{ url: issuer }],
    tags: [
      { name: 'discovery', description: 'Provider metadata and keys.' },
      { name: 'authorization', description: 'Starting a sign-in.' },
      { name: 'interaction', description: 'The pages a person signs in and consents on.' },
      { name: 'tokens', description: 'Tokens and what they stand for.' },
      { name: 'logout', description: 'Signing out.' },
      ...(features.deviceFlow ? [{ name: 'device', description: 'The device authorization grant (RFC 8628).' }] : []),
      ...(registration !== 'off' ? [{ name: 'registration', description: 'Dynamic client registration (RFC 7591, RFC 7592).' }] : []),
    ],
    paths,
    components: {
      schemas: components.schemas,
      securitySchemes: {
        clientSecretBasic: { type: 'http', scheme: 'basic', description: 'client_secret_basic (RFC 6749 §2.3.1): client_id and client_secret, form-encoded.' },
        clientSecretPost: {
          // OpenAPI has no scheme for credentials in a form body; the body schemas carry client_id and client_secret.
          type: 'apiKey',
          in: 'query',
          name: 'client_secret',
          'x-gatehouse-in': 'body',
          description: 'client_secret_post (RFC 6749 §2.3.1): client_id and client_secret as fields of the form body, never in the query.',
        },
        none: {
          type: 'apiKey',
          in: 'query',
          name: 'client_id',
          'x-gatehouse-in': 'body',
          description: 'A public client: client_id in the form body and PKCE.',
        },
        bearer: { type: 'http', scheme: 'bearer', description: 'An access token (RFC 6750), or for registration an initial or registration access token.' },
        ...(features.dPoP
          ? {
              dpop: {
                type: 'http',
                scheme: 'DPoP',
                description: 'A DPoP-bound access token (RFC 9449 §7.1) with a DPoP proof header; the server asks for its nonce (use_dpop_nonce).',
              },
            }
          : {}),
      },
    },
  };
}
