'use server';
// The connection pages' server actions in page order (new, the connection's page, edit); outcomes.ts says what they
// share: each runs as the signed-in admin (requireAdmin), and Next.js refuses a server-action post from another Origin.
import { notFound, redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import {
  createConnectionFromForm,
  deleteConnectionFromForm,
  setConnectionEnabledFor,
  setPasswordFormFor,
  updateConnectionFromForm,
  type ConnectionChange,
  type ConnectionFormState,
} from '@/lib/surfaces/portal/connections';
import { confirmOrSay, type Confirmation } from '@/lib/surfaces/portal/confirmation';
import { afterChange, afterForm, asAdmin, createRecord, editRecord, recordPath } from '../outcomes';

const connectionPath = (slug: string) => recordPath('connections', slug);

export async function createConnectionAction(_state: ConnectionFormState, form: FormData): Promise<ConnectionFormState> {
  const result = await createRecord('connections', (admin) => createConnectionFromForm(admin, form));
  return result.status === 'saved' ? afterForm(connectionPath(result.slug), result) : result;
}

export async function enableConnectionAction(slug: string): Promise<void> {
  const result = await asAdmin('connections.manage', connectionPath(slug), (admin) => setConnectionEnabledFor(admin, slug, true));
  afterChange(connectionPath(slug), result, { done: 'enabled', refused: 'enabled' });
}

/** Disabling takes the button off every sign-in page: only with the box ticked. */
export async function disableConnectionAction(slug: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, (await getTranslations('admin.connection'))('disableUnconfirmed'), async () => {
    const result = await asAdmin('connections.manage', connectionPath(slug), (admin) => setConnectionEnabledFor(admin, slug, false));
    afterChange(connectionPath(slug), result, { done: 'disabled', refused: 'disabled' });
  });
}

export async function deleteConnectionAction(slug: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, (await getTranslations('admin.connection'))('deleteUnconfirmed'), async () => {
    const result: ConnectionChange = await asAdmin('connections.manage', connectionPath(slug), (admin) => deleteConnectionFromForm(admin, slug, form));
    if (result.status === 'not_found') notFound();
    redirect('/admin/connections?notice=deleted');
  });
}

export async function updateConnectionAction(slug: string, _state: ConnectionFormState, form: FormData): Promise<ConnectionFormState> {
  return editRecord('connections', slug, (admin) => updateConnectionFromForm(admin, slug, form));
}

/** An app's password form on or off, from /admin/connections/sign-in-pages. */
export async function setPasswordFormAction(clientId: string, on: boolean): Promise<void> {
  const path = '/admin/connections/sign-in-pages';
  const result = await asAdmin('clients.manage', path, (admin) => setPasswordFormFor(admin, clientId, on));
  afterChange(path, result, { done: on ? 'passwordOn' : 'passwordOff', refused: 'passwordOff' });
}
