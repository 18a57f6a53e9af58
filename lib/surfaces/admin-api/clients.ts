/**
 * The admin API's client operations: the client use cases of
 * lib/clients/manage.ts (the ones the portal and the CLI use), with the
 * portal's rule that Gatehouse's own client is read only. Every change is
 * recorded in the audit log by the use case, as done by the caller.
 */
import 'server-only';
import type { ClientRecord } from '../../clients/repository.ts';
import type { Database } from '../../db/database.ts';
import {
  disableClient as disableClientUseCase,
  enableClient as enableClientUseCase,
  findClient,
  newClientSchema,
  registerClient,
  deleteClient as deleteClientUseCase,
  rotateClientSecret as rotateClientSecretUseCase,
  searchClients,
  updateClient as updateClientUseCase,
  type NewClientInput,
} from '../../clients/manage.ts';
import { Conflict, Forbidden, NotFound } from '../../platform/errors.ts';
import { isManagedClient } from '../portal/clients.ts';
import { clientType, registrationOf } from '../../clients/wire.ts';
import { clientDto, clientFieldNames, clientInput } from './dto/clients.ts';
import { invalidRequest } from './errors.ts';
import { operations } from './operations.ts';
import { endpoint } from './route.ts';

const notFound = (id: string) => new NotFound(`no client ${id}`);

/** The registration with the schema's cross-field rules checked, its issues named as on the wire. */
function validRegistration(input: NewClientInput): NewClientInput {
  const result = newClientSchema.safeParse(input);
  if (!result.success) throw invalidRequest(result.error, clientFieldNames, 'body');
  return input;
}

async function existing(db: Database, id: string): Promise<ClientRecord> {
  const client = await findClient(db, id);
  if (!client) throw notFound(id);
  return client;
}

/** Gatehouse's own portal client is kept as the portal needs it (lib/start/first-start.ts). */
function changeable(id: string): void {
  if (isManagedClient(id)) throw new Forbidden('Gatehouse manages this client itself (the admin portal signs in with it): it cannot be changed');
}

const dto = (client: ClientRecord) => clientDto(client, isManagedClient(client.id));

export const listClients = endpoint(operations.listClients, async ({ db, query }) => {
  const { clients, total } = await searchClients(db, { query: query.q || undefined, skip: (query.page - 1) * query.per_page, take: query.per_page });
  return { data: clients.map(dto), page: query.page, per_page: query.per_page, total };
});

export const createClient = endpoint(operations.createClient, async ({ db, body, by }) => {
  const { client, clientSecret } = await registerClient(db, validRegistration(clientInput(body)), { by });
  return { ...dto(client), ...(clientSecret ? { client_secret: clientSecret } : {}) };
});

export const getClient = endpoint(operations.getClient, async ({ db, params }) => dto(await existing(db, params.id)));

export const updateClient = endpoint(operations.updateClient, async ({ db, params, body, by }) => {
  const current = await existing(db, params.id);
  changeable(current.id);
  // Turning one into the other would need a secret made or thrown away: a new client, not an edit.
  if (body.client_type && body.client_type !== clientType(current)) {
    throw new Conflict(`a ${clientType(current)} client stays ${clientType(current)}`);
  }
  return dto(await updateClientUseCase(db, current.id, validRegistration(clientInput(body, registrationOf(current))), by));
});

export const deleteClient = endpoint(operations.deleteClient, async ({ db, params, by }) => {
  changeable(params.id);
  if (!(await deleteClientUseCase(db, params.id, by))) throw notFound(params.id);
});

const setEnabled =
  (enabled: boolean) =>
  async ({ db, params, by }: { db: Database; params: { id: string }; by: Parameters<typeof enableClientUseCase>[2] }) => {
    changeable(params.id);
    const done = enabled ? await enableClientUseCase(db, params.id, by) : await disableClientUseCase(db, params.id, by);
    if (!done) throw notFound(params.id);
    return dto(await existing(db, params.id));
  };

export const enableClient = endpoint(operations.enableClient, setEnabled(true));
export const disableClient = endpoint(operations.disableClient, setEnabled(false));

export const rotateClientSecret = endpoint(operations.rotateClientSecret, async ({ db, params, by }) => {
  changeable(params.id);
  return { client_id: params.id, client_secret: await rotateClientSecretUseCase(db, params.id, by) };
});
