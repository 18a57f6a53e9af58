'use server';
/**
 * The client pages' server actions. Each one calls requireAdmin() first: a
 * server action is a public POST endpoint, whatever page its form is on.
 * Next.js refuses server-action posts whose Origin is not this host (CSRF).
 */
import { notFound, redirect } from 'next/navigation';
import {
  createClientFromForm,
  deleteClientFromForm,
  rotateSecretFromForm,
  setClientEnabledFor,
  updateClientFromForm,
  type ClientChange,
  type ClientFormState,
  type SecretRotation,
} from '@/lib/services/portal/clients';
import { requireAdmin } from '@/lib/services/portal/session';

const clientPath = (id: string) => `/admin/clients/${encodeURIComponent(id)}`;

export async function createClientAction(_state: ClientFormState, form: FormData): Promise<ClientFormState> {
  const admin = await requireAdmin('/admin/clients/new');
  return createClientFromForm(admin, form);
}

export async function updateClientAction(id: string, _state: ClientFormState, form: FormData): Promise<ClientFormState> {
  const admin = await requireAdmin(`${clientPath(id)}/edit`);
  const result = await updateClientFromForm(admin, id, form);
  if (result.status === 'not_found') notFound();
  if (result.status === 'saved') redirect(`${clientPath(id)}?notice=saved`);
  return result;
}

export async function rotateSecretAction(id: string, _state: SecretRotation, form: FormData): Promise<SecretRotation> {
  const admin = await requireAdmin(clientPath(id));
  return rotateSecretFromForm(admin, id, form);
}

export async function setClientEnabledAction(id: string, enabled: boolean): Promise<void> {
  const admin = await requireAdmin(clientPath(id));
  const result = await setClientEnabledFor(admin, id, enabled);
  if (result.status === 'not_found') notFound();
  redirect(`${clientPath(id)}?notice=${result.status === 'done' ? (enabled ? 'enabled' : 'disabled') : 'managed'}`);
}

export async function deleteClientAction(id: string, _state: ClientChange | undefined, form: FormData): Promise<ClientChange | undefined> {
  const admin = await requireAdmin(clientPath(id));
  const result = await deleteClientFromForm(admin, id, form);
  if (result.status === 'not_found') notFound();
  if (result.status === 'done') redirect('/admin/clients?notice=deleted');
  return result;
}
