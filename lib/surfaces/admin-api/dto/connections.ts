/**
 * Connections (upstream identity providers, lib/federation) and a person's linked identities on the
 * wire, as `gatehouse connection list --json` prints them (lib/federation/wire.ts): never the client secret.
 */
import { z } from 'zod';
import { timestamp } from './common.ts';

const url = z.string().nullable();

/** A connection's settings, as read and as written (snake_case). */
const settings = {
  kind: z.enum(['oidc', 'oauth2']),
  display_name: z.string(),
  icon: z.string().nullable(),
  enabled: z.boolean(),
  issuer: url,
  authorization_endpoint: url,
  token_endpoint: url,
  userinfo_endpoint: url,
  emails_endpoint: url,
  client_id: z.string(),
  scopes: z.string(),
  pkce: z.boolean(),
  pass_login_hint: z.boolean().meta({ description: "The app's login_hint (or the address typed at sign-in) goes upstream; default true." }),
  claim_mapping: z.record(z.string(), z.string()),
  jit_create: z.boolean(),
  jit_state: z.enum(['enabled', 'disabled']),
  email_domains: z.array(z.string()),
  client_ids: z.array(z.string()).meta({ description: 'The clients whose sign-in page offers it; empty: none.' }),
  trusted_for_mfa: z.boolean(),
  upstream_logout: z.boolean(),
  keep_tokens: z.boolean(),
};

export const connectionSchema = z
  .strictObject({
    slug: z.string(),
    ...settings,
    has_client_secret: z.boolean().meta({ description: 'Whether a client secret is stored (sealed; never shown).' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Connection' });

export const connectionListSchema = z.strictObject({ data: z.array(connectionSchema) });

/** The writable fields: the settings and the write-only `client_secret`. */
const writable = {
  ...settings,
  client_secret: z.string().nullable().meta({ description: 'Write-only: stored sealed, never returned.' }),
};

export const newConnectionBodySchema = z
  .strictObject({ slug: z.string(), ...writable })
  .partial()
  .required({ slug: true, display_name: true, client_id: true });
export const connectionPatchSchema = z.strictObject(writable).partial();

export const identitySchema = z
  .strictObject({
    id: z.string(),
    connection: z.string().meta({ description: "The connection's slug." }),
    connection_name: z.string(),
    issuer: z.string(),
    subject: z.string(),
    email: z.string().nullable(),
    created_at: timestamp,
    last_used_at: timestamp.nullable(),
  })
  .meta({ id: 'FederatedIdentity' });

export const identityListSchema = z.strictObject({ data: z.array(identitySchema) });

/** A client's sign-in page beside its connections (lib/federation/client-sign-in.ts). */
export const clientSignInSchema = z
  .strictObject({
    client_id: z.string(),
    password_form: z
      .boolean()
      .meta({ description: 'The username and password form is on its sign-in page; false: only its connections and passkeys, and a password is refused.' }),
    connections: z.array(z.string()).meta({ description: 'The slugs of the connections that name it in client_ids.' }),
  })
  .meta({ id: 'ClientSignIn' });

export const clientSignInPatchSchema = z.strictObject({ password_form: z.boolean() });
