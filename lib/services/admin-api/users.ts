/**
 * The admin API's user operations: the user use cases of lib/services/users.ts
 * and the account ones (sessions, connected apps) the portal's user pages use.
 * Each records itself in the audit log as done by the caller. An admin signed
 * in to the portal cannot disable themselves nor remove their own admin role
 * (the use cases refuse it: 403); a client has no such self.
 */
import 'server-only';
import type { Database } from '../../db/database.ts';
import type { UserRecord } from '../../db/users.ts';
import { connectedApps, revokeAppOfUser } from '../account/apps.ts';
import { activeSessions, endAllSessions, endOneSession } from '../account/sessions.ts';
import { generatePassword } from '../passwords.ts';
import { changePassword, createUser as createUserUseCase, disableUser as disableUserUseCase, enableUser as enableUserUseCase, getUserById, searchUsers, setRole, updateProfile, UserError } from '../users.ts';
import { grantDto, sessionDto, userDto } from './dto/users.ts';
import { ApiError } from './errors.ts';
import { operations } from './operations.ts';
import { endpoint } from './route.ts';

const notFound = (id: string) => new ApiError('not_found', `no user ${id}`);

async function existing(db: Database, id: string): Promise<UserRecord> {
  const user = await getUserById(db, id);
  if (!user) throw notFound(id);
  return user;
}

/** The use cases' expected refusals in the API's words; anything else goes on up. */
function refusal(error: unknown, id: string): never {
  if (error instanceof UserError) {
    if (error.code === 'not_found') throw notFound(id);
    if (error.code === 'self_change') throw new ApiError('forbidden', error.message);
    if (error.code === 'username_taken') throw new ApiError('conflict', 'a user with this username already exists');
    if (error.code === 'email_taken') throw new ApiError('conflict', 'another user already has this email address');
  }
  throw error;
}

const holder = (user: UserRecord) => ({ id: user.id, username: user.username });

export const listUsers = endpoint(operations.listUsers, async ({ db, query }) => {
  const { users, total } = await searchUsers(db, { query: query.q || undefined, skip: (query.page - 1) * query.per_page, take: query.per_page });
  return { data: users.map(userDto), page: query.page, per_page: query.per_page, total };
});

export const createUser = endpoint(operations.createUser, async ({ db, body, by }) => {
  const generated = body.password === undefined;
  const password = body.password ?? generatePassword();
  try {
    const user = await createUserUseCase(db, { username: body.username, name: body.name ?? null, email: body.email ?? null, role: body.role, password }, by, { generated });
    return { ...userDto(user), ...(generated ? { password } : {}) };
  } catch (error) {
    refusal(error, body.username);
  }
});

export const getUser = endpoint(operations.getUser, async ({ db, params }) => userDto(await existing(db, params.id)));

export const updateUser = endpoint(operations.updateUser, async ({ db, params, body, by }) => {
  const user = await existing(db, params.id);
  const profile = { name: body.name === undefined ? user.name : body.name, email: body.email === undefined ? user.email : body.email };
  try {
    return userDto(await updateProfile(db, user.id, profile, by));
  } catch (error) {
    refusal(error, params.id);
  }
});

export const setUserPassword = endpoint(operations.setUserPassword, async ({ db, params, body, by }) => {
  const user = await existing(db, params.id);
  const generated = body.password === undefined;
  const password = body.password ?? generatePassword();
  try {
    await changePassword(db, user.username, password, by, { generated });
  } catch (error) {
    refusal(error, params.id);
  }
  return generated ? { generated, password } : { generated };
});

export const setUserRole = endpoint(operations.setUserRole, async ({ db, params, body, by }) => {
  try {
    return userDto(await setRole(db, (await existing(db, params.id)).id, body.role, by));
  } catch (error) {
    refusal(error, params.id);
  }
});

export const enableUser = endpoint(operations.enableUser, async ({ db, params, by }) => {
  try {
    return userDto(await enableUserUseCase(db, (await existing(db, params.id)).username, by));
  } catch (error) {
    refusal(error, params.id);
  }
});

export const disableUser = endpoint(operations.disableUser, async ({ db, params, by }) => {
  try {
    return userDto(await disableUserUseCase(db, (await existing(db, params.id)).username, by));
  } catch (error) {
    refusal(error, params.id);
  }
});

export const listUserSessions = endpoint(operations.listUserSessions, async ({ db, params }) => ({
  data: (await activeSessions(db, holder(await existing(db, params.id)))).map(sessionDto),
}));

export const endUserSessions = endpoint(operations.endUserSessions, async ({ db, params, by }) => ({
  ended: await endAllSessions(db, holder(await existing(db, params.id)), by),
}));

export const endUserSession = endpoint(operations.endUserSession, async ({ db, params, by }) => {
  const result = await endOneSession(db, holder(await existing(db, params.id)), params.uid, by);
  if (result.status !== 'ended') throw new ApiError('not_found', `no session ${params.uid} of user ${params.id}`);
});

export const listUserGrants = endpoint(operations.listUserGrants, async ({ db, params }) => ({
  data: (await connectedApps(db, holder(await existing(db, params.id)))).map(grantDto),
}));

export const revokeUserGrant = endpoint(operations.revokeUserGrant, async ({ db, params, by }) => {
  const result = await revokeAppOfUser(db, holder(await existing(db, params.id)), params.client_id, by);
  if (result.status === 'refused') throw new ApiError('forbidden', "the portal is Gatehouse's own app: end the user's sessions, or disable them, instead");
  if (result.status !== 'revoked') throw new ApiError('not_found', `user ${params.id} has granted nothing to client ${params.client_id}`);
});
