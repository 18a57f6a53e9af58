// The bulk confirmation page both lists share: what the chosen action will do to each chosen item, and one button.
import 'server-only';
import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { BulkConfirmation } from '@/components/portal/bulk';
import { FormPage } from '@/components/portal/detail';
import { type BulkArea, planBulk, readBulkRequest } from '@/lib/surfaces/portal/bulk';
import { requireAdmin } from '@/lib/surfaces/portal/session';
import { bulkClientsAction, bulkUsersAction } from './bulk-actions';

export async function bulkTitle(area: BulkArea): Promise<string> {
  return (await getTranslations('portal.bulk'))(`title.${area}`);
}

export async function BulkPage({ area, searchParams }: { area: BulkArea; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const list = `/admin/${area}`;
  const ids = params.id === undefined ? [] : Array.isArray(params.id) ? params.id : [params.id];
  const request = readBulkRequest({ action: params.action, ids });
  const search = new URLSearchParams([...(typeof params.action === 'string' ? [['action', params.action]] : []), ...ids.map((id) => ['id', id])]);
  const admin = await requireAdmin(area === 'users' ? 'users.manage' : 'clients.manage', `${list}/bulk?${search}`);
  const t = await getTranslations('portal.bulk');
  const back = { href: list, label: (await getTranslations(area === 'users' ? 'admin.users' : 'admin.clients'))('title') };
  if (!request) {
    // Nothing ticked (or an unknown action): say so rather than showing an empty confirmation.
    if (typeof params.action !== 'string' || !['disable', 'enable', 'delete'].includes(params.action)) notFound();
    return (
      <FormPage title={t(`title.${area}`)} back={back}>
        <p className="text-sm text-slate-700">{t('noneChosen')}</p>
      </FormPage>
    );
  }
  const plan = await planBulk(admin, area, request);
  return (
    <FormPage title={t(`title.${area}`)} back={back}>
      <BulkConfirmation plan={plan} action={area === 'users' ? bulkUsersAction : bulkClientsAction} back={list} />
    </FormPage>
  );
}
