// /admin/clients/new: register a client. First the kind of application (plain links: no JavaScript needed), then the
// form with only the fields that kind can use; its secret is shown once, in the answer to the form.
import type { Metadata } from 'next';
import { Link } from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import { ClientForm } from '@/components/admin/client-form';
import { FormPage } from '@/components/portal/detail';
import { focusRing } from '@/components/ui/button';
import { env } from '@/lib/config/env';
import { clientFormValues } from '@/lib/surfaces/portal/client-fields';
import { CLIENT_LAYOUTS, CLIENT_PRESETS, isClientKind, presetValues } from '@/lib/surfaces/portal/client-presets';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { createClientAction } from '../actions';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.clientForm'))('createTitle') };
}

export default async function NewClientPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { kind } = await searchParams;
  const chosen = isClientKind(kind) ? kind : undefined;
  await requireAdmin('clients.manage', chosen ? `/admin/clients/new?kind=${chosen}` : '/admin/clients/new');
  const t = await getTranslations('admin.clientForm');
  const presets = await getTranslations('admin.presets');
  const back = { href: '/admin/clients', label: (await getTranslations('admin.clients'))('title') };

  if (!chosen) {
    return (
      <FormPage title={t('createTitle')} back={back} description={presets('chooseDescription')} wide>
        <nav aria-label={presets('chooseLabel')}>
          <ul className="grid gap-3 sm:grid-cols-2">
            {[...CLIENT_PRESETS, 'custom' as const].map((preset) => (
              <li key={preset}>
                <Link
                  href={`/admin/clients/new?kind=${preset}`}
                  className={`block h-full rounded-xl border border-slate-200 bg-white p-4 shadow-xs hover:border-indigo-400 hover:bg-slate-50 ${focusRing}`}
                >
                  <span className="block font-semibold text-slate-900">{presets(`kinds.${preset}.label`)}</span>
                  <span className="mt-1 block text-sm text-slate-600">{presets(`kinds.${preset}.hint`)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </FormPage>
    );
  }

  return (
    <FormPage title={t('createTitle')} back={back} description={presets('kindDescription', { kind: presets(`kinds.${chosen}.label`) })} wide>
      <p className="-mt-2 mb-6 text-sm">
        <Link href="/admin/clients/new" className={`rounded-sm font-medium text-indigo-700 hover:underline ${focusRing}`}>
          {presets('otherKind')}
        </Link>
      </p>
      <ClientForm
        action={createClientAction}
        initial={presetValues(chosen, clientFormValues())}
        layout={CLIENT_LAYOUTS[chosen]}
        mode="create"
        cancelHref="/admin/clients"
        issuer={env().ISSUER}
      />
    </FormPage>
  );
}
