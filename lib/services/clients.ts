/**
 * Client registration use cases. Validation follows RFC 7591 §2 and OAuth 2.0
 * Security BCP (RFC 9700 §2.1): exact redirect URIs, https except loopback,
 * no fragments; public clients authenticate with `none` and must use PKCE
 * (which the provider requires of every client anyway).
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { destroyArtifactsOfClient } from '../db/artifacts.ts';
import { deleteClient, findClient, insertClient, listClients, setClientEnabled, type ClientRecord } from '../db/clients.ts';
import type { Database } from '../db/database.ts';
import { generateClientSecret, hashClientSecret } from '../oidc/client-secret.ts';
import { INTROSPECT_SCOPE, SUPPORTED_SCOPES } from '../oidc/scopes.ts';

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

export const redirectUriSchema = z.string().superRefine((value, ctx) => {
  const url = URL.parse(value);
  if (!url) return void ctx.addIssue({ code: 'custom', message: `${value} is not an absolute URL` });
  if (url.hash || value.includes('#')) ctx.addIssue({ code: 'custom', message: `${value} must not have a fragment` });
  if (url.username || url.password) ctx.addIssue({ code: 'custom', message: `${value} must not carry credentials` });
  const loopbackHttp = url.protocol === 'http:' && loopbackHosts.has(url.hostname);
  const privateScheme = !['http:', 'https:'].includes(url.protocol) && /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol);
  if (url.protocol !== 'https:' && !loopbackHttp && !privateScheme) {
    ctx.addIssue({ code: 'custom', message: `${value} must use https (http only for localhost, 127.0.0.1 and [::1])` });
  }
});

export const grantTypes = ['authorization_code', 'refresh_token', 'client_credentials'] as const;
export const supportedScopes = SUPPORTED_SCOPES;

export const newClientSchema = z
  .object({
    name: z.string().trim().min(1, 'name is required').max(128),
    type: z.enum(['confidential', 'public']).default('confidential'),
    redirectUris: z.array(redirectUriSchema).default([]),
    postLogoutRedirectUris: z.array(redirectUriSchema).default([]),
    grantTypes: z.array(z.enum(grantTypes)).min(1).default(['authorization_code', 'refresh_token']),
    scopes: z.array(z.enum(supportedScopes)).min(1).default(['openid', 'profile', 'email', 'offline_access']),
    tokenEndpointAuthMethod: z.enum(['client_secret_basic', 'client_secret_post', 'none']).optional(),
    logoUri: z.url({ protocol: /^https$/ }).nullable().default(null),
    firstParty: z.boolean().default(false),
    resourceServer: z.boolean().default(false),
  })
  .superRefine((c, ctx) => {
    const method = c.tokenEndpointAuthMethod ?? (c.type === 'public' ? 'none' : 'client_secret_basic');
    if (c.type === 'public' && method !== 'none') ctx.addIssue({ code: 'custom', path: ['tokenEndpointAuthMethod'], message: 'a public client authenticates with none' });
    if (c.type === 'confidential' && method === 'none') ctx.addIssue({ code: 'custom', path: ['tokenEndpointAuthMethod'], message: 'a confidential client needs client_secret_basic or client_secret_post' });
    if (c.grantTypes.includes('authorization_code') && c.redirectUris.length === 0) ctx.addIssue({ code: 'custom', path: ['redirectUris'], message: 'the authorization_code grant needs at least one redirect URI' });
    if (c.grantTypes.includes('refresh_token') && !c.grantTypes.includes('authorization_code')) ctx.addIssue({ code: 'custom', path: ['grantTypes'], message: 'refresh_token only makes sense with authorization_code' });
    if (c.type === 'public' && c.grantTypes.includes('client_credentials')) ctx.addIssue({ code: 'custom', path: ['grantTypes'], message: 'client_credentials needs a confidential client' });
    if (c.scopes.includes(INTROSPECT_SCOPE) && !c.resourceServer) ctx.addIssue({ code: 'custom', path: ['scopes'], message: `only resource servers may have the ${INTROSPECT_SCOPE} scope` });
  });

export type NewClientInput = z.input<typeof newClientSchema>;

/** A new client and, for confidential clients, its secret: shown once, stored only as a hash. */
export async function registerClient(db: Database, input: NewClientInput): Promise<{ client: ClientRecord; clientSecret?: string }> {
  const c = newClientSchema.parse(input);
  const clientSecret = c.type === 'confidential' ? generateClientSecret() : undefined;
  const client = await insertClient(db, {
    id: randomBytes(16).toString('base64url'),
    name: c.name,
    secretHash: clientSecret ? hashClientSecret(clientSecret) : null,
    redirectUris: c.redirectUris,
    postLogoutRedirectUris: c.postLogoutRedirectUris,
    grantTypes: c.grantTypes,
    scope: c.scopes.join(' '),
    tokenEndpointAuthMethod: c.tokenEndpointAuthMethod ?? (c.type === 'public' ? 'none' : 'client_secret_basic'),
    applicationType: c.redirectUris.some((u) => !u.startsWith('https:') && !u.startsWith('http:')) ? 'native' : 'web',
    logoUri: c.logoUri,
    firstParty: c.firstParty,
    resourceServer: c.resourceServer,
  });
  return { client, clientSecret };
}

export { findClient, listClients };

/** Deleting a client revokes everything issued to it. */
export async function removeClient(db: Database, id: string): Promise<boolean> {
  const deleted = await deleteClient(db, id);
  if (deleted) await destroyArtifactsOfClient(db.sql, id);
  return deleted;
}

export async function disableClient(db: Database, id: string): Promise<boolean> {
  const done = await setClientEnabled(db, id, false);
  if (done) await destroyArtifactsOfClient(db.sql, id);
  return done;
}
