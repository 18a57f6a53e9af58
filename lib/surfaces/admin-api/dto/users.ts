/**
 * Users, their sessions and their grants on the wire. Request fields are the
 * user schemas' own (lib/users/manage.ts, shared with the CLI and the
 * portal). A password goes in, never out, except one Gatehouse generated:
 * that is in the one answer that created it.
 */
import { z } from 'zod';
import type { UserRecord } from '../../../users/repository.ts';
import type { ConnectedApp } from '../../../account/apps.ts';
import type { ActiveSession } from '../../../account/sessions.ts';
import { newUserSchema, passwordSchema, profileSchema, type SecondFactors } from '../../../users/manage.ts';
import { userToWire } from '../../../users/wire.ts';
import { isoOrNull, pageOf, timestamp } from './common.ts';
import { roleSchema } from '../../../admin-roles/roles.ts';

const role = roleSchema.meta({
  description: 'user (no admin role), or the admin role they hold: owner, admin, user_manager or auditor (see the docs, Admin roles).',
});

/** What the list shows of each user: the stored record only, so a page of users costs one query. */
export const userSummarySchema = z
  .strictObject({
    id: z.string(),
    username: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    email_verified: z.boolean(),
    role,
    disabled: z.boolean(),
    invited: z.boolean().meta({
      description: 'Created with an invitation and no password yet: the person chooses it with the mailed link (POST .../invitation sends a new one).',
    }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'UserSummary', description: 'A person who can sign in, as listed (GET the user for `locked_until`). Never their password or its hash.' });

export const secondFactorSchema = z
  .strictObject({
    totp: z.boolean().meta({ description: 'Whether the user signs in with a TOTP code (a confirmed authenticator app) after their password.' }),
    totp_since: timestamp.nullable().meta({ description: 'When the TOTP factor was confirmed; null when it is off.' }),
    passkeys: z
      .array(
        z.strictObject({
          name: z.string().meta({ description: "The person's name for it." }),
          created_at: timestamp,
          last_used_at: timestamp.nullable(),
        }),
      )
      .meta({ description: 'The passkeys the user signs in with (after the password, or alone): never a key.' }),
    recovery_codes_left: z.number().int().min(0).meta({ description: 'How many unused recovery codes remain.' }),
  })
  .meta({
    id: 'SecondFactor',
    description: "The user's two-step verification: never a secret, hash or code. DELETE .../second-factors removes it (a lost authenticator).",
  });

export const userSchema = userSummarySchema
  .extend({
    locked_until: timestamp.nullable().meta({
      description: 'Until when failed password checks lock the account; null when it is not locked. POST .../unlock lifts it.',
    }),
    second_factor: secondFactorSchema,
    invitation_expires_at: timestamp.nullable().meta({
      description:
        'For an invited user: when the latest invitation link stops working (in the past: it expired); null when none is pending (not invited, or the mail could not be sent). Never the link.',
    }),
  })
  .meta({ id: 'User', description: 'A person who can sign in. Never their password or its hash.' });

export const userListSchema = pageOf(userSummarySchema).meta({ id: 'UserList' });

const generatedPassword = z.string().meta({ description: 'Only when Gatehouse generated the password: shown in this answer and never again.' });

const mailSent = z.boolean().meta({
  description:
    'Whether the mail reached the mail server: false when it refused or could not be reached (nothing else is undone: send it again) or when this server sends no mail.',
});

export const createdUserSchema = userSchema
  .extend({
    password: generatedPassword.optional(),
    mail_sent: mailSent.optional().meta({
      description:
        'Only for a user with an email: whether the invitation (`invite`) or else the verification link reached the mail server. False: the user is created all the same; POST .../invitation sends an invitation again.',
    }),
  })
  .meta({ id: 'CreatedUser' });

export const updatedUserSchema = userSchema
  .extend({
    mail_sent: mailSent.optional().meta({
      description: 'Only when the email changed to a new address: whether its verification link reached the mail server (the change is kept either way).',
    }),
  })
  .meta({ id: 'UpdatedUser' });

export const invitationSentSchema = userSchema.extend({ mail_sent: mailSent }).meta({ id: 'InvitationSent' });

export const newUserBodySchema = z
  .strictObject({
    username: newUserSchema.shape.username,
    name: newUserSchema.shape.name.unwrap().optional(),
    email: newUserSchema.shape.email.unwrap().optional(),
    role: newUserSchema.shape.role.unwrap().optional(),
    password: passwordSchema.optional().meta({ description: 'Leave out to have Gatehouse generate one (returned once), or to invite.' }),
    invite: z.boolean().optional().meta({
      description:
        'true: no password; `email` (required) gets a link that works once, for 7 days, to choose one, which also verifies the address. Refused with `password`, and when the server sends no mail.',
    }),
  })
  .meta({ id: 'NewUser' });

export const profilePatchSchema = z
  .strictObject({
    name: profileSchema.shape.name.unwrap().optional(),
    email: profileSchema.shape.email.unwrap().optional().meta({ description: 'A changed email is no longer verified. null or "" removes it.' }),
  })
  .meta({ id: 'ProfilePatch', description: 'The fields to change; the others stay.' });

export const passwordBodySchema = z
  .strictObject({ password: passwordSchema.optional().meta({ description: 'Leave out to have Gatehouse generate one (returned once).' }) })
  .meta({
    id: 'NewPassword',
    description:
      'The old password stops working at once and every Gatehouse session of the user ends (tokens bound to a session end with it; grants and refresh tokens stay).',
  });

export const passwordSetSchema = z
  .strictObject({
    generated: z.boolean(),
    ended_sessions: z.number().int().min(0).meta({ description: "How many of the user's sessions ended with the old password." }),
    password: generatedPassword.optional(),
  })
  .meta({ id: 'PasswordSet' });

export const roleBodySchema = z.strictObject({ role }).meta({ id: 'RoleChange' });

export const sessionSchema = z
  .strictObject({
    uid: z.string(),
    signed_in_at: timestamp.nullable(),
    last_active_at: timestamp.nullable().meta({ description: 'When the session last signed the person in to an app.' }),
    expires_at: timestamp.nullable(),
    apps: z.array(z.string()).meta({ description: 'The apps signed in through this session, by name.' }),
  })
  .meta({ id: 'Session', description: 'A Gatehouse sign-in session, named by its uid (never its cookie value).' });

export const sessionListSchema = z.strictObject({ data: z.array(sessionSchema) }).meta({ id: 'SessionList' });
export const sessionsEndedSchema = z.strictObject({ ended: z.number().int().min(0) }).meta({ id: 'SessionsEnded' });

export const grantSchema = z
  .strictObject({
    client_id: z.string(),
    client_name: z.string(),
    scope: z.string().meta({ description: 'The scopes granted, space-separated.' }),
    granted_at: timestamp.nullable(),
    last_used_at: timestamp.nullable(),
    first_party: z.boolean(),
    portal: z.boolean().meta({ description: "Gatehouse's own portal: not revocable (end the user's sessions instead)." }),
  })
  .meta({ id: 'Grant', description: 'An app the person granted access to.' });

export const grantListSchema = z.strictObject({ data: z.array(grantSchema) }).meta({ id: 'GrantList' });

/** The one serializer of a user, shared with the CLI (lib/clients/wire.ts, lib/users/wire.ts, lib/keys/wire.ts), for the list. */
export function userSummaryDto(user: UserRecord): z.input<typeof userSummarySchema> {
  return userToWire(user);
}

/** What a user who has never set up a second step has: a new user's. */
export const noSecondFactors: SecondFactors = { totp: false, since: null, pending: false, passkeys: [], recoveryCodesLeft: 0 };

/**
 * One user, with what only the API adds: the lock the throttle holds on them
 * (lockOf in lib/users/manage.ts), their second step (secondFactorsOf) and
 * their pending invitation's expiry (invitationOf in lib/users/invitations.ts).
 */
export function userDto(
  user: UserRecord,
  lockedUntil: Date | null,
  factors: SecondFactors,
  invitationExpiresAt: Date | null = null,
): z.input<typeof userSchema> {
  return {
    ...userToWire(user),
    locked_until: isoOrNull(lockedUntil),
    invitation_expires_at: isoOrNull(invitationExpiresAt),
    second_factor: {
      totp: factors.totp,
      totp_since: isoOrNull(factors.since),
      passkeys: factors.passkeys.map((p) => ({ name: p.name, created_at: p.createdAt.toISOString(), last_used_at: isoOrNull(p.lastUsedAt) })),
      recovery_codes_left: factors.recoveryCodesLeft,
    },
  };
}

export function sessionDto(session: ActiveSession): z.input<typeof sessionSchema> {
  return {
    uid: session.uid,
    signed_in_at: isoOrNull(session.signedInAt),
    last_active_at: isoOrNull(session.lastActiveAt),
    expires_at: isoOrNull(session.expiresAt),
    apps: session.apps,
  };
}

export function grantDto(app: ConnectedApp): z.input<typeof grantSchema> {
  return {
    client_id: app.clientId,
    client_name: app.name,
    scope: app.scopes.join(' '),
    granted_at: isoOrNull(app.grantedAt),
    last_used_at: isoOrNull(app.lastUsedAt),
    first_party: app.firstParty,
    portal: app.portal,
  };
}
