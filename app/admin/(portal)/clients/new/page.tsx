// /admin/clients/new: register a client; its secret is shown once, in the answer to the form.
import type { Metadata } from 'next';
import { ClientForm } from '@/components/admin/client-form';
import { FormPage } from '@/components/portal/detail';
import { clientFormValues } from '@/lib/services/portal/client-form';
import { requireAdmin } from '@/lib/services/portal/session';
import { createClientAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Register a client' };

export default async function NewClientPage() {
  await requireAdmin('/admin/clients/new');
  return (
    <FormPage
      title="Register a client"
      back={{ href: '/admin/clients', label: 'Clients' }}
      description="An application that signs people in with Gatehouse, or an API."
      wide
    >
      <ClientForm action={createClientAction} initial={clientFormValues()} mode="create" cancelHref="/admin/clients" />
    </FormPage>
  );
}
