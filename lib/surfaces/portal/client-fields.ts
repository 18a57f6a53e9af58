/**
 * The client form of the admin portal, as plain data: FormData in, the input
 * of `newClientSchema` (lib/clients/manage.ts, the one schema for the CLI and
 * the portal) out; its fields, for `formProblems` (lib/platform/forms.ts) to put
 * that schema's issues under, as codes the form words in the page's language. Nothing here is secret: a client secret is never
 * typed into a form.
 */
import type { ClientRecord } from '../../clients/repository.ts';
import { DEFAULT_ID_TOKEN_SIGNING_ALG } from '../../oidc/algorithms.ts';
import { clientInputFields } from '../../clients/fields.ts';
import { registrationOf } from '../../clients/wire.ts';
import type { NewClientInput } from '../../clients/manage.ts';
import type { FieldProblems } from '../../platform/forms.ts';
import { CLIENT_LAYOUTS, isClientKind, type ClientKind, PROTOCOL_FEATURES_OFF, withinLayout } from './client-presets.ts';

/** What the form shows: the same names as the schema, lists as the text the person typed. */
export interface ClientFormValues {
  name: string;
  type: 'confidential' | 'public';
  redirectUris: string;
  postLogoutRedirectUris: string;
  grantTypes: string[];
  scopes: string[];
  tokenEndpointAuthMethod: string;
  logoUri: string;
  firstParty: boolean;
  resourceServer: boolean;
  adminApi: boolean;
  /** The admin role an admin-API client acts with; the schema checks it against the list. */
  adminRole: string;
  idTokenSignedResponseAlg: string;
  requireSecondFactor: boolean;
  backchannelLogoutUri: string;
  backchannelLogoutSessionRequired: boolean;
  requirePushedAuthorizationRequests: boolean;
  requestObjectSigningAlg: string;
  jwks: string;
  dpopBoundAccessTokens: boolean;
  subjectType: string;
  sectorIdentifierUri: string;
}

export const clientFields: ReadonlyArray<keyof ClientFormValues> = clientInputFields;

/** Problems by field; `form` holds any that belong to no one field. */
export type ClientFieldProblems = FieldProblems<keyof ClientFormValues>;

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};
const lines = (value: string) =>
  value
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * What only a confidential client may have, so the form offers it only for one
 * (components/admin/client-form.tsx hides it when Public is chosen, without
 * JavaScript): it needs a secret to authenticate with (RFC 6749 §2.1, §4.4).
 */
export const CONFIDENTIAL_ONLY = {
  grantTypes: ['client_credentials'],
  scopes: ['introspect', 'admin'],
  tokenEndpointAuthMethods: ['client_secret_basic', 'client_secret_post'],
} as const;

const offered = (list: readonly string[]) => (value: string) => !list.includes(value);

/**
 * A public client's form drops what it was never offered: boxes ticked while
 * Confidential was chosen stay in the page, hidden, when the person switches
 * to Public. The schema still refuses them from any other surface.
 */
function publicOnly(values: ClientFormValues): ClientFormValues {
  if (values.type !== 'public') return values;
  return {
    ...values,
    grantTypes: values.grantTypes.filter(offered(CONFIDENTIAL_ONLY.grantTypes)),
    scopes: values.scopes.filter(offered(CONFIDENTIAL_ONLY.scopes)),
    tokenEndpointAuthMethod: offered(CONFIDENTIAL_ONLY.tokenEndpointAuthMethods)(values.tokenEndpointAuthMethod) ? values.tokenEndpointAuthMethod : '',
    resourceServer: false,
    adminApi: false,
  };
}

/** The application kind a create form was for (client-presets.ts); anything else is the whole form. */
export function readClientKind(form: FormData): ClientKind {
  const kind = form.get('kind');
  return isClientKind(kind) ? kind : 'custom';
}

/**
 * `type` fixes the client type on edit (it cannot change); on create it comes from the form, or from the
 * application kind the form was for, which also drops whatever that kind does not offer.
 */
export function readClientForm(form: FormData, type?: 'confidential' | 'public'): { values: ClientFormValues; input: NewClientInput; kind: ClientKind } {
  const kind = type ? 'custom' : readClientKind(form);
  const layout = CLIENT_LAYOUTS[kind];
  const chosen = layout.type ?? (text(form, 'type') === 'public' ? 'public' : 'confidential');
  const raw: ClientFormValues = {
    name: text(form, 'name').slice(0, 200),
    type: type ?? chosen,
    redirectUris: text(form, 'redirectUris').slice(0, 10_000),
    postLogoutRedirectUris: text(form, 'postLogoutRedirectUris').slice(0, 10_000),
    grantTypes: form.getAll('grantTypes').filter((v) => typeof v === 'string'),
    scopes: form.getAll('scopes').filter((v) => typeof v === 'string'),
    tokenEndpointAuthMethod: text(form, 'tokenEndpointAuthMethod'),
    logoUri: text(form, 'logoUri').trim().slice(0, 2_000),
    firstParty: form.get('firstParty') === 'on',
    resourceServer: form.get('resourceServer') === 'on',
    adminApi: form.get('adminApi') === 'on',
    adminRole: text(form, 'adminRole').slice(0, 20),
    idTokenSignedResponseAlg: text(form, 'idTokenSignedResponseAlg').slice(0, 20),
    requireSecondFactor: form.get('requireSecondFactor') === 'on',
    backchannelLogoutUri: text(form, 'backchannelLogoutUri').trim().slice(0, 2_000),
    backchannelLogoutSessionRequired: form.get('backchannelLogoutSessionRequired') === 'on',
    requirePushedAuthorizationRequests: form.get('requirePushedAuthorizationRequests') === 'on',
    requestObjectSigningAlg: text(form, 'requestObjectSigningAlg').slice(0, 20),
    jwks: text(form, 'jwks').trim().slice(0, 20_000),
    dpopBoundAccessTokens: form.get('dpopBoundAccessTokens') === 'on',
    subjectType: text(form, 'subjectType') === 'pairwise' ? 'pairwise' : 'public',
    sectorIdentifierUri: text(form, 'sectorIdentifierUri').trim().slice(0, 2_000),
  };
  const values = publicOnly(withinLayout(raw, { ...layout, type: raw.type }));
  const input: NewClientInput = {
    name: values.name,
    type: values.type,
    redirectUris: lines(values.redirectUris),
    postLogoutRedirectUris: lines(values.postLogoutRedirectUris),
    // The schema checks each value against its closed list.
    grantTypes: values.grantTypes as NewClientInput['grantTypes'],
    scopes: values.scopes as NewClientInput['scopes'],
    tokenEndpointAuthMethod: (values.tokenEndpointAuthMethod || undefined) as NewClientInput['tokenEndpointAuthMethod'],
    logoUri: values.logoUri || null,
    firstParty: values.firstParty,
    resourceServer: values.resourceServer,
    adminApi: values.adminApi,
    // Left out: `admin` on create, the client's own on edit (updateClient).
    adminRole: (values.adminRole || undefined) as NewClientInput['adminRole'],
    // Left out: the default on create, the client's own on edit (updateClient).
    idTokenSignedResponseAlg: (values.idTokenSignedResponseAlg || undefined) as NewClientInput['idTokenSignedResponseAlg'],
    requireSecondFactor: values.requireSecondFactor,
    backchannelLogoutUri: values.backchannelLogoutUri || null,
    backchannelLogoutSessionRequired: values.backchannelLogoutSessionRequired,
    requirePushedAuthorizationRequests: values.requirePushedAuthorizationRequests,
    requestObjectSigningAlg: (values.requestObjectSigningAlg || null) as NewClientInput['requestObjectSigningAlg'],
    jwks: values.jwks || null,
    dpopBoundAccessTokens: values.dpopBoundAccessTokens,
    subjectType: values.subjectType as NewClientInput['subjectType'],
    sectorIdentifierUri: values.sectorIdentifierUri || null,
  };
  return { values, input, kind };
}

/** The form's starting values: a new client, or the client being edited. */
export function clientFormValues(client?: ClientRecord): ClientFormValues {
  if (!client) {
    return {
      name: '',
      type: 'confidential',
      redirectUris: '',
      postLogoutRedirectUris: '',
      grantTypes: ['authorization_code', 'refresh_token'],
      scopes: ['openid', 'profile', 'email', 'offline_access'],
      tokenEndpointAuthMethod: '',
      logoUri: '',
      firstParty: false,
      resourceServer: false,
      adminApi: false,
      adminRole: 'admin',
      idTokenSignedResponseAlg: DEFAULT_ID_TOKEN_SIGNING_ALG,
      requireSecondFactor: false,
      backchannelLogoutUri: '',
      backchannelLogoutSessionRequired: false,
      ...PROTOCOL_FEATURES_OFF,
    };
  }
  const registered = registrationOf(client);
  return {
    ...registered,
    redirectUris: registered.redirectUris.join('\n'),
    postLogoutRedirectUris: registered.postLogoutRedirectUris.join('\n'),
    logoUri: registered.logoUri ?? '',
    backchannelLogoutUri: registered.backchannelLogoutUri ?? '',
    requestObjectSigningAlg: registered.requestObjectSigningAlg ?? '',
    jwks: registered.jwks ?? '',
    sectorIdentifierUri: registered.sectorIdentifierUri ?? '',
  };
}
