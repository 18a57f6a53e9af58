/**
 * The kinds of application an admin registers, each with the settings it needs and only the fields it can use:
 * the client form's first step (components/admin/client-form.tsx). A preset sets defaults and narrows what is
 * offered; `newClientSchema` (lib/clients/manage.ts) still decides what is valid, so a preset can never let
 * through what the schema refuses. `custom` is the whole form, every setting, as it was before presets.
 * Plain data, no request read.
 */
import type { ClientRecord } from '../../clients/repository.ts';
import type { ClientFormValues } from './client-fields.ts';

export const CLIENT_PRESETS = ['web', 'spa', 'native', 'machine', 'api'] as const;
export type ClientPreset = (typeof CLIENT_PRESETS)[number];
export type ClientKind = ClientPreset | 'custom';

const GRANTS = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
/** RFC 8628: offered on the whole form only (a TV or CLI app is registered as a custom client). */
const DEVICE_CODE = 'urn:ietf:params:oauth:grant-type:device_code';
const SCOPES = ['openid', 'profile', 'email', 'offline_access', 'introspect', 'admin'] as const;
type Grant = (typeof GRANTS)[number] | typeof DEVICE_CODE;
type Scope = (typeof SCOPES)[number];

/** The protocol features (PAR, JAR, DPoP, pairwise) off: a new client starts so, and a kind that signs no one in stays so. */
export const PROTOCOL_FEATURES_OFF = {
  requirePushedAuthorizationRequests: false,
  requestObjectSigningAlg: '',
  jwks: '',
  dpopBoundAccessTokens: false,
  subjectType: 'public',
  sectorIdentifierUri: '',
} as const satisfies Partial<ClientFormValues>;

/** What the form shows for a kind: the type it fixes (or the person's choice), the grants and scopes it offers, the field groups it can use. */
export interface ClientLayout {
  kind: ClientKind;
  /** Fixed by the kind; undefined: the person chooses (custom). */
  type?: 'confidential' | 'public';
  grantTypes: readonly Grant[];
  scopes: readonly Scope[];
  /** Redirect and post-logout URIs: only apps that send people through the browser have them. */
  redirects: boolean;
  /** The token endpoint's authentication method: only for a client with a secret. */
  authMethod: boolean;
  /** What shows on the sign-in and consent screens and how people sign in: logo, first party, second factor, ID token alg. */
  people: boolean;
  resourceServer: boolean;
  adminApi: boolean;
  /** Native apps: custom-scheme and loopback redirect URIs (RFC 8252 §7), the form's hint says so. */
  nativeRedirects: boolean;
}

const signIn = { redirects: true, people: true, resourceServer: false, adminApi: false, nativeRedirects: false } as const;
/** A public app that signs people in: code flow with PKCE, no client_credentials (it has no secret). */
const browserSignIn = {
  type: 'public',
  grantTypes: ['authorization_code', 'refresh_token'],
  scopes: ['openid', 'profile', 'email', 'offline_access'],
  authMethod: false,
  ...signIn,
} as const;
const noPeople = { redirects: false, people: false, nativeRedirects: false } as const;

export const CLIENT_LAYOUTS: Record<ClientKind, ClientLayout> = {
  // A server-side app: it keeps a secret, signs people in with the code flow and keeps them signed in.
  web: { kind: 'web', type: 'confidential', grantTypes: GRANTS, scopes: ['openid', 'profile', 'email', 'offline_access'], authMethod: true, ...signIn },
  // In the browser nothing stays secret (RFC 9700 §2.1.1): public, code flow with PKCE, no client_credentials.
  spa: { kind: 'spa', ...browserSignIn },
  // A desktop or phone app: public too, its redirect URIs a private-use scheme or loopback (RFC 8252 §7).
  native: { kind: 'native', ...browserSignIn, nativeRedirects: true },
  // A service calling APIs as itself (RFC 6749 §4.4): no person, no redirect.
  machine: {
    kind: 'machine',
    type: 'confidential',
    grantTypes: ['client_credentials'],
    scopes: ['openid', 'admin'],
    authMethod: true,
    ...noPeople,
    resourceServer: false,
    adminApi: true,
  },
  // An API checking the tokens it receives at /oauth/introspect (RFC 7662) with its own credentials.
  api: {
    kind: 'api',
    type: 'confidential',
    grantTypes: ['client_credentials'],
    scopes: ['introspect'],
    authMethod: true,
    ...noPeople,
    resourceServer: true,
    adminApi: false,
  },
  custom: {
    kind: 'custom',
    grantTypes: [...GRANTS, DEVICE_CODE],
    scopes: SCOPES,
    authMethod: true,
    redirects: true,
    people: true,
    resourceServer: true,
    adminApi: true,
    nativeRedirects: false,
  },
};

export function isClientKind(value: unknown): value is ClientKind {
  return typeof value === 'string' && Object.hasOwn(CLIENT_LAYOUTS, value);
}

/** What a kind starts with: only what it offers, and the defaults its kind of app wants. */
const DEFAULTS: Record<ClientPreset, Pick<ClientFormValues, 'grantTypes' | 'scopes' | 'resourceServer' | 'adminApi'>> = {
  web: {
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    resourceServer: false,
    adminApi: false,
  },
  spa: { grantTypes: ['authorization_code'], scopes: ['openid', 'profile', 'email'], resourceServer: false, adminApi: false },
  native: {
    grantTypes: ['authorization_code', 'refresh_token'],
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    resourceServer: false,
    adminApi: false,
  },
  machine: { grantTypes: ['client_credentials'], scopes: ['openid'], resourceServer: false, adminApi: false },
  api: { grantTypes: ['client_credentials'], scopes: ['introspect'], resourceServer: true, adminApi: false },
};

/** A new client's form values for `kind`, from the base values (clientFormValues()). */
export function presetValues(kind: ClientKind, base: ClientFormValues): ClientFormValues {
  if (kind === 'custom') return base;
  const layout = CLIENT_LAYOUTS[kind];
  return { ...base, type: layout.type ?? base.type, ...DEFAULTS[kind] };
}

/**
 * The submitted values kept to what the kind offers: a field the form did not show cannot arrive from it,
 * and one sent anyway (a crafted request) is dropped rather than registered.
 */
export function withinLayout(values: ClientFormValues, layout: ClientLayout): ClientFormValues {
  return {
    ...values,
    type: layout.type ?? values.type,
    grantTypes: values.grantTypes.filter((g) => (layout.grantTypes as readonly string[]).includes(g)),
    scopes: values.scopes.filter((s) => (layout.scopes as readonly string[]).includes(s)),
    redirectUris: layout.redirects ? values.redirectUris : '',
    postLogoutRedirectUris: layout.redirects ? values.postLogoutRedirectUris : '',
    tokenEndpointAuthMethod: layout.authMethod ? values.tokenEndpointAuthMethod : '',
    logoUri: layout.people ? values.logoUri : '',
    firstParty: layout.people ? values.firstParty : false,
    requireSecondFactor: layout.people ? values.requireSecondFactor : false,
    // Logout tokens end a person's session at the app: only an app people sign in to has one.
    backchannelLogoutUri: layout.people ? values.backchannelLogoutUri : '',
    backchannelLogoutSessionRequired: layout.people ? values.backchannelLogoutSessionRequired : false,
    resourceServer: layout.kind === 'api' ? true : layout.resourceServer ? values.resourceServer : false,
    adminApi: layout.adminApi ? values.adminApi : false,
    // The protocol features (PAR, JAR, DPoP, pairwise) belong to apps that sign people in.
    ...(layout.people ? {} : PROTOCOL_FEATURES_OFF),
  };
}

/**
 * The kind a registered client is, read from its settings (for its page's quickstart): a client without
 * authorization_code serves no person (an API or a service); with it, a public client is a native app when a
 * redirect URI is not http(s) or is a loopback one, otherwise a browser app.
 */
export function kindOf(client: Pick<ClientRecord, 'confidential' | 'grantTypes' | 'redirectUris' | 'resourceServer' | 'applicationType'>): ClientPreset {
  if (!client.grantTypes.includes('authorization_code')) return client.resourceServer ? 'api' : 'machine';
  if (client.confidential) return 'web';
  const loopback = (uri: string) => /^http:\/\/(?:127\.0\.0\.1|\[::1\])(?:[:/]|$)/.test(uri);
  return client.applicationType === 'native' || client.redirectUris.some(loopback) ? 'native' : 'spa';
}
