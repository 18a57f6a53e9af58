'use client';
/**
 * Registering a webhook endpoint: its URL, what it is for, and the events it gets. Its action is a server action
 * validated by the endpoint's one schema (lib/webhooks/manage.ts); problems come back next to their fields in the
 * page's language. Once registered, the signing secret is shown once, to copy.
 */
import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { fieldProblemTexts } from '@/lib/i18n/problems';
import type { WebhookField, WebhookFormState, WebhookFormValues } from '@/lib/surfaces/portal/webhooks';
import { Button, focusRing } from '../ui/button';
import { Errors, TextField } from '../ui/field';
import { ShownOnce } from './shown-once';
import { ProblemSummary } from '../ui/problem-summary';

const shownFields = ['url', 'description', 'events'] as const satisfies readonly WebhookField[];

export function WebhookForm({
  action,
  initial,
  eventTypes,
}: {
  action: (state: WebhookFormState, form: FormData) => Promise<WebhookFormState>;
  initial: WebhookFormValues;
  /** The events an endpoint may get (lib/webhooks/events.ts), passed in so that module stays on the server. */
  eventTypes: readonly string[];
}) {
  const t = useTranslations('admin.webhookForm');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'editing', values: initial, problems: {} });
  if (state.status === 'created') {
    return (
      <ShownOnce
        heading={t('created', { url: state.url })}
        hint={t('copySecret')}
        field={{ id: 'webhook-secret', label: t('secret'), value: state.secret }}
        done={{ href: `/admin/webhooks/${encodeURIComponent(state.id)}`, label: t('done') }}
      />
    );
  }
  const errors = fieldProblemTexts(problems, state.problems);
  const v = state.values;
  const names = Object.fromEntries((['form', ...shownFields] as const).map((field) => [field, t(`fields.${field}`)])) as Record<WebhookField | 'form', string>;
  return (
    <form action={formAction} noValidate className="space-y-5">
      <ProblemSummary errors={errors} names={names} />
      <TextField id="url" label={t('fields.url')} hint={t('urlHint')} errors={errors.url} required type="url" defaultValue={v.url} />
      <TextField id="description" label={t('fields.description')} errors={errors.description} defaultValue={v.description} />
      <fieldset aria-describedby={errors.events?.length ? 'events-error' : undefined}>
        <legend className="text-sm font-medium text-slate-800">{t('fields.events')}</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-2">
          {eventTypes.map((type) => (
            <label key={type} className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="events" value={type} defaultChecked={v.events.includes(type)} className={`size-4 accent-indigo-600 ${focusRing}`} />
              <span className="font-mono">{type}</span>
            </label>
          ))}
        </div>
        <Errors id="events-error" messages={errors.events} />
      </fieldset>
      <Button type="submit" disabled={pending}>
        {pending ? t('creating') : t('create')}
      </Button>
    </form>
  );
}
