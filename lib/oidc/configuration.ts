/**
 * oidc-provider's configuration. Every option we set says why; everything not
 * set here keeps the library's default (documented in oidc-provider's
 * docs/README.md under the same name).
 */
import type { Configuration, JWK, KoaContextWithOIDC } from 'oidc-provider';
import { errors } from 'oidc-provider';
import type { Database } from '../db/database.ts';
import { accountCacheKey, findAccount, type AccountRecord } from '../users/repository.ts';
import { findClient } from '../clients/repository.ts';
import type { Metrics } from '../ops/metrics.ts';
import { adapterFor } from './adapter.ts';
import type { Brand } from '../config/brand.ts';
import { providerPages } from './html.ts';
import { renderErrorPage, renderLogoutPage, renderSignedOutPage } from './provider-pages.ts';
import type { Locale } from '../i18n/locale.ts';
import { existingGrantLoader } from './grants.ts';
import { isConfidentialResourceServer, trustViolations, type TrustViolation } from './client-policy.ts';
import { acrValuesFor } from './authentication-context.ts';
import { interactionPolicyWithStepUp } from './step-up.ts';
import { promptValues, withAccountChoice } from './select-account.ts';
import { ADMIN_SCOPE, INTROSPECT_SCOPE, SUPPORTED_SCOPES } from './scopes.ts';
import { ID_TOKEN_TTL } from './signed-lifetimes.ts';
import { apiTokenClaims, resourceIndicators } from './resource-indicators.ts';
import { AUTHORIZATION_SCOPES, authorizationClaims } from '../authorization/claims.ts';
import { mappedClaims } from '../claims/repository.ts';
import { MAPPED } from './mapped-claims.ts';
import { accessOf } from '../authorization/repository.ts';
import { registrationFeatures, type RegistrationMode } from './registration.ts';
import type { Throttle } from '../platform/throttle.ts';
import { clientMetadataWithin, NO_PROTOCOL_FEATURES, protocolFeatureConfiguration, type ProtocolFeatures, type ProtocolSecrets } from './protocol-features.ts';

const trustMessages: Record<TrustViolation, string> = {
  public_resource_server: 'only confidential clients can be resource servers',
  introspect_without_resource_server: `only resource servers may be allowed the ${INTROSPECT_SCOPE} scope`,
  introspect_with_user_grant: `the ${INTROSPECT_SCOPE} scope is for the client_credentials grant only`,
};

export interface ProviderSettings {
  issuer: string;
  db: Database;
  jwks: JWK[];
  cookieKeys: string[];
  accessTokenTtl: number;
  refreshTokenTtl: number;
  sessionTtl: number;
  /** A session signed in without "Keep me signed in" (transient): its idle limit; sessionTtl when not given. */
  sessionIdleTtl?: number;
  /** Times the storage adapter's calls (lib/ops/metrics.ts); the bench's bare configuration has none. */
  metrics?: Pick<Metrics, 'storageCall'>;
  /** The context's clock (lib/context.ts), for the storage adapter. */
  now: () => number;
  /** The operator's brand on the provider's own pages (logout, errors). */
  brand: Brand;
  /** The language of those pages when neither ui_locales nor Accept-Language names one we have (DEFAULT_LOCALE); English if not given. */
  defaultLocale?: Locale;
  /** EMAIL_SIGN_IN_CODES is on: its acr is listed too. */
  emailSignInCodes?: boolean;
  /** GROUPS_ROLES_CLAIMS is on: the `groups` and `roles` scopes and claims exist (lib/authorization/claims.ts). */
  groupsRolesClaims?: boolean;
  /** BACKCHANNEL_LOGOUT is on (lib/oidc/backchannel-logout.ts). */
  backchannelLogout?: boolean;
  /** DYNAMIC_REGISTRATION (lib/oidc/registration.ts); off when not given. */
  dynamicRegistration?: RegistrationMode;
  /** The protocol features the operator turned on (lib/oidc/protocol-features.ts); none when not given. */
  protocol?: ProtocolFeatures;
  /** Their shared secrets, for the ones that are on. */
  protocolSecrets?: ProtocolSecrets;
  /** Counts wrong device user codes against their source (lib/oidc/device-pages.ts); the bench's bare configuration has none. */
  throttle?: Pick<Throttle, 'linkFailed'>;
}

/** Mount points of the provider's endpoints: everything under /oauth (discovery stays at /.well-known). */
export const routes = {
  authorization: '/oauth/authorize',
  token: '/oauth/token',
  userinfo: '/oauth/userinfo',
  jwks: '/oauth/jwks',
  introspection: '/oauth/introspect',
  revocation: '/oauth/revoke',
  end_session: '/oauth/logout',
  pushed_authorization_request: '/oauth/par',
  code_verification: '/oauth/device',
  device_authorization: '/oauth/device/auth',
  backchannel_authentication: '/oauth/backchannel',
  registration: '/oauth/register',
  challenge: '/oauth/challenge',
  credential: '/oauth/credential',
} as const;

/**
 * The provider asks for the account twice on a code redemption or a refresh
 * (findAccount for the claims, extraTokenClaims for the token): one read per
 * request, remembered on the request's context and gone with it. On PostgreSQL
 * the read goes through the process's cache (lib/db/read-cache.ts), which every
 * change to the `users` row, made anywhere, empties within milliseconds.
 */
function accountReader(db: Database) {
  const perRequest = new WeakMap<object, Map<string, Promise<AccountRecord | undefined>>>();
  // A copy for each caller: the cached record is shared.
  const read = (id: string) => db.cache.read(accountCacheKey(id), () => findAccount(db, id)).then((account) => account && { ...account });
  return (ctx: object | undefined, id: string) => {
    if (!ctx) return read(id);
    let accounts = perRequest.get(ctx);
    if (!accounts) perRequest.set(ctx, (accounts = new Map()));
    let account = accounts.get(id);
    if (!account) accounts.set(id, (account = read(id)));
    return account;
  };
}

/** An account's claims, under the names `claims` below groups by scope (OIDC Core §5.1); absent values are left out. */
export function accountClaims(account: AccountRecord) {
  return {
    sub: account.id,
    name: account.name ?? undefined,
    given_name: account.givenName ?? undefined,
    family_name: account.familyName ?? undefined,
    picture: account.picture ?? undefined,
    locale: account.locale ?? undefined,
    zoneinfo: account.zoneinfo ?? undefined,
    preferred_username: account.username,
    updated_at: account.updatedAt,
    email: account.email ?? undefined,
    email_verified: account.email ? account.emailVerified : undefined,
    phone_number: account.phoneNumber ?? undefined,
    phone_number_verified: account.phoneNumber ? account.phoneNumberVerified : undefined,
  };
}

export function providerConfiguration(settings: ProviderSettings): Configuration {
  const { db } = settings;
  const https = settings.issuer.startsWith('https:');
  const readAccount = accountReader(db);
  const groupsRoles = settings.groupsRolesClaims === true;
  // "Use another account" asks the login prompt again; prompt=select_account is a prompt of its own (lib/oidc/select-account.ts).
  const policy = withAccountChoice(interactionPolicyWithStepUp(db));
  const pageSettings = {
    pages: providerPages(settings.brand),
    brandName: settings.brand.name,
    defaultLocale: settings.defaultLocale ?? 'en',
    clientDisabled: async (clientId: string) => (await findClient(db, clientId))?.enabled === false,
  };
  const protocol = settings.protocol ?? NO_PROTOCOL_FEATURES;
  const {
    features: protocolFeatures,
    requestObjectSigningAlgValues,
    ...protocolOptions
  } = protocolFeatureConfiguration(
    protocol,
    settings.protocolSecrets ?? {},
    pageSettings,
    settings.throttle ?? { linkFailed: async () => ({ locked: false }) },
  );

  return {
    adapter: adapterFor(db, {
      now: settings.now,
      metrics: settings.metrics,
      clientMetadata: clientMetadataWithin(protocol),
      withheldScopes: groupsRoles ? undefined : new Set<string>(AUTHORIZATION_SCOPES),
    }),
    // Clients come from the database through the adapter (model "Client").
    clients: [],
    jwks: { keys: settings.jwks },
    cookies: {
      keys: settings.cookieKeys,
      // POST /oauth/authorize (OIDC Core §3.1.2.1) arrives as a cross-site form
      // post, which carries the session cookie only when it is SameSite=None;
      // browsers accept SameSite=None only with Secure, i.e. over https. On a
      // plain-http issuer the bridge turns such a POST into a GET instead.
      long: { sameSite: https ? 'none' : 'lax' },
      short: { sameSite: 'lax' },
    },
    enableHttpPostMethods: https,
    routes,
    // Only the authorization code flow: no implicit or hybrid (OAuth 2.0 Security BCP, RFC 9700 §2.1.2).
    responseTypes: ['code'],
    // PKCE with S256 for every client, confidential ones included (RFC 9700 §2.1.1).
    // oidc-provider refuses `plain` and a missing method by itself.
    pkce: { required: () => true },
    // No client_secret_jwt: secrets are stored hashed, so they cannot key an HMAC.
    clientAuthMethods: ['client_secret_basic', 'client_secret_post', 'none'],
    clientDefaults: {
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
      id_token_signed_response_alg: 'RS256',
    },
    // Asymmetric algorithms only, for the same reason as above.
    enabledJWA: {
      idTokenSigningAlgValues: ['RS256', 'ES256'],
      userinfoSigningAlgValues: ['RS256', 'ES256'],
      introspectionSigningAlgValues: ['RS256', 'ES256'],
      authorizationSigningAlgValues: ['RS256', 'ES256'],
      requestObjectSigningAlgValues,
    },
    // Subject types, pairwise subjects and the sector check (lib/oidc/protocol-features.ts).
    ...protocolOptions,
    // `groups` and `roles` only when turned on: discovery lists what exists.
    scopes: groupsRoles ? [...SUPPORTED_SCOPES, ...AUTHORIZATION_SCOPES] : [...SUPPORTED_SCOPES],
    // The acr values a sign-in can carry (lib/oidc/authentication-context.ts): password
    // only, or password and a second factor. Listed in discovery as acr_values_supported
    // (OpenID Connect Discovery 1.0 §3); every ID token carries the one that applied
    // and its RFC 8176 `amr`, from the login result of lib/sign-in/interactions.ts.
    acrValues: acrValuesFor(settings.emailSignInCodes ?? false),
    claims: {
      // acr and amr under openid: every ID token says how the person signed in
      // (lib/oidc/authentication-context.ts). As standalone claims the provider would
      // release them only when the claims parameter asks; UserInfo never has them
      // (the account's claims do not carry them).
      openid: ['sub', 'acr', 'amr'],
      // The standard profile claims the person and admins edit (lib/users/profile-claims.ts), OIDC Core §5.4.
      profile: ['name', 'given_name', 'family_name', 'picture', 'locale', 'zoneinfo', 'preferred_username', 'updated_at'],
      email: ['email', 'email_verified'],
      phone: ['phone_number', 'phone_number_verified'],
      // Listed in claims_supported only when on (OpenID Connect Discovery 1.0 §3).
      ...(groupsRoles ? authorizationClaims : {}),
    },
    extraClientMetadata: {
      // require_second_factor: every sign-in for the client ends with the mfa acr (lib/oidc/step-up.ts).
      properties: ['first_party', 'resource_server', 'admin_api', 'require_second_factor'],
      validator(_ctx, key, value, metadata) {
        // A client registering itself (lib/oidc/registration.ts) sends neither: it is no first party and no
        // resource server (RFC 7591 lets the server supply what a client left out).
        if ((key === 'first_party' || key === 'resource_server') && value === undefined) {
          metadata[key] = false;
          return;
        }
        const optional = key === 'admin_api' || key === 'require_second_factor';
        if ((key === 'first_party' || key === 'resource_server' || (optional && value !== undefined)) && typeof value !== 'boolean') {
          throw new errors.InvalidClientMetadata(`${key} must be a boolean`);
        }
        const scopes = String(metadata.scope ?? '').split(' ');
        // The trust rule of lib/oidc/client-policy.ts, in the provider's words: stored rows
        // arrive here already cut down to it (lib/clients/repository.ts), so this refuses only what
        // bypasses both (RFC 7591 §3.2.2 invalid_client_metadata).
        if (key === 'resource_server') {
          const confidential = (metadata.token_endpoint_auth_method ?? 'client_secret_basic') !== 'none';
          const [violation] = trustViolations({ confidential, grantTypes: metadata.grant_types ?? [], scopes, resourceServer: value === true });
          if (violation) throw new errors.InvalidClientMetadata(trustMessages[violation]);
        }
        // The admin scope is never in a person's token: only admin-API clients
        // hold it, and only with client_credentials (no code or refresh grant
        // that could carry it to a user's access token).
        if (key === 'admin_api' && scopes.includes(ADMIN_SCOPE)) {
          if (value !== true) throw new errors.InvalidClientMetadata(`only admin-API clients may be allowed the ${ADMIN_SCOPE} scope`);
          if ((metadata.grant_types ?? []).some((grant) => grant !== 'client_credentials')) {
            throw new errors.InvalidClientMetadata(`the ${ADMIN_SCOPE} scope is for the client_credentials grant only`);
          }
        }
      },
    },
    async findAccount(ctx, sub) {
      const account = await readAccount(ctx, sub);
      // A disabled user's existing tokens stop working at the next use.
      if (!account || account.disabled) return undefined;
      return {
        accountId: account.id,
        // The person's groups and roles are read only when the token asks for one of them.
        // The client's claim mapping (lib/claims) rides aside, added after the provider's filter (./mapped-claims.ts).
        claims: async (_use, scope) => ({
          ...accountClaims(account),
          ...(groupsRoles && /\b(groups|roles)\b/.test(scope) ? await accessOf(db, account.id) : {}),
          [MAPPED]: ctx?.oidc?.client ? await mappedClaims(db, ctx.oidc.client.clientId, account.id) : {},
        }),
      };
    },
    // RFC 7662 §2.2 lists `username`; the provider copies token extras into the introspection response.
    // An API's token (resource indicators) carries more: ./resource-indicators.ts apiTokenClaims.
    async extraTokenClaims(ctx, token) {
      const forApi = await apiTokenClaims(db, ctx, token as Parameters<typeof apiTokenClaims>[2]);
      if (!('accountId' in token) || !token.accountId) return forApi;
      const account = await readAccount(ctx, token.accountId as string);
      return account ? { username: account.username, ...forApi } : forApi;
    },
    // Refresh tokens for every client registered for the refresh_token grant,
    // not only when offline_access is requested: registering the grant is the ask.
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    loadExistingGrant: existingGrantLoader(db),
    interactions: {
      url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
      // The default login and consent prompts, and step-up: a password-only session asked
      // for the mfa acr (acr_values, or a client's require_second_factor) gets the code step.
      // With the account choice above.
      policy,
    },
    ttl: {
      // An API's token lives as long as the API says (lib/authorization); the userinfo token ACCESS_TOKEN_TTL.
      AccessToken: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? settings.accessTokenTtl,
      ClientCredentials: (_ctx, token) => token.resourceServer?.accessTokenTTL ?? settings.accessTokenTtl,
      // RFC 6749 §4.1.2 recommends at most 10 minutes; one is plenty for a redirect.
      AuthorizationCode: 60,
      // The previous signing key stays published this long after a rotation (./signed-lifetimes.ts).
      IdToken: ID_TOKEN_TTL,
      RefreshToken: settings.refreshTokenTtl,
      Grant: settings.refreshTokenTtl,
      // Saved, and so pushed back, at every use. A transient session (login `remember: false`, "Keep me
      // signed in" unticked) gets a cookie without Expires, which ends with the browser, and a short idle limit.
      Session: (_ctx, session) => (session.transient ? (settings.sessionIdleTtl ?? settings.sessionTtl) : settings.sessionTtl),
      Interaction: 3600,
      // RFC 8628 §3.2 expires_in: ten minutes to walk to another device and sign in.
      DeviceCode: 600,
    },
    // Added to oidc-provider's own discovery document (merged with its defaults). prompt_values_supported
    // (Initiating User Registration via OpenID Connect 1.0 §4.1, which defines it for all prompt values) is not
    // published by the provider: the prompts a request may name, from the policy, so select_account is listed.
    discovery: { prompt_values_supported: promptValues(policy) },
    features: {
      // The built-in login pages are for development only; ours live in app/interaction.
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      // APIs registered by admins (lib/authorization), named by `resource` (RFC 8707).
      resourceIndicators: resourceIndicators(db),
      // Device flow, PAR, JAR, DPoP and the claims parameter: each on only when the operator
      // turns it on (lib/oidc/protocol-features.ts), so discovery advertises exactly those.
      ...protocolFeatures,
      revocation: {
        enabled: true,
        // RFC 7009 §2.1: a client revokes only tokens issued to it.
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId,
      },
      userinfo: { enabled: true },
      introspection: {
        enabled: true,
        // A client may introspect its own tokens; a confidential resource server may
        // introspect any. Anyone else learns only {"active":false} (RFC 7662 §2.2: the
        // caller "is not allowed to introspect this particular token"); a public client
        // proves nothing but its client_id, so it is never a resource server (§2.1, §4).
        allowedPolicy: async (_ctx, client, token) => token.clientId === client.clientId || isConfidentialResourceServer(client),
      },
      // OpenID Connect Back-Channel Logout 1.0, when the operator turns it on: clients may register a
      // backchannel_logout_uri, discovery says backchannel_logout_supported, and the library's logout
      // queues a token per signed-in client (lib/oidc/backchannel-logout.ts). Off, the library drops the
      // clients' backchannel_logout_* metadata and lists nothing.
      backchannelLogout: { enabled: settings.backchannelLogout ?? false },
      // RFC 7591/7592 when the operator turns it on; discovery lists registration_endpoint only then.
      ...registrationFeatures(settings.dynamicRegistration ?? 'off', db),
      rpInitiatedLogout: {
        enabled: true,
        // The provider's own pages, in the person's language (lib/oidc/provider-pages.ts).
        logoutSource: (ctx, form) => renderLogoutPage(pageSettings, ctx, form),
        postLogoutSuccessSource: (ctx) => renderSignedOutPage(pageSettings, ctx),
      },
    },
    // Errors that cannot go back to the client (unknown client, unregistered
    // redirect_uri) are shown to the person, never redirected (RFC 6749 §4.1.2.1).
    // Plain words, a way back where one is safe, the request id; the protocol's words as a detail.
    renderError: (ctx, out, error) => renderErrorPage(pageSettings, ctx, out, error),
    clientBasedCORS(_ctx, origin, client) {
      // Browser-based clients may call token, userinfo, introspection and revocation
      // from their own origins: the http(s) origins of their redirect URIs. A
      // private-scheme URI (com.example.app:/cb) has an opaque origin, serialised as
      // "null" (RFC 6454 §4, §6.2), the Origin sandboxed frames and file: pages send
      // too (§7.1): never allowed.
      return corsOrigins(client.redirectUris ?? []).has(origin);
    },
  };
}

export type OidcContext = KoaContextWithOIDC;

/** The http(s) origins of a client's redirect URIs (RFC 6454 §4), without the opaque "null". */
export function corsOrigins(redirectUris: readonly string[]): Set<string> {
  const origins = new Set<string>();
  for (const uri of redirectUris) {
    const url = URL.parse(uri);
    if (url && (url.protocol === 'https:' || url.protocol === 'http:')) origins.add(url.origin);
  }
  return origins;
}
