/**
 * Client registration use cases. Validation follows RFC 7591 §2 and OAuth 2.0
 * Security BCP (RFC 9700 §2.1): exact redirect URIs, https except loopback,
 * no fragments; public clients authenticate with `none` and must use PKCE
 * (which the provider requires of every client anyway).
 */
import { adminRoleSchema, may, type AdminRole } from '../admin-roles/roles.ts';
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { destroyArtifactsOfClient } from '../db/artifacts.ts';
import {
  deleteClient as deleteClientRow,
  findClient,
  insertClient,
  listClients,
  searchClients,
  setClientEnabled,
  setClientSecretHash,
  updateClient as updateClientRow,
  type ClientRecord,
} from './repository.ts';
import { registrationFields } from './fields.ts';
import type { Database } from '../db/database.ts';
import { DEFAULT_ID_TOKEN_SIGNING_ALG, ID_TOKEN_SIGNING_ALGS } from '../oidc/algorithms.ts';
import { generateClientSecret, hashClientSecret } from '../oidc/client-secret.ts';
import { trustViolations, type TrustViolation } from '../oidc/client-policy.ts';
import { ADMIN_SCOPE, INTROSPECT_SCOPE, SUPPORTED_SCOPES } from '../oidc/scopes.ts';
import { recordAuditBy, type AuditBy } from '../audit/log.ts';
import { AUTHORIZATION_SCOPES } from '../authorization/claims.ts';
import { Conflict, Forbidden, NotFound, parseInput } from '../platform/errors.ts';
import { clientType } from './wire.ts';
import { SUBJECT_TYPES } from './repository.ts';
import { checkSectorIdentifier, DEVICE_CODE_GRANT, publicJwksSchema, REQUEST_OBJECT_SIGNING_ALGS, sectorIdentifierUriSchema } from './protocol-features.ts';

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

export const redirectUriSchema = z.string().superRefine((value, ctx) => {
  const url = URL.parse(value);
  // `params`: the refusal's code and its URI, for a page to word in its language (lib/platform/forms.ts issueProblem).
  if (!url) return void ctx.addIssue({ code: 'custom', message: `${value} is not an absolute URL`, params: { code: 'uri_not_absolute', uri: value } });
  if (url.hash || value.includes('#'))
    ctx.addIssue({ code: 'custom', message: `${value} must not have a fragment`, params: { code: 'uri_fragment', uri: value } });
  if (url.username || url.password)
    ctx.addIssue({ code: 'custom', message: `${value} must not carry credentials`, params: { code: 'uri_credentials', uri: value } });
  const loopbackHttp = url.protocol === 'http:' && loopbackHosts.has(url.hostname);
  const privateScheme = !['http:', 'https:'].includes(url.protocol) && /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol);
  if (url.protocol !== 'https:' && !loopbackHttp && !privateScheme) {
    ctx.addIssue({
      code: 'custom',
      message: `${value} must use https (http only for localhost, 127.0.0.1 and [::1])`,
      params: { code: 'uri_not_https', uri: value },
    });
  }
});

/**
 * backchannel_logout_uri (OpenID Connect Back-Channel Logout 1.0 §2.2): absolute, no fragment; Gatehouse posts
 * logout tokens to it, so https, or http on a loopback address (a relying party on the same machine).
 */
export const backchannelLogoutUriSchema = z.string().superRefine((value, ctx) => {
  const url = URL.parse(value);
  const loopbackHttp = url?.protocol === 'http:' && loopbackHosts.has(url.hostname);
  if (!url || url.hash || value.includes('#') || url.username || url.password || (url.protocol !== 'https:' && !loopbackHttp)) {
    ctx.addIssue({
      code: 'custom',
      message: `${value} must be an absolute https URL (http only for localhost, 127.0.0.1 and [::1]) without a fragment or credentials`,
      params: { code: 'backchannel_logout_uri', uri: value },
    });
  }
});

export const grantTypes = ['authorization_code', 'refresh_token', 'client_credentials', DEVICE_CODE_GRANT] as const;
/** The provider's scopes, and `groups` and `roles` (lib/authorization/claims.ts), which a client may be allowed before they are turned on. */
export const supportedScopes = [...SUPPORTED_SCOPES, ...AUTHORIZATION_SCOPES] as const;
export const idTokenSigningAlgs = ID_TOKEN_SIGNING_ALGS;

/** The registration field each broken trust rule is about, and what to tell the person (the violation is the problem code too). */
const trustIssues: Record<TrustViolation, { path: [string]; message: string }> = {
  public_resource_server: {
    path: ['resourceServer'],
    message: 'Only confidential clients can be resource servers (a public client has no secret to authenticate with)',
  },
  introspect_without_resource_server: { path: ['scopes'], message: `Only resource servers may have the ${INTROSPECT_SCOPE} scope` },
  introspect_with_user_grant: { path: ['grantTypes'], message: `A client with the ${INTROSPECT_SCOPE} scope uses the client_credentials grant only` },
};

/** A rule of the registration broken: its English message (the admin API, the CLI) and its problem code (the portal's form). */
const rule = (path: string, code: string, message: string) => ({ code: 'custom' as const, path: [path], message, params: { code } });

export const newClientSchema = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(128),
    type: z.enum(['confidential', 'public']).default('confidential'),
    redirectUris: z.array(redirectUriSchema).default([]),
    postLogoutRedirectUris: z.array(redirectUriSchema).default([]),
    grantTypes: z.array(z.enum(grantTypes)).min(1, 'Choose at least one grant type').default(['authorization_code', 'refresh_token']),
    scopes: z.array(z.enum(supportedScopes)).min(1, 'Choose at least one scope').default(['openid', 'profile', 'email', 'offline_access']),
    tokenEndpointAuthMethod: z.enum(['client_secret_basic', 'client_secret_post', 'none']).optional(),
    logoUri: z
      .url({ protocol: /^https$/, error: 'The logo URI must be an https URL' })
      .nullable()
      .default(null),
    firstParty: z.boolean().default(false),
    resourceServer: z.boolean().default(false),
    /** May call the admin JSON API (/api/admin) with a client_credentials token carrying the admin scope. */
    adminApi: z.boolean().default(false),
    /**
     * The admin role an admin-API client acts with (lib/admin-roles/roles.ts): `admin` when a new client
     * leaves it out; an update that leaves it out keeps the client's own (updateClient).
     */
    adminRole: adminRoleSchema.optional(),
    /**
     * JWS alg of the client's ID tokens (OIDC Dynamic Client Registration §2). New
     * clients get ES256 (faster to sign); RS256, that section's default,
     * stays for relying parties that accept nothing else (next-auth 4 unconfigured).
     * An update that leaves it out keeps the client's current one (updateClient).
     */
    idTokenSignedResponseAlg: z
      .enum(idTokenSigningAlgs, { error: `The ID token signing algorithm is one of ${idTokenSigningAlgs.join(', ')}` })
      .default(DEFAULT_ID_TOKEN_SIGNING_ALG),
    /** Every sign-in for the client ends with a second factor, as if it asked with acr_values (lib/oidc/step-up.ts). */
    requireSecondFactor: z.boolean().default(false),
    /** Where its logout tokens go when a session ends (lib/logout/); null: none are sent. */
    backchannelLogoutUri: backchannelLogoutUriSchema.nullable().default(null),
    /** Its logout tokens (and ID tokens) carry the session's sid. */
    backchannelLogoutSessionRequired: z.boolean().default(false),
    /** Authorization requests only by reference to a pushed one (RFC 9126 §6). */
    requirePushedAuthorizationRequests: z.boolean().default(false),
    /** Every request object signed with this alg, by a key in `jwks` (RFC 9101 §10.5, via RFC 7591 §2). */
    requestObjectSigningAlg: z
      .enum(REQUEST_OBJECT_SIGNING_ALGS, { error: `The request object signing algorithm is one of ${REQUEST_OBJECT_SIGNING_ALGS.join(', ')}` })
      .nullable()
      .default(null),
    /** The client's public keys as a JWK Set (RFC 7517 §5), JSON text. */
    jwks: publicJwksSchema.nullable().default(null),
    /** Access and refresh tokens bound to a DPoP key (RFC 9449 §5.2). */
    dpopBoundAccessTokens: z.boolean().default(false),
    subjectType: z.enum(SUBJECT_TYPES).default('public'),
    /** OIDC Core §8.1; fetched and checked when saved (checkSectorIdentifier). */
    sectorIdentifierUri: sectorIdentifierUriSchema.nullable().default(null),
  })
  .superRefine((c, ctx) => {
    const method = c.tokenEndpointAuthMethod ?? (c.type === 'public' ? 'none' : 'client_secret_basic');
    if (c.type === 'public' && method !== 'none')
      ctx.addIssue(rule('tokenEndpointAuthMethod', 'auth_method_public', 'A public client authenticates with none'));
    if (c.type === 'confidential' && method === 'none')
      ctx.addIssue(rule('tokenEndpointAuthMethod', 'auth_method_confidential', 'A confidential client needs client_secret_basic or client_secret_post'));
    if (c.grantTypes.includes('authorization_code') && c.redirectUris.length === 0)
      ctx.addIssue(rule('redirectUris', 'redirect_uri_needed', 'The authorization_code grant needs at least one redirect URI'));
    if (c.grantTypes.includes('refresh_token') && !c.grantTypes.includes('authorization_code') && !c.grantTypes.includes(DEVICE_CODE_GRANT))
      ctx.addIssue(rule('grantTypes', 'refresh_needs_code', 'The refresh_token grant only makes sense with authorization_code or the device code grant'));
    if (c.requirePushedAuthorizationRequests && !c.grantTypes.includes('authorization_code'))
      ctx.addIssue(rule('requirePushedAuthorizationRequests', 'par_needs_code', 'Pushed authorization requests are for the authorization_code grant'));
    if (c.requestObjectSigningAlg && !c.jwks)
      ctx.addIssue(rule('jwks', 'request_object_needs_jwks', "Signed request objects need the client's public keys (JWKS)"));
    if (c.subjectType === 'public' && c.sectorIdentifierUri)
      ctx.addIssue(rule('sectorIdentifierUri', 'sector_needs_pairwise', 'A sector identifier URI is for pairwise subjects only'));
    // OIDC Core §8.1: without a sector identifier URI the sector is the redirect URIs' one host.
    const hosts = new Set(c.redirectUris.map((uri) => URL.parse(uri)?.host));
    if (c.subjectType === 'pairwise' && !c.sectorIdentifierUri && hosts.size !== 1)
      ctx.addIssue(rule('sectorIdentifierUri', 'sector_needed', 'Pairwise subjects need a sector identifier URI unless every redirect URI has the same host'));
    if (c.type === 'public' && c.grantTypes.includes('client_credentials'))
      ctx.addIssue(rule('grantTypes', 'credentials_need_secret', 'The client_credentials grant needs a confidential client'));
    // Who may introspect others' tokens, and that the introspect scope never reaches a person's token (lib/oidc/client-policy.ts).
    for (const violation of trustViolations({
      confidential: c.type === 'confidential',
      grantTypes: c.grantTypes,
      scopes: c.scopes,
      resourceServer: c.resourceServer,
    })) {
      ctx.addIssue(rule(trustIssues[violation].path[0], violation, trustIssues[violation].message));
    }
    // The admin scope must never reach a person's token: no code or refresh grant beside it
    // (the provider's client metadata validator, lib/oidc/configuration.ts, says the same).
    if (c.scopes.includes(ADMIN_SCOPE) && !c.adminApi)
      ctx.addIssue(rule('scopes', 'admin_scope_without_admin_api', `Only admin-API clients may have the ${ADMIN_SCOPE} scope`));
    if (c.scopes.includes(ADMIN_SCOPE) && c.grantTypes.some((grant) => grant !== 'client_credentials')) {
      ctx.addIssue(rule('grantTypes', 'admin_scope_with_user_grant', `A client with the ${ADMIN_SCOPE} scope uses the client_credentials grant only`));
    }
  });

export type NewClientInput = z.input<typeof newClientSchema>;

/**
 * What every client stores of a validated registration, minus id and secret, whoever registers it: an admin
 * (clientFields) or the client itself (lib/registration/clients.ts, which sets no trust and no protocol feature).
 */
export function commonClientFields(c: z.output<typeof newClientSchema>) {
  return {
    name: c.name,
    redirectUris: c.redirectUris,
    postLogoutRedirectUris: c.postLogoutRedirectUris,
    grantTypes: c.grantTypes,
    scope: c.scopes.join(' '),
    tokenEndpointAuthMethod: c.tokenEndpointAuthMethod ?? (c.type === 'public' ? 'none' : 'client_secret_basic'),
    applicationType: c.redirectUris.some((u) => !u.startsWith('https:') && !u.startsWith('http:')) ? 'native' : 'web',
    logoUri: c.logoUri,
    idTokenSignedResponseAlg: c.idTokenSignedResponseAlg,
    requireSecondFactor: c.requireSecondFactor,
    backchannelLogoutUri: c.backchannelLogoutUri,
    backchannelLogoutSessionRequired: c.backchannelLogoutSessionRequired,
  };
}

/** What the provider stores for a registration an admin made, minus id and secret. */
function clientFields(c: z.output<typeof newClientSchema>) {
  return {
    ...commonClientFields(c),
    firstParty: c.firstParty,
    resourceServer: c.resourceServer,
    adminApi: c.adminApi,
    requirePushedAuthorizationRequests: c.requirePushedAuthorizationRequests,
    requestObjectSigningAlg: c.requestObjectSigningAlg,
    jwks: c.jwks,
    dpopBoundAccessTokens: c.dpopBoundAccessTokens,
    subjectType: c.subjectType,
    sectorIdentifierUri: c.sectorIdentifierUri,
  };
}

/** Only an owner gives a client the owner role (the CLI and the system may). */
function checkOwnerClient(adminRole: AdminRole, before: AdminRole | undefined, by: AuditBy | undefined): void {
  const role = by?.actor?.role;
  if (adminRole === 'owner' && before !== 'owner' && role !== undefined && !may(role, 'owners.manage')) {
    throw new Forbidden('only an owner may give a client the owner role');
  }
}

/**
 * 128 random bits, base64url, never starting with '-': an id that looks like a
 * command-line option is one every CLI (ours, curl, shell scripts) misreads.
 */
export function newClientId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

/**
 * A new client and, for confidential clients, its secret: shown once, stored
 * only as a hash. `options` fix the id and secret of a client the server
 * manages itself (the portal); everyone else gets random ones. `by`, when
 * given, is who registers it, for the audit log (lib/audit/log.ts).
 */
export async function registerClient(
  db: Database,
  input: NewClientInput,
  options: { id?: string; clientSecret?: string; by?: AuditBy; fetchSector?: typeof fetch } = {},
): Promise<{ client: ClientRecord; clientSecret?: string }> {
  const c = parseInput(newClientSchema, input);
  const adminRole = c.adminRole ?? 'admin';
  checkOwnerClient(adminRole, undefined, options.by);
  await checkSectorIdentifier(c, options.fetchSector);
  const clientSecret = c.type === 'confidential' ? (options.clientSecret ?? generateClientSecret()) : undefined;
  const client = await insertClient(db, {
    id: options.id ?? newClientId(),
    secretHash: clientSecret ? hashClientSecret(clientSecret) : null,
    ...clientFields(c),
    adminRole,
  });
  await recordAuditBy(db, options.by, {
    action: 'client.created',
    target: target(client),
    details: {
      name: client.name,
      confidential: client.confidential,
      grantTypes: client.grantTypes,
      scopes: client.scope.split(' ').filter(Boolean),
      redirectUris: client.redirectUris,
      firstParty: client.firstParty,
      resourceServer: client.resourceServer,
      adminApi: client.adminApi,
      ...(client.adminApi ? { adminRole: client.adminRole } : {}),
      signingAlg: client.idTokenSignedResponseAlg,
    },
  });
  return { client, clientSecret };
}

const target = (client: { id: string; name: string }) => ({ type: 'client' as const, id: client.id, label: client.name });

/** The registration fields whose values differ, in the names the portal's form uses. */
function changedFields(before: ClientRecord, after: ClientRecord): string[] {
  return registrationFields.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

/**
 * Replaces a client's registration. Public stays public and confidential stays
 * confidential: turning one into the other would need a secret created or
 * thrown away, which is a new client, not an edit. Without an ID token signing
 * algorithm the client keeps its own: the default is for new clients only, and
 * a relying party that verifies RS256 would break if it changed under it.
 */
export async function updateClient(db: Database, id: string, input: NewClientInput, by?: AuditBy): Promise<ClientRecord> {
  const c = parseInput(newClientSchema, input);
  await checkSectorIdentifier(c);
  const existing = await findClient(db, id);
  if (!existing) throw new NotFound(`no client ${id}`);
  if (existing.confidential !== (c.type === 'confidential')) {
    throw new Conflict(`a ${clientType(existing)} client stays ${clientType(existing)}`);
  }
  const alg = input.idTokenSignedResponseAlg ?? existing.idTokenSignedResponseAlg;
  const adminRole = c.adminRole ?? existing.adminRole;
  checkOwnerClient(adminRole, existing.adminRole, by);
  const updated = await updateClientRow(db, id, { ...clientFields(c), idTokenSignedResponseAlg: alg, adminRole });
  if (!updated) throw new NotFound(`no client ${id}`);
  const changed = changedFields(existing, updated);
  if (changed.length) await recordAuditBy(db, by, { action: 'client.updated', target: target(updated), details: { changed } });
  return updated;
}

/**
 * A new secret for a confidential client, returned once; the old one stops
 * working at once (only its hash was stored, and that is replaced). Tokens
 * already issued stay valid until they expire or are revoked.
 */
export async function rotateClientSecret(db: Database, id: string, by?: AuditBy): Promise<string> {
  const existing = await findClient(db, id);
  if (!existing) throw new NotFound(`no client ${id}`);
  if (!existing.confidential) throw new Conflict('a public client has no secret to rotate');
  const clientSecret = generateClientSecret();
  if (!(await setClientSecretHash(db, id, hashClientSecret(clientSecret)))) throw new NotFound(`no client ${id}`);
  await recordAuditBy(db, by, { action: 'client.secret_rotated', target: target(existing), details: {} });
  return clientSecret;
}

export { findClient, listClients, searchClients };

/** Deleting a client revokes everything issued to it. */
export async function deleteClient(db: Database, id: string, by?: AuditBy): Promise<boolean> {
  const existing = by ? await findClient(db, id) : undefined;
  const deleted = await deleteClientRow(db, id);
  if (!deleted) return false;
  const revokedArtifacts = await destroyArtifactsOfClient(db, id);
  await recordAuditBy(db, by, { action: 'client.deleted', target: target(existing ?? { id, name: id }), details: { revokedArtifacts } });
  return true;
}

export async function disableClient(db: Database, id: string, by?: AuditBy): Promise<boolean> {
  const done = await setClientEnabled(db, id, false);
  if (!done) return false;
  const revokedArtifacts = await destroyArtifactsOfClient(db, id);
  if (by) await recordAuditBy(db, by, { action: 'client.disabled', target: await labelled(db, id), details: { revokedArtifacts } });
  return true;
}

export async function enableClient(db: Database, id: string, by?: AuditBy): Promise<boolean> {
  const done = await setClientEnabled(db, id, true);
  if (done && by) await recordAuditBy(db, by, { action: 'client.enabled', target: await labelled(db, id), details: {} });
  return done;
}

async function labelled(db: Database, id: string) {
  return target((await findClient(db, id)) ?? { id, name: id });
}
