// /admin/connections/new: add a connection. First a preset or an empty form (plain links: no JavaScript needed), then
// the form the preset filled in (lib/federation/presets.ts); Microsoft Entra ID asks for its tenant first.
import type { Metadata } from 'next';
import { Link } from '@/components/ui/link';
import { getTranslations } from 'next-intl/server';
import { ConnectionForm } from '@/components/admin/connection-form';
import { FormPage } from '@/components/portal/detail';
import { Button, focusRing } from '@/components/ui/button';
import { TextField } from '@/components/ui/field';
import { CONNECTION_CHOICES, isConnectionChoice, presetFormValues } from '@/lib/surfaces/portal/connection-fields';
import { federationCallbackUrl } from '@/lib/surfaces/portal/connections';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { createConnectionAction } from '../actions';

export const dynamic = 'force-dynamic';
export async function generateMetadata(): Promise<Metadata> {
  return { title: (await getTranslations('admin.connectionForm'))('createTitle') };
}

export default async function NewConnectionPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { preset, tenant } = await searchParams;
  const chosen = isConnectionChoice(preset) ? preset : undefined;
  const tenantText = typeof tenant === 'string' ? tenant.slice(0, 200) : undefined;
  await requireAdmin('connections.manage', chosen ? `/admin/connections/new?preset=${chosen}` : '/admin/connections/new');
  const t = await getTranslations('admin.connectionForm');
  const back = { href: '/admin/connections', label: (await getTranslations('admin.connections'))('title') };

  if (!chosen) {
    return (
      <FormPage title={t('createTitle')} back={back} description={t('chooseDescription')} wide>
        <nav aria-label={t('chooseLabel')}>
          <ul className="grid gap-3 sm:grid-cols-2">
            {CONNECTION_CHOICES.map((choice) => (
              <li key={choice}>
                <Link
                  href={`/admin/connections/new?preset=${choice}`}
                  className={`block h-full rounded-xl border border-slate-200 bg-white p-4 shadow-xs hover:border-indigo-400 hover:bg-slate-50 ${focusRing}`}
                >
                  <span className="block font-semibold text-slate-900">{t(`presets.${choice}.label`)}</span>
                  <span className="mt-1 block text-sm text-slate-600">{t(`presets.${choice}.hint`)}</span>
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </FormPage>
    );
  }

  const initial = presetFormValues(chosen, tenantText);
  const description = t('presetDescription', { preset: t(`presets.${chosen}.label`) });
  if (initial === 'needs_tenant') {
    // A plain GET form: the tenant goes into the issuer the preset builds.
    return (
      <FormPage title={t('createTitle')} back={back} description={description} wide>
        <form method="get" action="/admin/connections/new" className="space-y-5">
          <input type="hidden" name="preset" value={chosen} />
          <TextField
            id="tenant"
            label={t('tenant')}
            hint={t('tenantHint')}
            errors={tenantText === undefined ? undefined : [t('tenantInvalid')]}
            defaultValue={tenantText}
            required
            spellCheck={false}
          />
          <Button type="submit">{t('continue')}</Button>
        </form>
      </FormPage>
    );
  }

  return (
    <FormPage title={t('createTitle')} back={back} description={description} wide>
      <p className="-mt-2 mb-6 text-sm">
        <Link href="/admin/connections/new" className={`rounded-sm font-medium text-indigo-700 hover:underline ${focusRing}`}>
          {t('otherPreset')}
        </Link>
      </p>
      <ConnectionForm action={createConnectionAction} initial={initial} mode="create" cancelHref="/admin/connections" callbackUrl={federationCallbackUrl()} />
    </FormPage>
  );
}
