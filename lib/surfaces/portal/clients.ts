/**
 * The admin portal's client pages as use cases: list, show, create, edit,
 * rotate the secret, disable/enable, delete. Each takes the admin that
 * `requireAdmin()` returned (who acts; the use case records it in the audit log) and talks
 * to storage only through lib/clients/manage.ts. Expected failures come back
 * as values for the form to show; anything else throws.
 */
import 'server-only';
import { type ListPage, listPage, NEWEST_FIRST } from '../../platform/paging.ts';
import { serverContext } from '../../context.ts';
import { CLIENT_SORTS, type ClientRecord, type ClientSort } from '../../clients/repository.ts';
import {
  disableClient,
  enableClient,
  findClient,
  registerClient,
  deleteClient,
  rotateClientSecret,
  searchClients,
  updateClient,
} from '../../clients/manage.ts';
import { violationsOf } from '../../clients/policy-report.ts';
import { approveClient } from '../../registration/clients.ts';
import { Conflict, NotFound } from '../../platform/errors.ts';
import { formProblems } from '../../platform/forms.ts';
import type { TrustViolation } from '../../oidc/client-policy.ts';
import type { AdminUser } from './access.ts';
import { byAdmin } from './audit-context.ts';
import { clientFields, clientFormValues, readClientForm, type ClientFieldProblems, type ClientFormValues } from './client-fields.ts';
import { PORTAL_CLIENT_ID } from '../../clients/portal-client.ts';
import { type ClientPreset, kindOf } from './client-presets.ts';

export const CLIENTS_PER_PAGE = 20;

/** The portal's own client is kept as the portal needs it (lib/start/first-start.ts): look, don't touch. */
export function isManagedClient(id: string): boolean {
  return id === PORTAL_CLIENT_ID;
}

export interface ClientSummary {
  id: string;
  name: string;
  confidential: boolean;
  enabled: boolean;
  firstParty: boolean;
  /** Every sign-in to it ends with a second factor: the list says so. */
  requireSecondFactor: boolean;
  managed: boolean;
  /** Registered itself and waits for an admin's approval (lib/registration/clients.ts): the list says so. */
  approvalPending: boolean;
  createdAt: Date;
}

export async function clientsPage(
  _admin: AdminUser,
  params: { q?: unknown; page?: unknown; sort?: unknown },
): Promise<ListPage<ClientSummary, ClientSort['column']>> {
  return listPage(params, { perPage: CLIENTS_PER_PAGE, columns: CLIENT_SORTS, defaultSort: NEWEST_FIRST }, async (range) => {
    const { clients, total } = await searchClients(serverContext().db, range);
    const rows = clients.map((c) => ({
      id: c.id,
      name: c.name,
      confidential: c.confidential,
      enabled: c.enabled,
      firstParty: c.firstParty,
      requireSecondFactor: c.requireSecondFactor,
      managed: isManagedClient(c.id),
      approvalPending: c.approvalPending,
      createdAt: c.createdAt,
    }));
    return { rows, total };
  });
}

/**
 * A client for its page; `policyViolations` says which rules of lib/oidc/client-policy.ts a registration from
 * before them breaks (the page says what is not honoured of it, in its words).
 */
export async function clientDetails(
  _admin: AdminUser,
  id: string,
): Promise<(ClientRecord & { managed: boolean; policyViolations: TrustViolation[] }) | undefined> {
  const client = await findClient(serverContext().db, id);
  return client ? { ...client, managed: isManagedClient(client.id), policyViolations: violationsOf(client) } : undefined;
}

/** The edit form's starting values, or undefined for an unknown or managed client. */
export async function clientFormFor(admin: AdminUser, id: string): Promise<{ client: ClientRecord; values: ClientFormValues } | undefined> {
  const client = await clientDetails(admin, id);
  if (!client || client.managed) return undefined;
  return { client, values: clientFormValues(client) };
}

export type ClientFormState =
  | { status: 'editing'; values: ClientFormValues; problems: ClientFieldProblems }
  /** The secret is in this one answer and nowhere else: it is never stored in clear nor shown again. */
  | { status: 'created'; client: { id: string; name: string; kind: ClientPreset; redirectUri?: string }; clientSecret?: string };

export async function createClientFromForm(admin: AdminUser, form: FormData): Promise<ClientFormState> {
  const { values, input } = readClientForm(form);
  try {
    const { client, clientSecret } = await registerClient(serverContext().db, input, { by: await byAdmin(admin) });
    return { status: 'created', client: { id: client.id, name: client.name, kind: kindOf(client), redirectUri: client.redirectUris[0] }, clientSecret };
  } catch (error) {
    return { status: 'editing', values, problems: formProblems(error, clientFields) };
  }
}

export type ClientUpdate = ClientFormState | { status: 'saved' } | { status: 'not_found' };

export async function updateClientFromForm(admin: AdminUser, id: string, form: FormData): Promise<ClientUpdate> {
  const existing = await findClient(serverContext().db, id);
  if (!existing) return { status: 'not_found' };
  const { values, input } = readClientForm(form, existing.confidential ? 'confidential' : 'public');
  if (isManagedClient(id)) return { status: 'editing', values, problems: { form: [{ code: 'managed_client' }] } };
  try {
    await updateClient(serverContext().db, id, input, await byAdmin(admin));
    return { status: 'saved' };
  } catch (error) {
    if (error instanceof NotFound) return { status: 'not_found' };
    return { status: 'editing', values, problems: formProblems(error, clientFields) };
  }
}

/** Why a client's secret was not rotated or the client not deleted, as the page words it (admin.clientActions.refused). */
export type ClientRefusal = 'managed' | 'rotate_unconfirmed' | 'delete_unconfirmed' | 'gone' | 'public';

export type SecretRotation = { status: 'idle' } | { status: 'refused'; reason: ClientRefusal } | { status: 'rotated'; clientSecret: string };

/** A destructive step, so the form asks for a tick first: the old secret stops working at once. */
export async function rotateSecretFromForm(admin: AdminUser, id: string, form: FormData): Promise<SecretRotation> {
  if (isManagedClient(id)) return { status: 'refused', reason: 'managed' };
  if (form.get('confirm') !== 'on') return { status: 'refused', reason: 'rotate_unconfirmed' };
  try {
    return { status: 'rotated', clientSecret: await rotateClientSecret(serverContext().db, id, await byAdmin(admin)) };
  } catch (error) {
    if (error instanceof NotFound) return { status: 'refused', reason: 'gone' };
    if (error instanceof Conflict) return { status: 'refused', reason: 'public' };
    throw error;
  }
}

export type ClientChange = { status: 'done' } | { status: 'refused'; reason: ClientRefusal } | { status: 'not_found' };

/** Disabling revokes the client's tokens and grants; to the provider it no longer exists until enabled again. */
export async function setClientEnabledFor(admin: AdminUser, id: string, enabled: boolean): Promise<ClientChange> {
  if (isManagedClient(id)) return { status: 'refused', reason: 'managed' };
  const by = await byAdmin(admin);
  const done = enabled ? await enableClient(serverContext().db, id, by) : await disableClient(serverContext().db, id, by);
  return done ? { status: 'done' } : { status: 'not_found' };
}

/** A self-registered client waiting for approval signs people in from now on (lib/registration/clients.ts). */
export async function approveClientFor(
  admin: AdminUser,
  id: string,
): Promise<{ status: 'done' } | { status: 'refused'; reason: 'not_pending' } | { status: 'not_found' }> {
  const client = await findClient(serverContext().db, id);
  if (!client) return { status: 'not_found' };
  if (!client.approvalPending) return { status: 'refused', reason: 'not_pending' };
  await approveClient(serverContext().db, id, await byAdmin(admin));
  return { status: 'done' };
}

/** Deleting revokes every token and grant the client holds (deleteClient). Asks for a tick first. */
export async function deleteClientFromForm(admin: AdminUser, id: string, form: FormData): Promise<ClientChange> {
  if (isManagedClient(id)) return { status: 'refused', reason: 'managed' };
  if (form.get('confirm') !== 'on') return { status: 'refused', reason: 'delete_unconfirmed' };
  return (await deleteClient(serverContext().db, id, await byAdmin(admin))) ? { status: 'done' } : { status: 'not_found' };
}
