/**
 * Bulk actions on a list: a checkbox per row and the actions' buttons, in a GET form to the list's confirmation
 * page (nothing changes on the list itself, and it works without JavaScript); then that page, which says item by
 * item what will happen and posts to a server action (CSRF-safe: Next.js refuses a server-action post from
 * another origin). Words: the catalogs' portal.bulk. UI only.
 */
import { useTranslations } from 'next-intl';
import type { ReactNode } from 'react';
import type { BulkArea, BulkItem, BulkPlan } from '@/lib/surfaces/portal/bulk';
import { Button, ButtonLink, focusRing } from '../ui/button';
import { Badge, type BadgeVariant } from '../ui/notice';

/** A row's checkbox; `label` names the row for a screen reader ("Select alice"). */
export function BulkCheckbox({ id, label }: { id: string; label: string }) {
  return (
    <td className="w-10 px-4 py-3">
      <input type="checkbox" name="id" value={id} aria-label={label} className={`size-4 accent-indigo-600 ${focusRing}`} />
    </td>
  );
}

/** The list's table inside the bulk form, with the actions' buttons above it. */
export function BulkForm({ area, children }: { area: BulkArea; children: ReactNode }) {
  const t = useTranslations('portal.bulk');
  return (
    <form method="get" action={`/admin/${area}/bulk`} aria-label={t('formLabel')}>
      <fieldset className="mb-3 flex flex-wrap items-center gap-2">
        <legend className="sr-only">{t('legend')}</legend>
        <span className="text-sm text-slate-600">{t('withSelected')}</span>
        {(['disable', 'enable', 'delete'] as const).map((action) => (
          <Button key={action} type="submit" name="action" value={action} variant={action === 'delete' ? 'danger' : 'secondary'}>
            {t(`actions.${action}`)}
          </Button>
        ))}
      </fieldset>
      {children}
    </form>
  );
}

const outcomeLooks: Record<BulkItem['outcome'], BadgeVariant> = {
  change: 'amber',
  unchanged: 'slate',
  self: 'red',
  managed: 'red',
  missing: 'slate',
  role: 'red',
};

/** The confirmation page's body: each chosen item and what happens to it, then the one button (or the way back when nothing would change). */
export function BulkConfirmation({ plan, action, back }: { plan: BulkPlan; action: (form: FormData) => Promise<void>; back: string }) {
  const t = useTranslations('portal.bulk');
  const changing = plan.items.filter((item) => item.outcome === 'change').length;
  const kind = (area: BulkArea) => (area === 'users' ? 'user' : 'client');
  return (
    <div className="space-y-6">
      <p className="text-sm text-slate-700">{t(`intro.${plan.action}.${kind(plan.area)}`, { count: changing })}</p>
      <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
        {plan.items.map((item) => (
          <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 text-sm">
            <span className="min-w-0 font-medium wrap-anywhere text-slate-900">{item.label}</span>
            <Badge variant={outcomeLooks[item.outcome]}>{item.outcome === 'change' ? t(`will.${plan.action}`) : t(`outcomes.${item.outcome}`)}</Badge>
          </li>
        ))}
      </ul>
      {changing ? (
        <form action={action} className="flex flex-wrap items-center gap-3">
          <input type="hidden" name="action" value={plan.action} />
          {plan.items.map((item) => (
            <input key={item.id} type="hidden" name="id" value={item.id} />
          ))}
          <Button type="submit" variant={plan.action === 'enable' ? 'primary' : 'danger'}>
            {t(`submit.${plan.action}.${kind(plan.area)}`, { count: changing })}
          </Button>
          <ButtonLink variant="secondary" href={back}>
            {t('cancel')}
          </ButtonLink>
        </form>
      ) : (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">{t('nothing')}</p>
          <ButtonLink variant="secondary" href={back}>
            {t('back')}
          </ButtonLink>
        </div>
      )}
    </div>
  );
}
