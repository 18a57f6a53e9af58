/** SCIM provisioning clients' tokens on the wire (lib/scim/tokens.ts): never the token itself except in the answer that issues it. */
import { z } from 'zod';
import { scimTokenSchema, type ScimTokenRecord } from '../../../scim/tokens.ts';
import { isoOrNull, timestamp } from './common.ts';

export const scimTokenDtoSchema = z
  .strictObject({
    id: z.string(),
    name: z.string().meta({ description: 'The provisioning client it is for: the audit log names its changes `scim:<name>`.' }),
    last_used_at: timestamp.nullable(),
    revoked_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'ScimToken', description: "A SCIM provisioning client's token. Never the token itself." });

export const scimTokenListSchema = z.strictObject({ data: z.array(scimTokenDtoSchema) }).meta({ id: 'ScimTokenList' });

export const issuedScimTokenSchema = scimTokenDtoSchema
  .extend({ token: z.string().meta({ description: 'The token, in this answer only: Gatehouse keeps a hash of it.' }) })
  .meta({ id: 'IssuedScimToken' });

export const newScimTokenBodySchema = z.strictObject({ name: scimTokenSchema.shape.name }).meta({ id: 'NewScimToken' });

export function scimTokenDto(token: ScimTokenRecord): z.input<typeof scimTokenDtoSchema> {
  return {
    id: token.id,
    name: token.name,
    last_used_at: isoOrNull(token.lastUsedAt),
    revoked_at: isoOrNull(token.revokedAt),
    created_at: token.createdAt.toISOString(),
  };
}
