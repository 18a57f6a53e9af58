/** The admin API's connection operations and a person's linked identities (lib/federation/manage.ts). */
import {
  createConnection as createConnectionUseCase,
  deleteConnection as deleteConnectionUseCase,
  findConnectionOrThrow,
  listConnections as listConnectionsUseCase,
  listIdentitiesOf,
  unlinkIdentity,
  updateConnection as updateConnectionUseCase,
  type ConnectionUpdate,
  type NewConnectionInput,
} from '../../federation/manage.ts';
import type { IdentityRecord } from '../../federation/repository.ts';
import { findClientSignIn, setPasswordForm, type ClientSignInRecord } from '../../federation/client-sign-in.ts';
import { connectionToWire } from '../../federation/wire.ts';
import { findUserById } from '../../users/repository.ts';
import { NotFound } from '../../platform/errors.ts';
import { operations } from './operations.ts';
import { endpoint } from './route.ts';

/** Wire names to the use cases' (the wire is snake_case only at the wire). */
const camel = (body: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(body).map(([key, value]) => [key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()), value]));

const fromWire = (body: Record<string, unknown>) => {
  const { displayName, ...rest } = camel(body);
  return displayName === undefined ? rest : { ...rest, displayName };
};

export const listConnections = endpoint(operations.listConnections, async ({ db }) => ({ data: (await listConnectionsUseCase(db)).map(connectionToWire) }));

export const createConnection = endpoint(operations.createConnection, async ({ db, body, by }) =>
  connectionToWire(await createConnectionUseCase(db, fromWire(body) as NewConnectionInput, by)),
);

export const getConnection = endpoint(operations.getConnection, async ({ db, params }) => connectionToWire(await findConnectionOrThrow(db, params.slug)));

export const updateConnection = endpoint(operations.updateConnection, async ({ db, params, body, by }) =>
  connectionToWire(await updateConnectionUseCase(db, params.slug, fromWire(body) as ConnectionUpdate, by)),
);

export const deleteConnection = endpoint(operations.deleteConnection, async ({ db, params, by }) => {
  await deleteConnectionUseCase(db, params.slug, by);
});

const identityToWire = (identity: IdentityRecord) => ({
  id: identity.id,
  connection: identity.connectionSlug,
  connection_name: identity.connectionName,
  issuer: identity.issuer,
  subject: identity.subject,
  email: identity.email,
  created_at: identity.createdAt.toISOString(),
  last_used_at: identity.lastUsedAt ? identity.lastUsedAt.toISOString() : null,
});

export const listUserIdentities = endpoint(operations.listUserIdentities, async ({ db, params }) => {
  if (!(await findUserById(db, params.id))) throw new NotFound(`no user with id ${params.id}`);
  return { data: (await listIdentitiesOf(db, params.id)).map(identityToWire) };
});

export const unlinkUserIdentity = endpoint(operations.unlinkUserIdentity, async ({ db, params, by }) => {
  await unlinkIdentity(db, params.id, params.identityId, 'admin', by);
});

const clientSignInToWire = (entry: ClientSignInRecord) => ({ client_id: entry.clientId, password_form: entry.passwordForm, connections: entry.connections });

export const getClientSignIn = endpoint(operations.getClientSignIn, async ({ db, params }) => clientSignInToWire(await findClientSignIn(db, params.id)));

export const updateClientSignIn = endpoint(operations.updateClientSignIn, async ({ db, params, body, by }) =>
  clientSignInToWire(await setPasswordForm(db, params.id, body.password_form, by)),
);
