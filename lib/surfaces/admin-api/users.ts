/**
 * The admin API's user operations: the user use cases of lib/users/manage.ts
 * and the account ones (sessions, connected apps) the portal's user pages use;
 * one user's answer says until when failed password checks lock them out,
 * and whether they have a second step (DELETE .../second-factors resets it).
 * Each records itself in the audit log as done by the caller. An admin signed
 * in to the portal cannot disable themselves nor remove their own admin role
 * (the use cases refuse it: 403); a client has no such self.
 */
import 'server-only';
import type { Database } from '../../db/database.ts';
import type { UserRecord } from '../../users/repository.ts';
import { connectedApps, revokeAppOfUser } from '../../account/apps.ts';
import { activeSessions, endAllSessions, endOneSession } from '../../account/sessions.ts';
import { generatePassword } from '../../platform/passwords.ts';
import { Conflict, Forbidden, InvalidRequest, NotFound } from '../../platform/errors.ts';
import { inviteUser, resendInvitation as resendInvitationUseCase } from '../../users/invitations.ts';
import { addUser, changeProfile } from '../../users/onboarding.ts';
import type { Throttle } from '../../platform/throttle.ts';
import {
  changePassword,
  deleteUser as deleteUserUseCase,
  disableUser as disableUserUseCase,
  enableUser as enableUserUseCase,
  findUserById,
  resetSecondFactors,
  searchUsers,
  setRole,
  unlockUser as unlockUserUseCase,
} from '../../users/manage.ts';
import { userStanding } from '../../users/standing.ts';
import { grantDto, noSecondFactors, sessionDto, userDto, userSummaryDto } from './dto/users.ts';
import { operations } from './operations.ts';
import { endpoint } from './route.ts';

const notFound = (id: string) => new NotFound(`no user ${id}`);

async function existing(db: Database, id: string): Promise<UserRecord> {
  const user = await findUserById(db, id);
  if (!user) throw notFound(id);
  return user;
}

/** A taken username or email in the API's words, which name neither; any other failure goes on up as it is. */
const taken: Record<string, string> = { username: 'a user with this username already exists', email: 'another user already has this email address' };
function reworded(error: unknown): never {
  if (error instanceof Conflict && error.field && Object.hasOwn(taken, error.field)) throw new Conflict(taken[error.field]);
  throw error;
}

const holder = (user: UserRecord) => ({ id: user.id, username: user.username });

/** One user on the wire, with the lock the throttle holds on them now, their second step (never its secrets) and a pending invitation. */
const withLock = async (db: Database, throttle: Throttle, user: UserRecord) => {
  const { lockedUntil, secondFactors, invitation } = await userStanding(db, throttle, user);
  return userDto(user, lockedUntil, secondFactors, invitation ?? null);
};

export const listUsers = endpoint(operations.listUsers, async ({ db, query }) => {
  const { users, total } = await searchUsers(db, { query: query.q || undefined, skip: (query.page - 1) * query.per_page, take: query.per_page });
  // Without locked_until: a lock is two counter reads per user, and a list page has up to 100.
  return { data: users.map(userSummaryDto), page: query.page, per_page: query.per_page, total };
});

export const createUser = endpoint(operations.createUser, async (ctx) => {
  const { body, by } = ctx;
  const fields = { username: body.username, name: body.name ?? null, email: body.email ?? null, role: body.role };
  // A new id has no counters and no factors: nothing to read.
  if (body.invite) {
    if (body.password !== undefined) throw new InvalidRequest('an invited user chooses their own password: leave out password, or invite');
    const { user, invitation } = await inviteUser(ctx, fields, by).catch(reworded);
    const expiresAt = invitation.status === 'sent' ? invitation.expiresAt : null;
    return { ...userDto(user, null, noSecondFactors, expiresAt), mail_sent: invitation.status === 'sent' };
  }
  const generated = body.password === undefined;
  const password = body.password ?? generatePassword();
  const { user, verification } = await addUser(ctx, { ...fields, password }, by, { generated }).catch(reworded);
  return {
    ...userDto(user, null, noSecondFactors),
    ...(generated ? { password } : {}),
    ...(verification ? { mail_sent: verification === 'sent' } : {}),
  };
});

/** 200 whether or not the mail left (`mail_sent`): the user is unchanged either way, and an earlier link still works after a failure. */
export const resendInvitation = endpoint(operations.resendInvitation, async (ctx) => {
  const { user, invitation } = await resendInvitationUseCase(ctx, (await existing(ctx.db, ctx.params.id)).id, ctx.by);
  return { ...(await withLock(ctx.db, ctx.throttle, user)), mail_sent: invitation.status === 'sent' };
});

export const getUser = endpoint(operations.getUser, async ({ db, throttle, params }) => withLock(db, throttle, await existing(db, params.id)));

/** A new address gets its verification link (`mail_sent`), as a new user's does. */
export const updateUser = endpoint(operations.updateUser, async (ctx) => {
  const { db, throttle, params, body, by } = ctx;
  const user = await existing(db, params.id);
  const profile = { name: body.name === undefined ? user.name : body.name, email: body.email === undefined ? user.email : body.email };
  const { user: changed, verification } = await changeProfile(ctx, user.id, profile, by).catch(reworded);
  return { ...(await withLock(db, throttle, changed)), ...(verification ? { mail_sent: verification === 'sent' } : {}) };
});

export const setUserPassword = endpoint(operations.setUserPassword, async ({ db, params, body, by }) => {
  const user = await existing(db, params.id);
  const generated = body.password === undefined;
  const password = body.password ?? generatePassword();
  const { endedSessions } = await changePassword(db, user.id, password, by, { generated });
  return { generated, ended_sessions: endedSessions, ...(generated ? { password } : {}) };
});

export const setUserRole = endpoint(operations.setUserRole, async ({ db, throttle, params, body, by }) =>
  withLock(db, throttle, await setRole(db, (await existing(db, params.id)).id, body.role, by)),
);

export const enableUser = endpoint(operations.enableUser, async ({ db, throttle, params, by }) =>
  withLock(db, throttle, await enableUserUseCase(db, (await existing(db, params.id)).id, by)),
);

export const disableUser = endpoint(operations.disableUser, async ({ db, throttle, params, by }) =>
  withLock(db, throttle, await disableUserUseCase(db, (await existing(db, params.id)).id, by)),
);

export const deleteUser = endpoint(operations.deleteUser, async ({ db, params, by }) => {
  if (!(await deleteUserUseCase(db, (await existing(db, params.id)).id, by))) throw notFound(params.id);
});

/** Idempotent: the answer is the user, unlocked, whether or not there was a lock (the audit log says which). */
export const unlockUser = endpoint(operations.unlockUser, async ({ db, throttle, params, by }) => {
  const { user } = await unlockUserUseCase({ db, throttle }, params.id, by);
  return withLock(db, throttle, user);
});

/** Idempotent: the answer is the user, without a second step, whether or not there was one (the audit log says which). */
export const resetUserSecondFactors = endpoint(operations.resetUserSecondFactors, async ({ db, throttle, params, by }) => {
  const { user } = await resetSecondFactors(db, params.id, by);
  return withLock(db, throttle, user);
});

export const listUserSessions = endpoint(operations.listUserSessions, async ({ db, config, params, now }) => ({
  data: (await activeSessions(db, holder(await existing(db, params.id)), config.SESSION_TTL, now())).map(sessionDto),
}));

export const endUserSessions = endpoint(operations.endUserSessions, async ({ db, params, by }) => ({
  ended: await endAllSessions(db, holder(await existing(db, params.id)), by),
}));

export const endUserSession = endpoint(operations.endUserSession, async ({ db, params, by }) => {
  const result = await endOneSession(db, holder(await existing(db, params.id)), params.uid, by);
  if (result.status !== 'ended') throw new NotFound(`no session ${params.uid} of user ${params.id}`);
});

export const listUserGrants = endpoint(operations.listUserGrants, async ({ db, params, now }) => ({
  data: (await connectedApps(db, holder(await existing(db, params.id)), now())).map(grantDto),
}));

export const revokeUserGrant = endpoint(operations.revokeUserGrant, async ({ db, params, by }) => {
  const result = await revokeAppOfUser(db, holder(await existing(db, params.id)), params.client_id, by);
  if (result.status === 'refused') throw new Forbidden("the portal is Gatehouse's own app: end the user's sessions, or disable them, instead");
  if (result.status !== 'revoked') throw new NotFound(`user ${params.id} has granted nothing to client ${params.client_id}`);
});
