/**
 * Signing keys on the wire (serialized by lib/clients/wire.ts, lib/users/wire.ts, lib/keys/wire.ts, as `gatehouse
 * keys list --json` prints them): where each key is in its rotation, never
 * key material; the public keys are at /oauth/jwks.
 */
import { z } from 'zod';
import { ID_TOKEN_SIGNING_ALGS } from '../../../oidc/algorithms.ts';
import { timestamp } from './common.ts';

export const signingKeySchema = z
  .strictObject({
    kid: z.string(),
    alg: z.enum(ID_TOKEN_SIGNING_ALGS),
    state: z.enum(['next', 'current', 'previous']).meta({
      description: 'next: published in the JWKS, not signing yet; current: signs this algorithm; previous: published until every token it signed has expired.',
    }),
    created_at: timestamp,
    activates_at: timestamp.nullable().meta({ description: 'When a next key starts signing; when the others started.' }),
    retire_after: timestamp.nullable().meta({ description: 'When a previous key leaves the JWKS (null for the others).' }),
  })
  .meta({ id: 'SigningKey' });

export const signingKeyListSchema = z.strictObject({ data: z.array(signingKeySchema) });

export const rotateBodySchema = z.strictObject({
  alg: z.enum(ID_TOKEN_SIGNING_ALGS).optional().meta({ description: 'Only this algorithm (default: both).' }),
  now: z.boolean().default(false).meta({ description: 'Sign with the new key at once, without publishing it ahead: for a compromised key only.' }),
});

export const rotationSchema = z.strictObject({
  data: z.array(
    z.strictObject({
      alg: z.enum(ID_TOKEN_SIGNING_ALGS),
      outcome: z
        .enum(['rotated', 'scheduled'])
        .meta({ description: 'rotated: `kid` signs from now on; scheduled: `kid` is published and signs from `activates_at`.' }),
      kid: z.string(),
      activates_at: timestamp,
    }),
  ),
});

export const retiredKeySchema = signingKeySchema.extend({
  early: z.boolean().meta({ description: 'Tokens it signed had not all expired: they no longer verify.' }),
});
