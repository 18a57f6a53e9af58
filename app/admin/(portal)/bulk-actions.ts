'use server';
// The bulk confirmation pages' server action: the admin is checked here, in the action, and the plan computed
// again (lib/surfaces/portal/bulk.ts); each item is changed and audited through its own use case.
import { redirect } from 'next/navigation';
import { applyBulk, type BulkArea, readBulkRequest } from '@/lib/surfaces/portal/bulk';
import { asAdmin } from './outcomes';

async function apply(area: BulkArea, form: FormData): Promise<void> {
  const request = readBulkRequest({ action: form.get('action'), ids: form.getAll('id') });
  if (!request) redirect(`/admin/${area}`);
  const { changed } = await asAdmin(area === 'users' ? 'users.manage' : 'clients.manage', `/admin/${area}`, (admin) => applyBulk(admin, area, request));
  redirect(`/admin/${area}?notice=bulk_${request.action}&count=${changed}`);
}

export async function bulkUsersAction(form: FormData): Promise<void> {
  await apply('users', form);
}

export async function bulkClientsAction(form: FormData): Promise<void> {
  await apply('clients', form);
}
