/**
 * What the audit log can say: the closed list of actions, and for each one the
 * exact shape of its `details` (strict zod objects: an unknown key is refused,
 * not stored). Nothing here can carry a secret, password, code or token: the
 * fields are names, ids, scopes, counts and flags. lib/audit/log.ts also
 * strips secret-sounding keys as a second lock.
 */
import { z } from 'zod';
import { ID_TOKEN_SIGNING_ALGS } from '../oidc/algorithms.ts';
import { ADMIN_ROLES, roleSchema } from '../admin-roles/roles.ts';
import { federationFailureReasons } from '../federation/errors.ts';

const id = z.string().min(1).max(200);
const label = z.string().max(200);
const scopes = z.array(z.string().max(100)).max(50);
const fields = z.array(z.string().max(64)).max(30);
// 'admin' is also what the role was called before admin roles: old entries keep it.
const role = roleSchema;

/** Why a sign-in failed, for the admins reading the log (the person only ever sees "wrong username or password"). */
/** `throttled`: the throttle refused the attempt before any password was checked (lib/platform/throttle.ts). */
/**
 * `passkey`: a passwordless sign-in whose passkey's answer did not check out (lib/factors/passkeys.ts);
 * `second_factor_required`: the right password, for an app, from a person SECOND_FACTOR_REQUIRED says must first
 * set up a second factor (lib/factors/policy.ts).
 */
/** `email_unverified`: the right password of a signed-up account whose address is not verified yet (lib/sign-in/sign-up.ts). */
export const signInFailureReasons = [
  'unknown_user',
  'wrong_password',
  'disabled',
  'throttled',
  'passkey',
  'second_factor_required',
  'email_unverified',
] as const;

/** The kinds of second step a person can take: their TOTP app, a passkey, or one of their recovery codes. */
export const secondFactorMethods = ['totp', 'passkey', 'recovery_code'] as const;
const secondFactorMethod = z.enum(secondFactorMethods);

export const auditDetailsSchemas = {
  /**
   * `secondFactor`: the second step the person took after their password, when they have one;
   * `passkey`: signed in with a passkey alone (passwordless), no password typed;
   * `trustedDevice`: the person has a second step, skipped in a browser they trusted (lib/sign-in/trusted-devices.ts).
   */
  'sign_in.succeeded': z.strictObject({
    clientId: id.optional(),
    clientName: label.optional(),
    secondFactor: secondFactorMethod.optional(),
    passkey: z.literal(true).optional(),
    trustedDevice: z.literal(true).optional(),
    /** Signed in at an upstream identity provider: the connection's slug (lib/federation). */
    connection: label.optional(),
  }),
  /**
   * A wrong second step after a right password: `reason` says which (a code of a step already
   * used is `replayed`; `throttled`: refused before any code was checked). Never the code.
   */
  'sign_in.second_factor_failed': z.strictObject({
    method: secondFactorMethod,
    reason: z.enum(['wrong', 'replayed', 'throttled', 'other_account']),
    /** `throttled` only: the refused attempts from one source this entry stands for, one entry a minute (lib/sign-in/failures.ts). */
    count: z.number().int().min(1).optional(),
    clientId: id.optional(),
    clientName: label.optional(),
  }),
  /** A recovery code was spent; `remaining` unused ones are left. */
  'recovery_code.used': z.strictObject({ remaining: z.number().int().min(0), clientId: id.optional(), clientName: label.optional() }),
  /** New recovery codes replaced every earlier one (`count` of them, shown once). */
  'recovery_codes.regenerated': z.strictObject({ count: z.number().int().min(0) }),
  /** A second factor added: TOTP confirmed by its first code, or a passkey registered (`name`: the person's name for it). */
  'factor.enrolled': z.strictObject({ kind: z.enum(['totp', 'passkey']), name: label.optional() }),
  /** A second factor removed after the person proved themselves with their password. */
  'factor.removed': z.strictObject({ kind: z.enum(['totp', 'passkey']), name: label.optional() }),
  /**
   * An admin removed a user's second step (a lost authenticator): `totp` whether a TOTP factor went,
   * `passkeys` how many passkeys (absent in entries from before passkeys), `recoveryCodes` how many unused codes.
   */
  'factor.reset': z.strictObject({ totp: z.boolean(), passkeys: z.number().int().min(0).optional(), recoveryCodes: z.number().int().min(0) }),
  /**
   * `username` is the account's, only when what was typed names one: a password typed into the username
   * field must not reach the log. Failures for unknown usernames are aggregated per source address
   * (lib/sign-in/failures.ts): `count` is how many one entry stands for.
   */
  'sign_in.failed': z.strictObject({
    username: label.optional(),
    reason: z.enum(signInFailureReasons),
    count: z.number().int().min(1).optional(),
    clientId: id.optional(),
    clientName: label.optional(),
    /** Signed in at an upstream identity provider first (lib/federation): the connection's slug. */
    connection: label.optional(),
  }),
  /** A signed-in person typed a wrong current password (/account's password change); never what was typed. */
  'password.check_failed': z.strictObject({}),
  'consent.granted': z.strictObject({ clientId: id, clientName: label.optional(), scopes, claims: z.array(z.string().max(100)).max(50).optional() }),
  'consent.denied': z.strictObject({ clientId: id, clientName: label.optional() }),
  'consent.revoked': z.strictObject({ grantId: id.optional(), clientId: id, clientName: label.optional(), accountId: id.optional() }),
  /** `others`: every session but the one the person acts from (/account's "sign out everywhere else", a password change). */
  'session.ended': z.strictObject({ count: z.number().int().min(0), scope: z.enum(['all', 'one', 'others']).optional() }),
  /** `via`: the client revoked it (RFC 7009), or a used refresh token came back and the grant went with it (RFC 9700 §4.14.2). */
  'token.revoked': z.strictObject({
    clientId: id,
    clientName: label.optional(),
    kind: z.enum(['access_token', 'refresh_token']),
    via: z.enum(['revocation_endpoint', 'reuse_detected']),
  }),
  /**
   * A logout token (OpenID Connect Back-Channel Logout 1.0) the client answered 200 to (`delivered`), or that
   * Gatehouse stopped sending after `attempts` tries or because the client is gone or has no URI any more
   * (`abandoned`); `error` is the last attempt's status or network failure. The target is the client. Never the token.
   */
  'backchannel_logout.delivered': z.strictObject({ accountId: id, sid: z.string().max(200).optional(), attempts: z.number().int().min(1) }),
  'backchannel_logout.abandoned': z.strictObject({
    accountId: id,
    sid: z.string().max(200).optional(),
    attempts: z.number().int().min(0),
    reason: z.enum(['attempts_exhausted', 'client_gone']),
    error: z.string().max(300).optional(),
  }),
  'client.created': z.strictObject({
    name: label,
    confidential: z.boolean(),
    grantTypes: z.array(z.string().max(64)).max(10),
    scopes,
    redirectUris: z.array(z.string().max(2000)).max(50),
    firstParty: z.boolean(),
    resourceServer: z.boolean(),
    adminApi: z.boolean().optional(),
    /** The admin role an admin-API client acts with. */
    adminRole: z.enum(ADMIN_ROLES).optional(),
    /** The ID token's JWS alg (a key without "token" in it: lib/audit/log.ts drops those). */
    signingAlg: z.enum(ID_TOKEN_SIGNING_ALGS).optional(),
  }),
  'client.updated': z.strictObject({ changed: fields }),
  'client.enabled': z.strictObject({}),
  /** `reason: unused`: a self-registered client that got no token for DYNAMIC_REGISTRATION_UNUSED_DAYS, disabled by Gatehouse. */
  'client.disabled': z.strictObject({ revokedArtifacts: z.number().int().min(0).optional(), reason: z.enum(['unused']).optional() }),
  /**
   * A client registered itself at /oauth/register (RFC 7591): `registeredWith`, the initial access token's id (none:
   * open registration); `pending`: it waits for an admin's approval.
   */
  'client.registered': z.strictObject({
    registeredWith: id.optional(),
    pending: z.boolean(),
    confidential: z.boolean(),
    grantTypes: z.array(z.string().max(64)).max(10),
    scopes,
    redirectUris: z.array(z.string().max(2000)).max(50),
  }),
  /** A self-registered client changed (RFC 7592 §2.2) or deleted (§2.3) its own registration. */
  'client.registration_updated': z.strictObject({ changed: fields }),
  'client.registration_deleted': z.strictObject({}),
  'client.approved': z.strictObject({}),
  /** An initial access token (RFC 7591 §3) issued, with its limits; never the token. */
  'registration_token.issued': z.strictObject({
    maxClients: z.number().int().min(1),
    expiresAt: z.string().max(40),
    redirectHosts: z.array(z.string().max(255)).max(50),
    grantTypes: z.array(z.string().max(64)).max(10),
    scopes,
    requireApproval: z.boolean(),
  }),
  'registration_token.revoked': z.strictObject({}),
  /** A SCIM provisioning client's token (lib/scim/tokens.ts) issued or revoked; never the token. */
  'scim_token.issued': z.strictObject({}),
  'scim_token.revoked': z.strictObject({}),
  'client.deleted': z.strictObject({ revokedArtifacts: z.number().int().min(0).optional() }),
  /** That a secret was rotated, never the secret. */
  'client.secret_rotated': z.strictObject({}),
  /**
   * `invited`: without a password, which the person chooses with their invitation link (lib/users/invitations.ts);
   * `imported`: by an import (lib/users/import.ts), whose run has its own entry (`users.imported`).
   */
  'user.created': z.strictObject({
    role,
    email: z.string().max(254).nullable().optional(),
    generated: z.boolean().optional(),
    invited: z.boolean().optional(),
    imported: z.literal(true).optional(),
  }),
  /** An invitation link was mailed to `email` (`resent`: a new one replacing the earlier); never the link. */
  'user.invited': z.strictObject({ email: z.string().max(254), resent: z.boolean().optional() }),
  /** The invited person chose their password with the link, which verified `email`. */
  'invitation.accepted': z.strictObject({ email: z.string().max(254) }),
  'user.updated': z.strictObject({ changed: fields }),
  'user.disabled': z.strictObject({ revokedArtifacts: z.number().int().min(0).optional() }),
  'user.enabled': z.strictObject({}),
  /** An admin deleted the account (its factors and links with it); `revokedArtifacts`: its tokens, grants and sessions ended. */
  'user.deleted': z.strictObject({ revokedArtifacts: z.number().int().min(0).optional(), self: z.literal(true).optional() }),
  /** A person downloaded what Gatehouse holds about them (/account/data). */
  'user.data_exported': z.strictObject({}),
  /** An import run (lib/users/import.ts): how many lines it read and what became of them. */
  'users.imported': z.strictObject({
    lines: z.number().int().min(0),
    created: z.number().int().min(0),
    updated: z.number().int().min(0),
    unchanged: z.number().int().min(0),
    rejected: z.number().int().min(0),
  }),
  /**
   * `generated`: Gatehouse generated the new password (shown once to the admin); `self`: the user changed
   * their own; `viaMailLink`: with a password reset link from a mail.
   */
  'user.password_changed': z.strictObject({ generated: z.boolean().optional(), self: z.boolean().optional(), viaMailLink: z.boolean().optional() }),
  /**
   * A person created the account themselves (SIGN_UP=on) from a sign-in page of `clientId`; the link to
   * verify `email` went out. Never the password.
   */
  'user.signed_up': z.strictObject({ email: z.string().max(254), clientId: id.optional(), clientName: label.optional() }),
  /** A sign-up named this account's address: no account was made, and the address got a note saying so. */
  'sign_up.address_taken': z.strictObject({ clientId: id.optional(), clientName: label.optional() }),
  /** The person used the verification link mailed to `email`, which is now the account's address, verified. */
  'user.email_verified': z.strictObject({ email: z.string().max(254) }),
  /** A password reset link was mailed to the account's address (lib/mail-links/password-reset.ts); never the link. */
  'password_reset.requested': z.strictObject({}),
  'user.role_changed': z.strictObject({ from: role, to: role }),
  /** Failed password checks locked the account until `until` (lib/platform/throttle.ts). */
  'user.locked': z.strictObject({ until: z.iso.datetime() }),
  /** An admin lifted a lock before it ended. */
  'user.unlocked': z.strictObject({}),
  /**
   * A signing key was generated (the target is its kid): published from now, signing from
   * `activatesAt` (`state` current: at once). `automatic`: by the rotation schedule
   * (KEY_ROTATION_DAYS) or a first start, not by an admin. Never key material.
   */
  'key.created': z.strictObject({
    alg: z.enum(ID_TOKEN_SIGNING_ALGS),
    state: z.enum(['next', 'current']),
    activatesAt: z.iso.datetime(),
    automatic: z.boolean(),
  }),
  /**
   * The target started signing for `alg`; `previousKid` stopped, and stays published until
   * `retireAfter`. `immediately`: an admin skipped the publication lead time (a compromised key).
   */
  'key.rotated': z.strictObject({
    alg: z.enum(ID_TOKEN_SIGNING_ALGS),
    previousKid: id.optional(),
    retireAfter: z.iso.datetime().optional(),
    immediately: z.boolean(),
    automatic: z.boolean(),
  }),
  /**
   * The target left the JWKS and was deleted. `reason`: `expired`, every token it signed has;
   * `admin`, an admin retired it (`early`: before that); `duplicate`, a second next key of
   * its algorithm that two instances created at once, which never signed.
   */
  /** An admin added, changed or removed an upstream identity provider (lib/federation/manage.ts). */
  'connection.created': z.strictObject({ slug: label, kind: z.enum(['oidc', 'oauth2']), enabled: z.boolean() }),
  'connection.updated': z.strictObject({ changed: fields }),
  'connection.deleted': z.strictObject({ slug: label, identities: z.number().int().min(0) }),
  /** An upstream identity became a way into the account: created just in time, or linked after the person proved the account. */
  'identity.linked': z.strictObject({ connection: label, via: z.enum(['just_in_time', 'local_sign_in', 'account']) }),
  /** An upstream identity removed from an account, by its owner or an admin. */
  'identity.unlinked': z.strictObject({ connection: label, by: z.enum(['self', 'admin']) }),
  /**
   * A sign-in through a connection that did not end in a session: `reason` says where it stopped
   * (lib/federation/errors.ts). Never a code, token or state.
   */
  'federation.failed': z.strictObject({ connection: label, reason: z.enum(federationFailureReasons), clientId: id.optional(), clientName: label.optional() }),
  'key.retired': z.strictObject({ alg: z.enum(ID_TOKEN_SIGNING_ALGS), reason: z.enum(['expired', 'admin', 'duplicate']), early: z.boolean().optional() }),
  /** An API (resource server) registered (lib/authorization); the target is its identifier. */
  'api.created': z.strictObject({ name: label, tokenFormat: z.enum(['opaque', 'jwt']), permissions: scopes }),
  /** `changed`: the settings changed; `added`/`removed`: permissions (a removed one leaves every role and client). */
  'api.updated': z.strictObject({ changed: fields.optional(), added: scopes.optional(), removed: scopes.optional() }),
  'api.deleted': z.strictObject({}),
  'group.created': z.strictObject({ name: label }),
  'group.deleted': z.strictObject({}),
  /** The group (the target, by its new name) was called `from` before. */
  'group.renamed': z.strictObject({ from: label }),
  /** `changed`: the group's fields that changed besides its name (its SCIM externalId, lib/scim/groups.ts). */
  'group.updated': z.strictObject({ changed: fields }),
  /** The person `username` joined or left the group (the target). */
  'group.member_added': z.strictObject({ userId: id, username: label }),
  'group.member_removed': z.strictObject({ userId: id, username: label }),
  'role.created': z.strictObject({ name: label }),
  'role.deleted': z.strictObject({}),
  /** The role (the target) grants, or no longer grants, `permission` of the API `api`. */
  'role.permission_added': z.strictObject({ api: label, permission: label }),
  'role.permission_removed': z.strictObject({ api: label, permission: label }),
  /** The role (the target) was given to, or taken from, a person or a group. */
  'role.assigned': z.strictObject({ to: z.enum(['user', 'group']), id, name: label }),
  'role.unassigned': z.strictObject({ to: z.enum(['user', 'group']), id, name: label }),
  /** The client (the target) gets, or no longer gets, `permission` of `api` with client_credentials. */
  'client.permission_added': z.strictObject({ api: label, permission: label }),
  'client.permission_removed': z.strictObject({ api: label, permission: label }),
  /** A custom user attribute (lib/claims) declared or deleted (with every value and mapping of it); the target is its key. */
  'attribute.created': z.strictObject({ type: z.enum(['string', 'number', 'boolean']), editableBy: z.enum(['admin', 'user']) }),
  'attribute.deleted': z.strictObject({}),
  /** The client (the target) gets, or no longer gets, the attribute `attribute` under `claim` (its claim mapping). */
  'client.claim_mapped': z.strictObject({ claim: label, attribute: label }),
  'client.claim_unmapped': z.strictObject({ claim: label }),
  /** A webhook endpoint (the target, labelled with its URL) registered, changed or deleted by an admin; never its secret. */
  'webhook.created': z.strictObject({ events: z.array(z.string().max(64)).max(50), enabled: z.boolean() }),
  'webhook.updated': z.strictObject({ changed: fields }),
  'webhook.deleted': z.strictObject({}),
  /**
   * Gatehouse disabled the endpoint: `failures` attempts in a row failed, the first at `since`; `error`, the
   * last one's status or network failure (lib/webhooks/delivery.ts).
   */
  'webhook.disabled': z.strictObject({ reason: z.enum(['failing']), failures: z.number().int().min(1), since: z.iso.datetime(), error: z.string().max(300) }),
  /** An admin asked for a delivery (`deliveryId`, of event `type`) to be sent again. */
  'webhook.delivery_resent': z.strictObject({ deliveryId: id, type: z.string().max(64) }),
} satisfies Record<string, z.ZodType>;

export type AuditAction = keyof typeof auditDetailsSchemas;
export const auditActions = Object.keys(auditDetailsSchemas) as AuditAction[];
export type AuditDetails<A extends AuditAction> = z.input<(typeof auditDetailsSchemas)[A]>;

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === 'string' && Object.hasOwn(auditDetailsSchemas, value);
}

export type AuditTargetType =
  | 'user'
  | 'client'
  | 'grant'
  | 'session'
  | 'signing_key'
  | 'connection'
  | 'registration_token'
  | 'scim_token'
  | 'api'
  | 'group'
  | 'role'
  | 'attribute'
  | 'webhook';

/**
 * How a client acting as itself (the admin API, with a client_credentials
 * token) is named as an actor: `client:<client_id>`, with no user id.
 */
export const CLIENT_ACTOR_PREFIX = 'client:';

/** How each action reads in the portal. */
export const auditActionLabels: Record<AuditAction, string> = {
  'sign_in.succeeded': 'Signed in',
  'sign_in.failed': 'Sign-in failed',
  'sign_in.second_factor_failed': 'Second step failed',
  'recovery_code.used': 'Recovery code used',
  'recovery_codes.regenerated': 'Recovery codes regenerated',
  'factor.enrolled': 'Two-step verification turned on',
  'factor.removed': 'Two-step verification turned off',
  'factor.reset': 'Two-step verification reset',
  'password.check_failed': 'Current password wrong',
  'consent.granted': 'Consent granted',
  'consent.denied': 'Consent denied',
  'consent.revoked': 'Consent revoked',
  'session.ended': 'Sessions ended',
  'token.revoked': 'Tokens revoked',
  'backchannel_logout.delivered': 'Logout token delivered',
  'backchannel_logout.abandoned': 'Logout token abandoned',
  'client.created': 'Client created',
  'client.updated': 'Client updated',
  'client.enabled': 'Client enabled',
  'client.disabled': 'Client disabled',
  'client.deleted': 'Client deleted',
  'client.registered': 'Client registered itself',
  'client.registration_updated': 'Client changed its registration',
  'client.registration_deleted': 'Client deleted its registration',
  'client.approved': 'Client approved',
  'registration_token.issued': 'Initial access token issued',
  'registration_token.revoked': 'Initial access token revoked',
  'scim_token.issued': 'SCIM token issued',
  'scim_token.revoked': 'SCIM token revoked',
  'client.secret_rotated': 'Client secret rotated',
  'client.permission_added': 'Client permission granted',
  'client.permission_removed': 'Client permission revoked',
  'api.created': 'API registered',
  'api.updated': 'API updated',
  'api.deleted': 'API deleted',
  'group.created': 'Group created',
  'group.deleted': 'Group deleted',
  'group.renamed': 'Group renamed',
  'group.updated': 'Group updated',
  'group.member_added': 'Group member added',
  'group.member_removed': 'Group member removed',
  'role.created': 'Role created',
  'role.deleted': 'Role deleted',
  'role.permission_added': 'Role permission added',
  'role.permission_removed': 'Role permission removed',
  'role.assigned': 'Role assigned',
  'role.unassigned': 'Role unassigned',
  'attribute.created': 'User attribute declared',
  'attribute.deleted': 'User attribute deleted',
  'client.claim_mapped': 'Claim mapped',
  'client.claim_unmapped': 'Claim mapping removed',
  'user.created': 'User created',
  'user.invited': 'Invitation sent',
  'invitation.accepted': 'Invitation accepted',
  'user.updated': 'User updated',
  'user.disabled': 'User disabled',
  'user.enabled': 'User enabled',
  'user.deleted': 'User deleted',
  'user.data_exported': 'Own data downloaded',
  'users.imported': 'People imported',
  'user.password_changed': 'Password changed',
  'password_reset.requested': 'Password reset mailed',
  'user.email_verified': 'Email verified',
  'user.signed_up': 'Signed up',
  'sign_up.address_taken': 'Sign-up with a taken address',
  'user.role_changed': 'Role changed',
  'user.locked': 'Account locked',
  'user.unlocked': 'Account unlocked',
  'key.created': 'Signing key created',
  'key.rotated': 'Signing key rotated',
  'key.retired': 'Signing key retired',
  'connection.created': 'Connection created',
  'connection.updated': 'Connection updated',
  'connection.deleted': 'Connection deleted',
  'identity.linked': 'Upstream identity linked',
  'identity.unlinked': 'Upstream identity unlinked',
  'federation.failed': 'Upstream sign-in failed',
  'webhook.created': 'Webhook endpoint added',
  'webhook.updated': 'Webhook endpoint changed',
  'webhook.deleted': 'Webhook endpoint deleted',
  'webhook.disabled': 'Webhook endpoint disabled after failures',
  'webhook.delivery_resent': 'Webhook delivery sent again',
};
