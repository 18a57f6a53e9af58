'use server';
// The client pages' server actions in page order (new, the client's page, edit); outcomes.ts says what they share.
import { notFound, redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import {
  approveClientFor,
  createClientFromForm,
  deleteClientFromForm,
  rotateSecretFromForm,
  setClientEnabledFor,
  updateClientFromForm,
} from '@/lib/surfaces/portal/clients';
import type { ClientChange, ClientFormState, SecretRotation } from '@/lib/surfaces/portal/clients';
import { confirmOrSay, type Confirmation } from '@/lib/surfaces/portal/confirmation';
import { afterChange, asAdmin, createRecord, editRecord, recordPath } from '../outcomes';

const clientPath = (id: string) => recordPath('clients', id);

export async function createClientAction(_state: ClientFormState, form: FormData): Promise<ClientFormState> {
  return createRecord('clients', (admin) => createClientFromForm(admin, form));
}

export async function rotateSecretAction(id: string, _state: SecretRotation, form: FormData): Promise<SecretRotation> {
  return asAdmin(clientPath(id), (admin) => rotateSecretFromForm(admin, id, form));
}

export async function enableClientAction(id: string): Promise<void> {
  const result = await asAdmin(clientPath(id), (admin) => setClientEnabledFor(admin, id, true));
  afterChange(clientPath(id), result, { done: 'enabled', refused: 'managed' });
}

/** A self-registered client waiting for approval signs people in from now on. */
export async function approveClientAction(id: string): Promise<void> {
  const result = await asAdmin(clientPath(id), (admin) => approveClientFor(admin, id));
  afterChange(clientPath(id), result, { done: 'approved', refused: 'notPending' });
}

/** Disabling revokes every token and grant the client holds: only with the box ticked. */
export async function disableClientAction(id: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, (await getTranslations('admin.client'))('disableUnconfirmed'), async () => {
    const result = await asAdmin(clientPath(id), (admin) => setClientEnabledFor(admin, id, false));
    afterChange(clientPath(id), result, { done: 'disabled', refused: 'managed' });
  });
}

export async function deleteClientAction(id: string, _state: ClientChange | undefined, form: FormData): Promise<ClientChange | undefined> {
  const result = await asAdmin(clientPath(id), (admin) => deleteClientFromForm(admin, id, form));
  if (result.status === 'not_found') notFound();
  if (result.status === 'done') redirect('/admin/clients?notice=deleted');
  return result;
}

export async function updateClientAction(id: string, _state: ClientFormState, form: FormData): Promise<ClientFormState> {
  return editRecord('clients', id, (admin) => updateClientFromForm(admin, id, form));
}
