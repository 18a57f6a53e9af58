// What a list says after a bulk action (the confirmation page's server action redirects back with ?notice=bulk_<action>&count=n).
import 'server-only';
import { getTranslations } from 'next-intl/server';
import { BULK_ACTIONS } from '@/lib/surfaces/portal/bulk';

export async function bulkNotices(kind: 'user' | 'client', count: unknown) {
  const t = await getTranslations('portal.bulk');
  const n = typeof count === 'string' && /^\d{1,3}$/.test(count) ? Number(count) : 0;
  return Object.fromEntries(BULK_ACTIONS.map((action) => [`bulk_${action}`, { variant: 'success' as const, text: t(`done.${action}.${kind}`, { count: n }) }]));
}
