/**
 * Initial access tokens on the wire (RFC 7591 §3; lib/registration/tokens.ts): their limits, never the token
 * itself except in the answer that issues it.
 */
import { z } from 'zod';
import { initialAccessTokenSchema, type InitialAccessTokenRecord } from '../../../registration/tokens.ts';
import { isoOrNull, timestamp } from './common.ts';

const field = initialAccessTokenSchema.shape;

export const registrationTokenSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    max_clients: z.number().int(),
    clients_registered: z.number().int(),
    redirect_hosts: z.array(z.string()).meta({ description: 'Hosts the redirect URIs may name; empty: any.' }),
    grant_types: z.array(z.string()),
    scopes: z.array(z.string()),
    require_approval: z.boolean().meta({ description: 'Clients registered with it wait for an admin to approve them.' }),
    expires_at: timestamp,
    revoked_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'RegistrationToken', description: 'An initial access token for dynamic client registration. Never the token itself.' });

export const registrationTokenListSchema = z.strictObject({ data: z.array(registrationTokenSchema) }).meta({ id: 'RegistrationTokenList' });

export const issuedRegistrationTokenSchema = registrationTokenSchema
  .extend({ initial_access_token: z.string().meta({ description: 'The token, in this answer only: Gatehouse keeps a hash of it.' }) })
  .meta({ id: 'IssuedRegistrationToken' });

export const newRegistrationTokenBodySchema = z
  .strictObject({
    name: field.name,
    max_clients: field.maxClients.unwrap(),
    expires_in_days: field.expiresInDays.unwrap(),
    redirect_hosts: field.redirectHosts.unwrap(),
    grant_types: field.grantTypes.unwrap(),
    scopes: field.scopes.unwrap(),
    require_approval: field.requireApproval.unwrap(),
  })
  .partial()
  .required({ name: true })
  .meta({
    id: 'NewRegistrationToken',
    description:
      'Defaults: one client, 7 days, any redirect host, authorization_code + refresh_token, scopes openid profile email offline_access, no approval.',
  });

export type NewRegistrationTokenBody = z.output<typeof newRegistrationTokenBodySchema>;

export function registrationTokenDto(token: InitialAccessTokenRecord): z.input<typeof registrationTokenSchema> {
  return {
    id: token.id,
    name: token.name,
    max_clients: token.maxClients,
    clients_registered: token.clientsRegistered,
    redirect_hosts: token.redirectHosts,
    grant_types: token.grantTypes,
    scopes: token.scopes,
    require_approval: token.requireApproval,
    expires_at: token.expiresAt.toISOString(),
    revoked_at: isoOrNull(token.revokedAt),
    created_at: token.createdAt.toISOString(),
  };
}
