/**
 * APIs, groups and roles on the wire (serialized by lib/authorization/wire.ts, as the CLI's
 * `--json` prints them). The request bodies reuse the use cases' own rules (lib/authorization/manage.ts).
 */
import { z } from 'zod';
import { apiIdentifierSchema, permissionNameSchema, principalNameSchema } from '../../../authorization/manage.ts';
import { pathId, timestamp } from './common.ts';

const permission = z.strictObject({ name: z.string(), description: z.string() });

export const apiSchema = z
  .strictObject({
    id: z.string().meta({ description: "The API's id, in this API's paths." }),
    identifier: z.string().meta({ description: 'The resource indicator (RFC 8707) and the audience of its tokens: an https URI or a URN.' }),
    name: z.string(),
    token_format: z
      .enum(['opaque', 'jwt'])
      .meta({ description: 'jwt: RFC 9068 JWT access tokens, verifiable from /oauth/jwks; opaque: checked by introspection.' }),
    token_lifetime: z.number().int().meta({ description: 'Seconds its access tokens live.' }),
    signing_alg: z.enum(['RS256', 'ES256']),
    roles_in_token: z.boolean().meta({ description: "Its JWT access tokens carry the person's roles and groups." }),
    permissions: z.array(permission),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Api' });

export const apiListSchema = z.strictObject({ data: z.array(apiSchema) });

const apiSettings = {
  name: z.string().trim().min(1).max(100),
  token_format: z.enum(['opaque', 'jwt']).optional(),
  token_lifetime: z.number().int().min(60).max(3600).optional().meta({ description: 'Seconds, 60 to 3600 (default 300).' }),
  signing_alg: z.enum(['RS256', 'ES256']).optional(),
  roles_in_token: z.boolean().optional(),
};

export const newApiBodySchema = z.strictObject({
  identifier: apiIdentifierSchema,
  ...apiSettings,
  permissions: z
    .array(z.strictObject({ name: permissionNameSchema, description: z.string().max(300).optional() }))
    .max(100)
    .optional(),
});

export const apiPatchSchema = z.strictObject({ ...apiSettings, name: apiSettings.name.optional() });

export const permissionBodySchema = z.strictObject({ description: z.string().max(300).optional() });

export const groupSchema = z
  .strictObject({
    name: z.string(),
    description: z.string(),
    members: z.number().int().optional(),
    roles: z.array(z.string()).optional(),
    created_at: timestamp,
  })
  .meta({ id: 'Group' });

export const groupDetailSchema = groupSchema.extend({
  member_list: z.array(z.strictObject({ id: z.string(), username: z.string() })),
});

export const groupListSchema = z.strictObject({ data: z.array(groupSchema) });

export const newPrincipalBodySchema = z.strictObject({ name: principalNameSchema, description: z.string().max(300).optional() });

export const roleSchema = z
  .strictObject({
    name: z.string(),
    description: z.string(),
    permissions: z.array(z.strictObject({ api: z.string(), permission: z.string() })),
    users: z.array(z.string()).meta({ description: 'Usernames of the people given the role directly.' }),
    groups: z.array(z.string()),
    created_at: timestamp,
  })
  .meta({ id: 'Role' });

export const roleListSchema = z.strictObject({ data: z.array(roleSchema) });

export const clientPermissionListSchema = z.strictObject({ data: z.array(z.strictObject({ api: z.string(), permission: z.string() })) });

export const apiIdParam = z.strictObject({ id: pathId().meta({ description: "The API's id (or its identifier, URL-encoded)." }) });
export const nameParam = z.strictObject({ name: pathId(64) });
