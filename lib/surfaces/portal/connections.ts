/**
 * The admin portal's connection pages as use cases (list, show, create, edit, enable/disable, delete)
 * and a person's linked identities on their page. Each takes the admin `requireAdmin()` returned (who
 * acts, for the audit log) and goes through lib/federation/manage.ts, the CLI's and admin API's use
 * cases. Expected failures come back as values for the form; anything else throws. Nothing returned
 * holds the client secret: a record says only whether one is stored.
 */
import 'server-only';
import { env } from '../../config/env.ts';
import { serverContext } from '../../context.ts';
import {
  createConnection,
  deleteConnection,
  findConnectionOrThrow,
  listConnections,
  listIdentitiesOf,
  slugSchema,
  unlinkIdentity,
  updateConnection,
  type ConnectionUpdate,
} from '../../federation/manage.ts';
import { callbackUrl } from '../../federation/sign-in.ts';
import { listClientSignIn, setPasswordForm, type ClientSignInRecord } from '../../federation/client-sign-in.ts';
import type { ConnectionRecord } from '../../federation/repository.ts';
import { Forbidden, NotFound } from '../../platform/errors.ts';
import { formProblems } from '../../platform/forms.ts';
import type { AdminUser } from './access.ts';
import { byAdmin } from './audit-context.ts';
import { connectionFields, connectionFormValues, readConnectionForm, type ConnectionFieldProblems, type ConnectionFormValues } from './connection-fields.ts';
import { isConfirmed } from './confirmation.ts';

/** The URL to register at the provider: built from the configured issuer, never from a request. */
export const federationCallbackUrl = () => callbackUrl(env().ISSUER);

export const listConnectionsFor = async (_admin: AdminUser): Promise<ConnectionRecord[]> => listConnections(serverContext().db);

/** The connection named by a route's slug, or undefined (an unknown or malformed one is a 404). */
export async function connectionDetails(_admin: AdminUser, slug: string): Promise<ConnectionRecord | undefined> {
  if (!slugSchema.safeParse(slug).success) return undefined;
  try {
    return await findConnectionOrThrow(serverContext().db, slug);
  } catch (error) {
    if (error instanceof NotFound) return undefined;
    throw error;
  }
}

export async function connectionFormFor(admin: AdminUser, slug: string): Promise<{ connection: ConnectionRecord; values: ConnectionFormValues } | undefined> {
  const connection = await connectionDetails(admin, slug);
  return connection ? { connection, values: connectionFormValues(connection) } : undefined;
}

export type ConnectionFormState =
  | { status: 'editing'; values: ConnectionFormValues; problems: ConnectionFieldProblems }
  | { status: 'saved'; slug: string; notice: string }
  | { status: 'not_found' };

export async function createConnectionFromForm(admin: AdminUser, form: FormData): Promise<ConnectionFormState> {
  const { values, input } = readConnectionForm(form, 'create');
  try {
    const connection = await createConnection(serverContext().db, input, await byAdmin(admin));
    return { status: 'saved', slug: connection.slug, notice: 'created' };
  } catch (error) {
    return { status: 'editing', values, problems: formProblems(error, connectionFields) };
  }
}

export async function updateConnectionFromForm(admin: AdminUser, slug: string, form: FormData): Promise<ConnectionFormState> {
  const existing = await connectionDetails(admin, slug);
  if (!existing) return { status: 'not_found' };
  const { values, input } = readConnectionForm(form, 'edit');
  const { slug: _slug, ...changes } = input;
  try {
    await updateConnection(serverContext().db, existing.slug, changes as ConnectionUpdate, await byAdmin(admin));
    return { status: 'saved', slug: existing.slug, notice: 'saved' };
  } catch (error) {
    if (error instanceof NotFound) return { status: 'not_found' };
    return {
      status: 'editing',
      values: { ...values, slug: existing.slug, hasClientSecret: existing.hasClientSecret },
      problems: formProblems(error, connectionFields),
    };
  }
}

export type ConnectionChange = { status: 'done' } | { status: 'refused' } | { status: 'not_found' };

/** The apps whose sign-in page a connection is on, or whose password form is off: where the switch matters. */
export async function clientSignInFor(_admin: AdminUser): Promise<ClientSignInRecord[]> {
  return listClientSignIn(serverContext().db);
}

/** Turns an app's password form on or off (off: only its connections and passkeys; a password is refused). */
export async function setPasswordFormFor(admin: AdminUser, clientId: string, on: boolean): Promise<ConnectionChange> {
  try {
    await setPasswordForm(serverContext().db, clientId, on, await byAdmin(admin));
  } catch (error) {
    if (error instanceof NotFound) return { status: 'not_found' };
    throw error;
  }
  return { status: 'done' };
}

/** Disabled: no button on any sign-in page, and a sign-in already under way through it is refused. */
export async function setConnectionEnabledFor(admin: AdminUser, slug: string, enabled: boolean): Promise<ConnectionChange> {
  const existing = await connectionDetails(admin, slug);
  if (!existing) return { status: 'not_found' };
  await updateConnection(serverContext().db, existing.slug, { enabled }, await byAdmin(admin));
  return { status: 'done' };
}

/** Deleting also removes every identity linked through it (the accounts stay): only with the box ticked. */
export async function deleteConnectionFromForm(admin: AdminUser, slug: string, form: FormData): Promise<ConnectionChange> {
  if (!isConfirmed(form)) return { status: 'refused' };
  const existing = await connectionDetails(admin, slug);
  if (!existing) return { status: 'not_found' };
  try {
    await deleteConnection(serverContext().db, existing.slug, await byAdmin(admin));
    return { status: 'done' };
  } catch (error) {
    if (error instanceof NotFound) return { status: 'not_found' };
    throw error;
  }
}

export interface UserIdentity {
  id: string;
  connectionName: string;
  email: string | null;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export async function identitiesFor(_admin: AdminUser, userId: string): Promise<UserIdentity[]> {
  const identities = await listIdentitiesOf(serverContext().db, userId);
  return identities.map(({ id, connectionName, email, createdAt, lastUsedAt }) => ({ id, connectionName, email, createdAt, lastUsedAt }));
}

/** `last`: the person has no other way in (no password, passkey or other identity), so it stays. */
export async function unlinkIdentityFor(admin: AdminUser, userId: string, identityId: string): Promise<'unlinked' | 'last' | 'not_found'> {
  try {
    await unlinkIdentity(serverContext().db, userId.slice(0, 100), identityId.slice(0, 100), 'admin', await byAdmin(admin));
    return 'unlinked';
  } catch (error) {
    if (error instanceof Forbidden) return 'last';
    if (error instanceof NotFound) return 'not_found';
    throw error;
  }
}
