'use server';
// The webhook pages' server actions: register an endpoint (its secret shown once), enable, disable, delete, send a
// delivery again. Each needs webhooks.manage, checked here: a server action is a public POST endpoint.
import { redirect } from 'next/navigation';
import { createWebhookFromForm, deleteWebhookFor, resendWebhookDeliveryFor, setWebhookEnabledFor, type WebhookFormState } from '@/lib/surfaces/portal/webhooks';
import { asAdmin } from '../outcomes';

const PAGE = '/admin/webhooks';
const endpointPage = (id: string) => `${PAGE}/${encodeURIComponent(id)}`;

export async function createWebhookAction(_state: WebhookFormState, form: FormData): Promise<WebhookFormState> {
  return asAdmin('webhooks.manage', PAGE, (admin) => createWebhookFromForm(admin, form));
}

export async function setWebhookEnabledAction(id: string, enabled: boolean): Promise<void> {
  const result = await asAdmin('webhooks.manage', endpointPage(id), (admin) => setWebhookEnabledFor(admin, id, enabled));
  redirect(result.status === 'done' ? `${endpointPage(id)}?notice=${enabled ? 'enabled' : 'disabled'}` : `${PAGE}?notice=notFound`);
}

export async function deleteWebhookAction(id: string): Promise<void> {
  const result = await asAdmin('webhooks.manage', endpointPage(id), (admin) => deleteWebhookFor(admin, id));
  redirect(`${PAGE}?notice=${result.status === 'done' ? 'deleted' : 'notFound'}`);
}

export async function resendWebhookDeliveryAction(id: string, deliveryId: string): Promise<void> {
  const result = await asAdmin('webhooks.manage', endpointPage(id), (admin) => resendWebhookDeliveryFor(admin, id, deliveryId));
  redirect(`${endpointPage(id)}?notice=${result.status === 'done' ? 'resent' : 'notResent'}`);
}
