'use client';
/**
 * Issuing an initial access token for dynamic client registration: who it is for and its limits. Its action is a
 * server action validated by the token's one schema (lib/registration/tokens.ts); problems come back next to their
 * fields in the page's language. Once issued, the token is shown once, to copy: Gatehouse keeps only its hash.
 */
import { useTranslations } from 'next-intl';
import { useActionState } from 'react';
import { fieldProblemTexts } from '@/lib/i18n/problems';
import type { RegistrationTokenField, RegistrationTokenFormValues } from '@/lib/surfaces/portal/registration-token-fields';
import type { RegistrationTokenFormState } from '@/lib/surfaces/portal/registration';
import { Button, focusRing } from '../ui/button';
import { border, describedBy, Errors, Field, inputLook, TextField } from '../ui/field';
import { ShownOnce } from './shown-once';
import { ProblemSummary } from '../ui/problem-summary';

/** The summary's order, as the form shows them. */
const shownFields = [
  'name',
  'maxClients',
  'expiresInDays',
  'redirectHosts',
  'grantTypes',
  'scopes',
  'requireApproval',
] as const satisfies readonly RegistrationTokenField[];

function Checkboxes({
  name,
  legend,
  options,
  checked,
  errors,
}: {
  name: string;
  legend: string;
  options: readonly string[];
  checked: string[];
  errors?: string[];
}) {
  return (
    <fieldset aria-describedby={errors?.length ? `${name}-error` : undefined}>
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
        {options.map((option) => (
          <label key={option} className="flex items-center gap-2 text-sm">
            <input type="checkbox" name={name} value={option} defaultChecked={checked.includes(option)} className={`size-4 accent-indigo-600 ${focusRing}`} />
            <span className="font-mono">{option}</span>
          </label>
        ))}
      </div>
      <Errors id={`${name}-error`} messages={errors} />
    </fieldset>
  );
}

export function RegistrationTokenForm({
  action,
  initial,
  grantTypes,
  scopes,
}: {
  action: (state: RegistrationTokenFormState, form: FormData) => Promise<RegistrationTokenFormState>;
  initial: RegistrationTokenFormValues;
  /** What a token may allow (lib/registration/tokens.ts), passed in so that module stays on the server. */
  grantTypes: readonly string[];
  scopes: readonly string[];
}) {
  const t = useTranslations('admin.registrationForm');
  const problems = useTranslations('problems');
  const [state, formAction, pending] = useActionState(action, { status: 'editing', values: initial, problems: {} });
  if (state.status === 'issued') {
    return (
      <ShownOnce
        heading={t('issued', { name: state.name })}
        hint={t('copyToken')}
        field={{ id: 'initial-access-token', label: t('token'), value: state.token }}
        done={{ href: '/admin/registration', label: t('done') }}
      />
    );
  }
  const errors = fieldProblemTexts(problems, state.problems);
  const v = state.values;
  const names = Object.fromEntries((['form', ...shownFields] as const).map((field) => [field, t(`fields.${field}`)])) as Record<
    RegistrationTokenField | 'form',
    string
  >;
  return (
    <form action={formAction} noValidate className="space-y-5">
      <ProblemSummary errors={errors} names={names} />
      <TextField id="name" label={t('fields.name')} hint={t('nameHint')} errors={errors.name} required defaultValue={v.name} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField id="maxClients" label={t('fields.maxClients')} errors={errors.maxClients} type="number" min={1} max={10000} defaultValue={v.maxClients} />
        <TextField
          id="expiresInDays"
          label={t('fields.expiresInDays')}
          errors={errors.expiresInDays}
          type="number"
          min={1}
          max={365}
          defaultValue={v.expiresInDays}
        />
      </div>
      <Field id="redirectHosts" label={t('fields.redirectHosts')} hint={t('redirectHostsHint')} errors={errors.redirectHosts}>
        <textarea
          id="redirectHosts"
          name="redirectHosts"
          rows={3}
          spellCheck={false}
          defaultValue={v.redirectHosts}
          aria-invalid={Boolean(errors.redirectHosts?.length) || undefined}
          aria-describedby={describedBy('redirectHosts', true, errors.redirectHosts)}
          className={`${inputLook} font-mono ${border(Boolean(errors.redirectHosts?.length))}`}
        />
      </Field>
      <Checkboxes name="grantTypes" legend={t('fields.grantTypes')} options={grantTypes} checked={v.grantTypes} errors={errors.grantTypes} />
      <Checkboxes name="scopes" legend={t('fields.scopes')} options={scopes} checked={v.scopes} errors={errors.scopes} />
      <label className="flex gap-3 text-sm">
        <input
          id="requireApproval"
          type="checkbox"
          name="requireApproval"
          defaultChecked={v.requireApproval}
          className={`mt-0.5 size-4 accent-indigo-600 ${focusRing}`}
        />
        <span>
          <span className="font-medium text-slate-900">{t('fields.requireApproval')}</span>
          <span className="block text-slate-600">{t('requireApprovalHint')}</span>
        </span>
      </label>
      <Button type="submit" disabled={pending}>
        {pending ? t('issuing') : t('issue')}
      </Button>
    </form>
  );
}
