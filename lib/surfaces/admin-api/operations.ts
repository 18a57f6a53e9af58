/**
 * Every operation of the admin API, as data: method, path, the zod schemas of
 * its path parameters, query, body and response, and the errors it may answer.
 * The routes validate with these schemas (lib/surfaces/admin-api/route.ts) and
 * the OpenAPI document is generated from them (openapi.ts), so the two cannot
 * drift apart. Each route file exports `adminRoute(<operation id>)`.
 */
import { z } from 'zod';
import type { ErrorCode } from '../../platform/errors.ts';
import type { Permission } from '../../admin-roles/roles.ts';
import { auditEventListSchema, auditQuerySchema } from './dto/audit.ts';
import { clientListSchema, clientPatchSchema, clientSchema, clientSecretSchema, createdClientSchema, newClientBodySchema } from './dto/clients.ts';
import { pathId, searchQuery } from './dto/common.ts';
import { retiredKeySchema, rotateBodySchema, rotationSchema, signingKeyListSchema } from './dto/keys.ts';
import {
  createdUserSchema,
  updatedUserSchema,
  grantListSchema,
  invitationSentSchema,
  newUserBodySchema,
  passwordBodySchema,
  passwordSetSchema,
  profilePatchSchema,
  roleBodySchema,
  sessionListSchema,
  sessionsEndedSchema,
  userListSchema,
  userSchema,
} from './dto/users.ts';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Operation {
  method: Method;
  /** The path as OpenAPI writes it: `{id}` for the route folder `[id]`. */
  path: string;
  tag: 'clients' | 'users' | 'audit' | 'keys' | 'meta';
  summary: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodObject;
  status: 200 | 201 | 204;
  /** What a success answers; absent for 204 No Content. */
  response?: z.ZodType;
  /** Beyond what every operation may answer (401, 403, 500, and 400 when it takes input). */
  errors?: readonly ErrorCode[];
  /** What the caller's admin role must allow (lib/admin-roles/roles.ts), checked before anything else: 403 otherwise. */
  permission: Permission;
  /**
   * The `{id}` path parameter names what this changes, whose own role the caller's must be able to act on too:
   * a person (an owner's account only owners, another admin's only owners and admins), or a client (an
   * admin-API client acting as owner only owners: its new secret would make them one).
   */
  actsOn?: 'user' | 'client';
}

const clientId = z.strictObject({ id: pathId().meta({ description: 'The client_id.' }) });
const userId = z.strictObject({ id: pathId(100).meta({ description: "The user's id." }) });

export const operations = {
  listClients: {
    method: 'GET',
    permission: 'clients.read',
    path: '/api/admin/clients',
    tag: 'clients',
    summary: 'List clients, newest first, with search and paging',
    query: searchQuery,
    status: 200,
    response: clientListSchema,
  },
  createClient: {
    method: 'POST',
    permission: 'clients.manage',
    path: '/api/admin/clients',
    tag: 'clients',
    summary: "Register a client; a confidential client's secret is in this answer only",
    body: newClientBodySchema,
    status: 201,
    response: createdClientSchema,
  },
  getClient: {
    method: 'GET',
    permission: 'clients.read',
    path: '/api/admin/clients/{id}',
    tag: 'clients',
    summary: 'One client',
    params: clientId,
    status: 200,
    response: clientSchema,
    errors: ['not_found'],
  },
  updateClient: {
    method: 'PATCH',
    permission: 'clients.manage',
    actsOn: 'client',
    path: '/api/admin/clients/{id}',
    tag: 'clients',
    summary: "Change some of a client's registration",
    description: "Public stays public and confidential stays confidential (409). Gatehouse's own portal client cannot be changed (403).",
    params: clientId,
    body: clientPatchSchema,
    status: 200,
    response: clientSchema,
    errors: ['not_found', 'conflict'],
  },
  deleteClient: {
    method: 'DELETE',
    permission: 'clients.manage',
    actsOn: 'client',
    path: '/api/admin/clients/{id}',
    tag: 'clients',
    summary: 'Delete a client, revoking its tokens and grants',
    params: clientId,
    status: 204,
    errors: ['not_found'],
  },
  enableClient: {
    method: 'POST',
    permission: 'clients.manage',
    actsOn: 'client',
    path: '/api/admin/clients/{id}/enable',
    tag: 'clients',
    summary: 'Enable a client',
    params: clientId,
    status: 200,
    response: clientSchema,
    errors: ['not_found'],
  },
  disableClient: {
    method: 'POST',
    permission: 'clients.manage',
    actsOn: 'client',
    path: '/api/admin/clients/{id}/disable',
    tag: 'clients',
    summary: 'Disable a client: to the provider it no longer exists, and its tokens and grants are revoked',
    params: clientId,
    status: 200,
    response: clientSchema,
    errors: ['not_found'],
  },
  rotateClientSecret: {
    method: 'POST',
    permission: 'clients.manage',
    actsOn: 'client',
    path: '/api/admin/clients/{id}/secret',
    tag: 'clients',
    summary: "Rotate a confidential client's secret; the new one is in this answer only",
    description: 'The old secret stops working at once. A public client has no secret (409).',
    params: clientId,
    status: 200,
    response: clientSecretSchema,
    errors: ['not_found', 'conflict'],
  },

  listUsers: {
    method: 'GET',
    permission: 'users.read',
    path: '/api/admin/users',
    tag: 'users',
    summary: 'List users, newest first, with search and paging',
    query: searchQuery,
    status: 200,
    response: userListSchema,
  },
  createUser: {
    method: 'POST',
    permission: 'users.manage',
    path: '/api/admin/users',
    tag: 'users',
    summary: 'Create a user with a given or generated password, or invite them to choose one',
    description:
      'A user with an email gets a mail: the invitation with `"invite": true`, else a link that verifies the address (`mail_sent` says whether it left).',
    body: newUserBodySchema,
    status: 201,
    response: createdUserSchema,
    errors: ['conflict'],
  },
  resendInvitation: {
    method: 'POST',
    permission: 'users.invite',
    actsOn: 'user',
    path: '/api/admin/users/{id}/invitation',
    tag: 'users',
    summary: 'Send an invited user a new invitation link',
    description:
      'The new link (7 days, once) replaces the earlier one once its mail has left; when the mail server refuses, `mail_sent` is false and the earlier link still works. 409 when the user has a password already; 400 without an email or when the server sends no mail.',
    params: userId,
    status: 200,
    response: invitationSentSchema,
    errors: ['not_found', 'conflict'],
  },
  getUser: {
    method: 'GET',
    permission: 'users.read',
    path: '/api/admin/users/{id}',
    tag: 'users',
    summary: 'One user',
    params: userId,
    status: 200,
    response: userSchema,
    errors: ['not_found'],
  },
  updateUser: {
    method: 'PATCH',
    permission: 'users.manage',
    actsOn: 'user',
    path: '/api/admin/users/{id}',
    tag: 'users',
    summary: "Change a user's name or email",
    params: userId,
    body: profilePatchSchema,
    status: 200,
    response: updatedUserSchema,
    errors: ['not_found', 'conflict'],
  },
  setUserPassword: {
    method: 'PUT',
    permission: 'users.manage',
    actsOn: 'user',
    path: '/api/admin/users/{id}/password',
    tag: 'users',
    summary: 'Set a new password, given or generated',
    params: userId,
    body: passwordBodySchema,
    status: 200,
    response: passwordSetSchema,
    errors: ['not_found'],
  },
  setUserRole: {
    method: 'PUT',
    permission: 'users.assign_role',
    actsOn: 'user',
    path: '/api/admin/users/{id}/role',
    tag: 'users',
    summary: 'Give a person an admin role, change it, or take it away (role user)',
    description:
      'Only an owner makes or unmakes owners; owners and admins give the other roles. No one changes their own role, and the last enabled owner stays one (403).',
    params: userId,
    body: roleBodySchema,
    status: 200,
    response: userSchema,
    errors: ['not_found'],
  },
  enableUser: {
    method: 'POST',
    permission: 'users.manage',
    actsOn: 'user',
    path: '/api/admin/users/{id}/enable',
    tag: 'users',
    summary: 'Enable a user',
    params: userId,
    status: 200,
    response: userSchema,
    errors: ['not_found'],
  },
  disableUser: {
    method: 'POST',
    permission: 'users.manage',
    actsOn: 'user',
    path: '/api/admin/users/{id}/disable',
    tag: 'users',
    summary: 'Disable a user, ending their sessions and revoking their tokens and grants',
    description: 'An administrator signed in to the portal cannot disable themselves (403).',
    params: userId,
    status: 200,
    response: userSchema,
    errors: ['not_found'],
  },
  listSigningKeys: {
    method: 'GET',
    permission: 'system.read',
    path: '/api/admin/keys',
    tag: 'keys',
    summary: 'List the signing keys: kid, algorithm, state and dates',
    status: 200,
    response: signingKeyListSchema,
  },
  rotateSigningKeys: {
    method: 'POST',
    permission: 'keys.manage',
    path: '/api/admin/keys/rotate',
    tag: 'keys',
    summary: 'Rotate the signing keys of one algorithm or both',
    description:
      'For each algorithm: a next key published for KEY_PUBLISH_AHEAD_HOURS signs from now on (key.rotated); otherwise a next key is published (key.created, when there is none) and signs once that time has passed. ' +
      'The key that stops signing stays published until every token it signed has expired. `now` makes the new key sign at once: relying parties that cached the JWKS refuse its tokens until they fetch it again. ' +
      'This instance serves the change at once, the others within seconds.',
    body: rotateBodySchema,
    status: 200,
    response: rotationSchema,
    errors: ['conflict'],
  },
  retireSigningKey: {
    method: 'POST',
    permission: 'keys.manage',
    path: '/api/admin/keys/{kid}/retire',
    tag: 'keys',
    summary: 'Take a key that does not sign out of the JWKS, and delete it',
    description:
      'A next key, or a previous one: tokens a previous key signed stop verifying, even those not yet expired (`early`). The current key answers conflict: rotate first. Recorded as key.retired.',
    params: z.strictObject({ kid: pathId().meta({ description: "The key's kid." }) }),
    status: 200,
    response: retiredKeySchema,
    errors: ['not_found', 'conflict'],
  },
  unlockUser: {
    method: 'POST',
    permission: 'users.unlock',
    actsOn: 'user',
    path: '/api/admin/users/{id}/unlock',
    tag: 'users',
    summary: 'Lift the lock that failed password checks put on a user',
    description:
      "The lock ends at once and the day's count of failures starts again. Recorded as user.unlocked only when the user was locked; unlocking a user who is not locked changes nothing and answers the same.",
    params: userId,
    status: 200,
    response: userSchema,
    errors: ['not_found'],
  },
  resetUserSecondFactors: {
    method: 'DELETE',
    permission: 'users.reset_factors',
    actsOn: 'user',
    path: '/api/admin/users/{id}/second-factors',
    tag: 'users',
    summary: "Reset a user's two-step verification (a lost authenticator)",
    description:
      'Removes the TOTP factor (confirmed or still being set up) and every recovery code: the user signs in with their password alone and may set two-step verification up again. Nothing else ends (sessions, grants and the password stay). Recorded as factor.reset only when something was removed; resetting a user without a second step changes nothing and answers the same.',
    params: userId,
    status: 200,
    response: userSchema,
    errors: ['not_found'],
  },
  listUserSessions: {
    method: 'GET',
    permission: 'users.read',
    path: '/api/admin/users/{id}/sessions',
    tag: 'users',
    summary: "A user's Gatehouse sign-in sessions",
    params: userId,
    status: 200,
    response: sessionListSchema,
    errors: ['not_found'],
  },
  endUserSessions: {
    method: 'DELETE',
    permission: 'users.manage',
    actsOn: 'user',
    path: '/api/admin/users/{id}/sessions',
    tag: 'users',
    summary: 'End every session of a user',
    description: 'Grants and refresh tokens stay (revoke a grant, or disable the user, for those); tokens bound to a session end with it.',
    params: userId,
    status: 200,
    response: sessionsEndedSchema,
    errors: ['not_found'],
  },
  endUserSession: {
    method: 'DELETE',
    permission: 'users.manage',
    actsOn: 'user',
    path: '/api/admin/users/{id}/sessions/{uid}',
    tag: 'users',
    summary: 'End one session of a user',
    params: userId.extend({ uid: pathId(100).meta({ description: "The session's uid." }) }),
    status: 204,
    errors: ['not_found'],
  },
  listUserGrants: {
    method: 'GET',
    permission: 'users.read',
    path: '/api/admin/users/{id}/grants',
    tag: 'users',
    summary: 'The apps a user granted access to',
    params: userId,
    status: 200,
    response: grantListSchema,
    errors: ['not_found'],
  },
  revokeUserGrant: {
    method: 'DELETE',
    permission: 'users.manage',
    actsOn: 'user',
    path: '/api/admin/users/{id}/grants/{client_id}',
    tag: 'users',
    summary: 'Revoke what one app holds for a user: grants, codes and tokens',
    description: "The portal's own grant is not revocable here (403).",
    params: userId.extend({ client_id: pathId() }),
    status: 204,
    errors: ['not_found'],
  },

  listAuditEvents: {
    method: 'GET',
    permission: 'audit.read',
    path: '/api/admin/audit-events',
    tag: 'audit',
    summary: 'The audit log, newest first, with filters and paging',
    query: auditQuerySchema,
    status: 200,
    response: auditEventListSchema,
  },

  getOpenApiDocument: {
    method: 'GET',
    permission: 'users.read',
    path: '/api/admin/openapi.json',
    tag: 'meta',
    summary: 'This document (OpenAPI 3.1)',
    status: 200,
    response: z.record(z.string(), z.unknown()).meta({ id: 'OpenApiDocument' }),
  },
} as const satisfies Record<string, Operation>;

export type OperationId = keyof typeof operations;
