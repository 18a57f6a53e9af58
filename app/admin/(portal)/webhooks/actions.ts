'use server';
// The webhook pages' server actions: register an endpoint (its secret shown once), enable, disable, delete, send a
// delivery again. Each needs webhooks.manage, checked here: a server action is a public POST endpoint.
import { redirect } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { confirmOrSay, type Confirmation } from '@/lib/surfaces/portal/confirmation';
import { createWebhookFromForm, deleteWebhookFor, resendWebhookDeliveryFor, setWebhookEnabledFor, type WebhookFormState } from '@/lib/surfaces/portal/webhooks';
import { asAdmin } from '../outcomes';

const PAGE = '/admin/webhooks';
const endpointPage = (id: string) => `${PAGE}/${encodeURIComponent(id)}`;

export async function createWebhookAction(_state: WebhookFormState, form: FormData): Promise<WebhookFormState> {
  return asAdmin('webhooks.manage', PAGE, (admin) => createWebhookFromForm(admin, form));
}

export async function enableWebhookAction(id: string): Promise<void> {
  const result = await asAdmin('webhooks.manage', endpointPage(id), (admin) => setWebhookEnabledFor(admin, id, true));
  redirect(result.status === 'done' ? `${endpointPage(id)}?notice=enabled` : `${PAGE}?notice=notFound`);
}

/** Disabling stops queueing events for it: only with the box ticked. */
export async function disableWebhookAction(id: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, (await getTranslations('admin.webhooks'))('disableUnconfirmed'), async () => {
    const result = await asAdmin('webhooks.manage', endpointPage(id), (admin) => setWebhookEnabledFor(admin, id, false));
    redirect(result.status === 'done' ? `${endpointPage(id)}?notice=disabled` : `${PAGE}?notice=notFound`);
  });
}

/** Deleting drops its pending deliveries too: only with the box ticked. */
export async function deleteWebhookAction(id: string, _state: Confirmation, form: FormData): Promise<Confirmation> {
  return confirmOrSay(form, (await getTranslations('admin.webhooks'))('deleteUnconfirmed'), async () => {
    const result = await asAdmin('webhooks.manage', endpointPage(id), (admin) => deleteWebhookFor(admin, id));
    redirect(`${PAGE}?notice=${result.status === 'done' ? 'deleted' : 'notFound'}`);
  });
}

export async function resendWebhookDeliveryAction(id: string, deliveryId: string): Promise<void> {
  const result = await asAdmin('webhooks.manage', endpointPage(id), (admin) => resendWebhookDeliveryFor(admin, id, deliveryId));
  redirect(`${endpointPage(id)}?notice=${result.status === 'done' ? 'resent' : 'notResent'}`);
}
